//go:build !linux

package starlarkfn

import "time"

// threadCPU returns a clock of the run's time: without a per-thread CPU
// clock, the wall-clock time since the call.
func threadCPU() func() time.Duration {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }
}
