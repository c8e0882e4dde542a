package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profile starts the profiles that KRM_CPUPROFILE and KRM_MEMPROFILE name
// (files for `go tool pprof`; a developer aid, not a documented flag) and
// returns what writes and closes them. Without the variables it does nothing.
func profile() (stop func()) {
	stop = func() {}
	if path := os.Getenv("KRM_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "krm: KRM_CPUPROFILE: %v\n", err)
		} else {
			stop = func() { pprof.StopCPUProfile(); f.Close() }
		}
	}
	if path := os.Getenv("KRM_MEMPROFILE"); path != "" {
		runtime.MemProfileRate = 64 << 10
		cpu := stop
		stop = func() {
			cpu()
			// The profile holds allocations up to the last collection:
			// collect, so that the last phases of the build are in it.
			runtime.GC()
			f, err := os.Create(path)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
			if err != nil {
				fmt.Fprintf(os.Stderr, "krm: KRM_MEMPROFILE: %v\n", err)
			}
		}
	}
	return stop
}
