package finish

import (
	"sort"

	"sigs.k8s.io/kustomize/api/filters/refvar"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
)

// substituteVars replaces $(NAME) in the var-reference fields and returns the
// names of vars that no field used. obs is told each var substituted into
// each resource, and the resource its value came from (sources).
func substituteVars(m resmap.ResMap, values map[string]interface{}, sources map[string]*resource.Resource, specs types.FsSlice, obs observe.Observer) ([]string, error) {
	counts := map[string]int{}
	mapping := refvar.MakePrimitiveReplacer(counts, values)
	for _, r := range m.Resources() {
		f := func(name string) interface{} {
			if v, ok := values[name]; ok {
				obs.VarUsed(r, name, sources[name], v)
			}
			return mapping(name)
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
