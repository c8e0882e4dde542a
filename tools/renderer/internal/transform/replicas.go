package transform

import (
	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// replicaCounts runs a kustomization's `replicas` entries one after another
// as kustomize's ReplicaCountTransformers do, each on the objects one of
// whose IDs has its name (what the plugin would find scanning the whole map
// once per field spec). Setting replicas renames nothing, so one index of
// names serves every entry.
type replicaCounts struct {
	names   []string
	plugins []*builtins.ReplicaCountTransformerPlugin
}

func newReplicaCounts(rs []types.Replica, fss []types.FieldSpec) replicaCounts {
	var c replicaCounts
	for _, r := range rs {
		c.names = append(c.names, r.Name)
		c.plugins = append(c.plugins, &builtins.ReplicaCountTransformerPlugin{Replica: r, FieldSpecs: fss})
	}
	return c
}

func (c replicaCounts) Transform(m resmap.ResMap) error {
	byName := resourcemap.ByAnyName(m)
	for i, p := range c.plugins {
		sub, err := resourcemap.FromResources(byName[c.names[i]])
		if err != nil {
			return err
		}
		if err := p.Transform(sub); err != nil {
			return err
		}
	}
	return nil
}
