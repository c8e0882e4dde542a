package accumulate

import (
	"io"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// ScanTree reads the kustomization tree under ldr once before a build: it
// counts base uses (for memoization) and reports whether any kustomization
// sets `openapi`. It also records whether a kustomization below the top
// inflates a helm chart that inherits its namespace from an including
// kustomization (BaseInheritsHelmNamespace).
//
// CountBaseUses predicts how many times each base directory will be looked
// up when the kustomization in ldr is accumulated with memoization: once per
// directory entry of every kustomization accumulated (each once) and of
// every component application. A wrong guess costs only memory or a
// recomputation, never correctness.
//
// It also learns which base directories have no `helmCharts` entry in their
// whole subtree (bases and components): their accumulation does not depend on
// the namespace helm charts inherit, so one memoized copy serves every
// including kustomization.
func (e *Env) ScanTree(ldr *load.Loader) (usesOpenAPI bool) {
	e.uses = map[string]int{}
	e.helmFree = map[string]bool{}
	seen := map[string]bool{}
	// visit reports whether l's subtree is known to have no helmCharts; an
	// unreadable kustomization or a cycle counts as having some.
	var visit func(l *load.Loader, depth int) (helmFree bool)
	visit = func(l *load.Loader, depth int) (helmFree bool) {
		if depth > 100 {
			return false // a cycle; accumulation reports it
		}
		k, err := load.ReadKustomization(l, io.Discard)
		if err != nil {
			return false
		}
		if len(k.OpenAPI) > 0 {
			usesOpenAPI = true
		}
		if depth > 0 && k.InheritsHelmNamespace() {
			e.baseInheritsHelmNamespace = true
		}
		helmFree = len(k.HelmCharts) == 0
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
				helmFree = false // a cycle, a remote base, ...: accumulation decides
				continue
			}
			sl := sub.(*load.Loader)
			root := sl.Root()
			e.uses[root]++
			if !seen[root] {
				seen[root] = true
				if visit(sl, depth+1) {
					e.helmFree[root] = true
				}
			}
			// Unset while root is still being visited: a cycle.
			helmFree = helmFree && e.helmFree[root]
		}
		for _, p := range k.Components {
			sub, err := l.New(p)
			if err != nil || !visit(sub.(*load.Loader), depth+1) {
				helmFree = false
			}
		}
		return helmFree
	}
	visit(ldr, 0)
	return usesOpenAPI
}

// BaseInheritsHelmNamespace reports whether ScanTree met a base or
// component whose chart inherits the namespace (kustref.InheritsHelmNamespace).
func (e *Env) BaseInheritsHelmNamespace() bool { return e.baseInheritsHelmNamespace }
