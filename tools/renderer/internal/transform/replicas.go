package transform

import (
	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// replicas adds one ReplicaCountTransformer per `replicas` entry, as
// kustomize runs them, each on the objects one of whose IDs has its name
// (what the plugin would find scanning the whole map once per field spec).
func replicas(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	idx := &nameIndex{}
	for _, r := range k.Replicas {
		p := &builtins.ReplicaCountTransformerPlugin{Replica: r, FieldSpecs: cfg.Replicas}
		err := b.addConfigured("ReplicaCountTransformer", p, func(fss []types.FieldSpec) interface{} {
			return struct {
				Replica    types.Replica
				FieldSpecs []types.FieldSpec
			}{r, fss}
		}, cfg.Replicas)
		if err != nil {
			return err
		}
		name := r.Name
		scope := func(m resmap.ResMap) ([]*resource.Resource, error) { return idx.of(m)[name], nil }
		b.setScope(scope)
		last := &b.out[len(b.out)-1]
		last.Transformer = scoped{last.Transformer, scope}
	}
	return nil
}

// nameIndex is one index of names for all of a kustomization's `replicas`
// entries: they run back to back and set only replica counts, so the names
// the first one finds hold for the others.
type nameIndex struct {
	m      resmap.ResMap
	byName map[string][]*resource.Resource
}

func (x *nameIndex) of(m resmap.ResMap) map[string][]*resource.Resource {
	if x.m != m {
		x.m, x.byName = m, resourcemap.ByAnyName(m)
	}
	return x.byName
}

// scoped runs a transformer on the part of the map its scope picks, which
// must be every resource it looks at: the plugin's own scan of the whole
// map for each of its field specs then reads only those.
type scoped struct {
	resmap.Transformer
	scope func(resmap.ResMap) ([]*resource.Resource, error)
}

func (s scoped) Transform(m resmap.ResMap) error {
	list, err := s.scope(m)
	if err != nil {
		return err
	}
	sub, err := resourcemap.FromResources(list)
	if err != nil {
		return err
	}
	return s.Transformer.Transform(sub)
}
