package accumulate

import (
	"runtime"
	"sync"
	"sync/atomic"

	"sigs.k8s.io/kustomize/api/ifc"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/rules-krm/rules_krm/internal/kustref"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// parsed is one entry of `resources` read and parsed ahead of its turn,
// read through ldr (the observer's loader, which may have watched it).
type parsed struct {
	list []*resource.Resource
	ldr  ifc.Loader
	ok   bool
}

// parseAhead reads and parses the entries of paths that are resource files,
// in parallel, so that accumulateResources finds them ready; it merges them
// in order as before. An entry that fails here (a directory, a remote, a bad
// file) is left to the sequential path, which reports kustomize's error.
func (t *Target) parseAhead(paths []string) []parsed {
	if len(paths) < 2 {
		return nil
	}
	out := make([]parsed, len(paths))
	rf := t.env.Factory.RF()
	var next atomic.Int64
	next.Store(-1)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0) && w < len(paths); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1))
				if i >= len(paths) {
					return
				}
				if kustref.IsRemote(paths[i]) {
					continue
				}
				ldr := t.env.Observer.Loader(t.ldr)
				data, err := ldr.Load(paths[i])
				if err != nil {
					continue
				}
				if list, err := load.ParseResources(rf, data); err == nil {
					out[i] = parsed{list: list, ldr: ldr, ok: true}
				}
			}
		}()
	}
	wg.Wait()
	return out
}
