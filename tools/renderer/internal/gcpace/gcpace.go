// Package gcpace paces the garbage collector of one krm process: while the
// live heap is small it lets the heap grow to a minimum target instead of
// collecting at twice the live heap (GOGC=100). A large render builds its
// objects up from a few MB, and at GOGC=100 most of its collections (and
// about a sixth of its CPU) went to heaps far below its peak. Once 1.9 times
// the live heap passes the target, GOGC=Steady (90) holds: a little below
// Go's default, so that a large render, whose collections all fall on large
// heaps, peaks no higher than at GOGC=100 with the garbage krm used to make.
package gcpace

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// runtimeHeapMinimum is the runtime's smallest heap target at GOGC=100: it
// never collects a heap below runtimeHeapMinimum x GOGC/100.
const runtimeHeapMinimum = 4 << 20

var (
	mu      sync.Mutex
	minHeap uint64 // 0: not started
	paused  int
	saved   int // GOGC before the first Pause
	samples = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
)

// Start keeps the heap target at least min bytes from now until the process
// ends. It does nothing when the GOGC environment variable is set (the
// user's pacing wins) or when it has started already.
func Start(min uint64) {
	if os.Getenv("GOGC") != "" {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	if minHeap != 0 || min == 0 {
		return
	}
	minHeap = min
	adjust()
	arm()
}

// sentinel is garbage as soon as it is made, so its finalizer runs after
// the next collection; it then adjusts GOGC and arms a new one.
type sentinel struct {
	_ *int // pointerful and 16 bytes: not batched by the tiny allocator
	_ int
}

func arm() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		mu.Lock()
		defer mu.Unlock()
		adjust()
		arm()
	})
}

// adjust sets GOGC for the live heap now, unless paused.
func adjust() {
	if paused > 0 {
		return
	}
	metrics.Read(samples)
	debug.SetGCPercent(Percent(samples[0].Value.Uint64(), minHeap))
}

// Steady is the GOGC once the heap target passes the minimum.
const Steady = 90

// Percent is the GOGC value whose next collection comes when the heap
// reaches max(1.9 x live, minHeap): Steady once 1.9 x live reaches minHeap.
// A live heap of 0 (no collection yet) or too small for GOGC to reach
// minHeap gets the GOGC at which the runtime's own minimum is minHeap.
func Percent(live, minHeap uint64) int {
	if live*(100+Steady)/100 >= minHeap {
		return Steady
	}
	max := int(minHeap * 100 / runtimeHeapMinimum)
	if max <= Steady {
		return Steady // minHeap at most the runtime's own minimum
	}
	if live == 0 {
		return max
	}
	if p := int(minHeap*100/live) - 100; p < max {
		return p
	}
	return max
}

// Pause turns the collector off until the matching resume (calls nest), for
// code that paces it itself for a while; resume restores the pacing.
func Pause() (resume func()) {
	mu.Lock()
	defer mu.Unlock()
	if paused++; paused == 1 {
		saved = debug.SetGCPercent(-1)
	}
	return func() {
		mu.Lock()
		defer mu.Unlock()
		if paused--; paused == 0 {
			debug.SetGCPercent(saved)
			if minHeap != 0 {
				adjust()
			}
		}
	}
}

// Lower makes min the heap target's minimum until restore, for a command whose live heap
// stays small (krm validate holds one document at a time), whose garbage would otherwise
// fill the heap up to the minimum of Start. It does nothing unless pacing has started with a
// larger minimum.
func Lower(min uint64) (restore func()) {
	mu.Lock()
	defer mu.Unlock()
	prev := minHeap
	if prev == 0 || min == 0 || min >= prev {
		return func() {}
	}
	minHeap = min
	adjust()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		minHeap = prev
		adjust()
	}
}
