package gcpace

import (
	"runtime"
	"runtime/debug"
	"testing"
)

const mb = 1 << 20

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		live, min uint64
		want      int
	}{
		{0, 128 * mb, 3200},      // runtime minimum 4 MB x 32 = 128 MB
		{1 * mb, 128 * mb, 3200}, // 128x live would be 12700: capped likewise
		{8 * mb, 128 * mb, 1500}, // 8 MB x 16 = 128 MB
		{32 * mb, 128 * mb, 300}, // 32 MB x 4
		{63 * mb, 128 * mb, 103}, // just under 2x
		{64 * mb, 128 * mb, 100}, // 2x live reaches the target
		{68 * mb, 128 * mb, 90},  // so does 1.9x live: Steady
		{500 * mb, 128 * mb, 90}, // far above: GOGC=Steady
		{10 * mb, 4 * mb, 90},    // a target below 1.9x live: Steady
	} {
		if got := Percent(c.live, c.min); got != c.want {
			t.Errorf("Percent(%d MB, %d MB) = %d, want %d", c.live/mb, c.min/mb, got, c.want)
		}
	}
}

// TestPauseResume: Pause turns collection off through nested calls, and
// the last resume restores pacing.
func TestPauseResume(t *testing.T) {
	if Percent(0, 1) != Steady {
		t.Fatal("Percent(0, 1) should not raise GOGC above Steady")
	}
	t.Setenv("GOGC", "") // Start ignores an empty GOGC
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	Start(256 * mb)
	runtime.GC()
	paced := debug.SetGCPercent(-2) // read (any negative turns it off)
	debug.SetGCPercent(paced)
	if paced <= 100 {
		t.Fatalf("GOGC after Start(256 MB) = %d, want above 100 with a small heap", paced)
	}
	r1 := Pause()
	r2 := Pause()
	if got := debug.SetGCPercent(-1); got >= 0 {
		t.Errorf("GOGC while paused = %d, want off", got)
	}
	runtime.GC() // the finalizer runs and must not turn pacing back on
	r2()
	if got := debug.SetGCPercent(-1); got >= 0 {
		t.Errorf("GOGC after the inner resume = %d, want off", got)
	}
	r1()
	if got := debug.SetGCPercent(paced); got <= 100 {
		t.Errorf("GOGC after the last resume = %d, want paced again", got)
	}
}

// TestLower: Lower paces for a smaller minimum until restore.
func TestLower(t *testing.T) {
	t.Setenv("GOGC", "")
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	Start(256 * mb) // or already started by TestPauseResume
	runtime.GC()
	gogc := func() int { p := debug.SetGCPercent(-2); debug.SetGCPercent(p); return p }
	paced := gogc()
	if paced <= 400 {
		t.Fatalf("GOGC after Start(256 MB) = %d, want above 400 with a small heap", paced)
	}
	restore := Lower(8 * mb)
	runtime.GC()
	if got := gogc(); got > 200 {
		t.Errorf("GOGC after Lower(8 MB) = %d, want at most 200 (8 MB over the runtime's 4)", got)
	}
	if noop := Lower(512 * mb); gogc() > 200 {
		t.Errorf("Lower(512 MB) raised GOGC to %d", gogc())
	} else {
		noop()
	}
	restore()
	runtime.GC()
	if got := gogc(); got <= 400 {
		t.Errorf("GOGC after restore = %d, want paced for 256 MB again", got)
	}
}
