package transform

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/filters/namespace"
	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// setNamespace is kustomize's NamespaceTransformer for the `namespace`
// field. kustomize checks every object's new ID against all objects after
// moving it; this keeps a count per current ID instead, with the same result.
type setNamespace struct {
	namespace string
	fss       types.FsSlice
	changes
}

type idCount map[resourcemap.IDKey]int

func (t *setNamespace) Transform(m resmap.ResMap) error {
	t.reset()
	list := m.Resources()
	counts := idCount{}
	for _, r := range list {
		counts[resourcemap.KeyOf(resourcemap.CurID(r))]++
	}
	for _, r := range list {
		if r.IsNilOrEmpty() {
			continue
		}
		if a := r.GetAnnotations(konfig.HelmGeneratedAnnotation); a[konfig.HelmGeneratedAnnotation] == "true" {
			continue
		}
		before := resourcemap.KeyOf(resourcemap.CurID(r))
		// The previous-ID annotations grow on every object it moves.
		resourcemap.StorePreviousID(r)
		t.add(r)
		if err := r.ApplyFilter(namespace.Filter{
			Namespace:              t.namespace,
			FsSlice:                t.fss,
			SetRoleBindingSubjects: namespace.DefaultSubjectsOnly,
		}); err != nil {
			return err
		}
		after := resourcemap.KeyOf(resourcemap.CurID(r))
		counts[before]--
		counts[after]++
		if counts[after] != 1 {
			return fmt.Errorf("namespace transformation produces ID conflict: %+v", conflicting(list, r))
		}
	}
	return nil
}

func conflicting(list []*resource.Resource, r *resource.Resource) []*resource.Resource {
	id := resourcemap.CurID(r)
	var out []*resource.Resource
	for _, o := range list {
		if resourcemap.CurID(o).Equals(id) {
			out = append(out, o)
		}
	}
	return out
}
