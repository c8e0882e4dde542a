package finish

import (
	"sort"

	"sigs.k8s.io/kustomize/api/filters/refvar"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
)

// substituteVars replaces $(NAME) in the var-reference fields and returns the
// names of vars that no field used.
func substituteVars(m resmap.ResMap, values map[string]interface{}, specs types.FsSlice) ([]string, error) {
	counts := map[string]int{}
	mapping := refvar.MakePrimitiveReplacer(counts, values)
	for _, r := range m.Resources() {
		for _, fs := range specs {
			if err := r.ApplyFilter(refvar.Filter{MappingFunc: mapping, FieldSpec: fs}); err != nil {
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
