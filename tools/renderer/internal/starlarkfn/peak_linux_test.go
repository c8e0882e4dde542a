package starlarkfn

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/krmfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// The memory limit holds for the process: a script stopped for memory,
// inside one operation or between two, leaves the process's peak resident
// memory (VmHWM) at most the limit plus peakMargin above what it was when
// the script started. Each script runs in a child process (this test
// binary again), with the limit lowered to peakLimit so that it is quick.
const (
	peakChildEnv = "KRM_STARLARK_PEAK_CHILD" // the script the child runs
	peakLimit    = 256 << 20
	peakMargin   = 16 << 20
)

var peakScripts = map[string]string{
	"string doubling": "s = \"x\"\nfor i in range(40):\n  s = s + s",
	"list doubling":   "l = [0]\nfor i in range(40):\n  l = l + l",
	"join":            "l = [\"x\" * 1000000] * 1000\nt = \"\".join(l)",
	"steady growth":   "keep = []\nfor i in range(1000):\n  keep.append(\"x\" * 4000000)",
}

func TestPeakMemory(t *testing.T) {
	if name := os.Getenv(peakChildEnv); name != "" {
		runPeakChild(t, peakScripts[name])
		return
	}
	for name := range peakScripts {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestPeakMemory$")
			cmd.Env = append(os.Environ(), peakChildEnv+"="+name)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				t.Fatal(err)
			}
			var start, peak int64
			report := ""
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				if n, _ := fmt.Sscanf(sc.Text(), "start %d peak %d", &start, &peak); n == 2 {
					report = sc.Text()
				} else if strings.Contains(sc.Text(), "the script used more than") {
					report += "\n" + sc.Text()
				}
			}
			if !strings.Contains(report, fmt.Sprintf("the script used more than %d MiB of memory", peakLimit>>20)) {
				t.Fatalf("the child reported no memory error:\n%s%s", out, stderr.Bytes())
			}
			grew := peak - start
			t.Logf("peak resident memory grew %d MiB", grew>>20)
			if grew > peakLimit+peakMargin {
				t.Errorf("peak resident memory grew %d MiB, more than the limit of %d MiB plus %d MiB\n%s",
					grew>>20, peakLimit>>20, peakMargin>>20, report)
			}
		})
	}
}

// runPeakChild runs script with the limit lowered to peakLimit and prints
// "start RSS peak HWM" (bytes) and the error, whether the run returns it or
// aborts (krm's exit when one operation is past the limit).
func runPeakChild(t *testing.T, script string) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	var start int64
	report := func(msg string) {
		fmt.Printf("start %d peak %d\n%s\n", start, procStatus(t, "VmHWM"), msg)
	}
	p := configureWith(t, h, inline("s", script), krmfn.Runtime{Abort: func(msg string) {
		report(msg)
		os.Exit(3)
	}})
	p.maxMemory = peakLimit
	m := resMap(t, h, twoResources)
	start = procStatus(t, "VmRSS")
	err := p.Transform(m)
	report(fmt.Sprint(err))
}

// procStatus reads a memory line of /proc/self/status, in bytes.
func procStatus(t *testing.T, key string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("/proc/self/status has no %s", key)
	return 0
}
