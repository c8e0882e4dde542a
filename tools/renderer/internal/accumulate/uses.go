package accumulate

import (
	"io"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// ScanTree reads the kustomization tree under ldr once before a build: it
// counts base uses (for memoization) and reports whether any kustomization
// sets `openapi`.
//
// CountBaseUses predicts how many times each base directory will be looked
// up when the kustomization in ldr is accumulated with memoization: once per
// directory entry of every kustomization accumulated (each once) and of
// every component application. A wrong guess costs only memory or a
// recomputation, never correctness.
func (e *Env) ScanTree(ldr *load.Loader) (usesOpenAPI bool) {
	e.uses = map[string]int{}
	seen := map[string]bool{}
	var visit func(l *load.Loader, depth int)
	visit = func(l *load.Loader, depth int) {
		if depth > 100 {
			return // a cycle; accumulation reports it
		}
		k, err := load.ReadKustomization(l, io.Discard)
		if err != nil {
			return
		}
		if len(k.OpenAPI) > 0 {
			usesOpenAPI = true
		}
		var dirs []string
		for _, lists := range [][]string{k.Resources, k.Generators, k.Transformers, k.Validators} {
			for _, p := range lists {
				if _, err := l.Load(p); err == nil {
					continue // a file
				}
				dirs = append(dirs, p)
			}
		}
		for _, p := range dirs {
			sub, err := l.New(p)
			if err != nil {
				continue
			}
			sl := sub.(*load.Loader)
			e.uses[sl.Root()]++
			if !seen[sl.Root()] {
				seen[sl.Root()] = true
				visit(sl, depth+1)
			}
		}
		for _, p := range k.Components {
			if sub, err := l.New(p); err == nil {
				visit(sub.(*load.Loader), depth+1)
			}
		}
	}
	visit(ldr, 0)
	return usesOpenAPI
}
