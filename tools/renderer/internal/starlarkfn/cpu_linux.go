package starlarkfn

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

// threadCPU returns a clock of the CPU time of the calling OS thread, which
// other goroutines can read too (the watchdog does).
func threadCPU() func() time.Duration {
	file := fmt.Sprintf("/proc/self/task/%d/schedstat", syscall.Gettid())
	return func() time.Duration {
		b, err := os.ReadFile(file)
		if err != nil {
			return 0
		}
		ns, _ := strconv.ParseInt(string(bytes.Fields(b)[0]), 10, 64)
		return time.Duration(ns)
	}
}
