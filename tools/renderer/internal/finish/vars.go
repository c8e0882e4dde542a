package finish

import (
	"sort"

	"sigs.k8s.io/kustomize/api/filters/refvar"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
)

// substituteVars replaces $(NAME) in the var-reference fields and returns the
// names of vars that no field used.
// used, when not nil, is told each var substituted into each resource.
func substituteVars(m resmap.ResMap, values map[string]interface{}, specs types.FsSlice, used func(*resource.Resource, string)) ([]string, error) {
	counts := map[string]int{}
	mapping := refvar.MakePrimitiveReplacer(counts, values)
	for _, r := range m.Resources() {
		f := mapping
		if used != nil {
			r := r
			f = func(name string) interface{} {
				if _, ok := values[name]; ok {
					used(r, name)
				}
				return mapping(name)
			}
		}
		for _, fs := range specs {
			if err := r.ApplyFilter(refvar.Filter{MappingFunc: f, FieldSpec: fs}); err != nil {
				return nil, err
			}
		}
	}
	var unused []string
	for name := range values {
		if counts[name] == 0 {
			unused = append(unused, name)
		}
	}
	sort.Strings(unused)
	return unused, nil
}
