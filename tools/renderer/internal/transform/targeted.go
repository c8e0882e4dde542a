package transform

import (
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
)

// target gives the patch added last, if it has a target, the scope of
// what m.Select(target) picks (which is what the patch selects).
func (b *builder) target(target *types.Selector) {
	if target == nil {
		return
	}
	last := &b.out[len(b.out)-1]
	t := &targeted{Transformer: last.Transformer, target: *target}
	last.Transformer, last.Step.Scope = t, t.scope
}

// targeted is a patch with a target whose scope, selected right before it
// runs, its own Select then reuses rather than scanning the map again:
// nothing changes the map in between.
type targeted struct {
	resmap.Transformer
	target types.Selector
	picked []*resource.Resource
	armed  bool
}

func (t *targeted) scope(m resmap.ResMap) ([]*resource.Resource, error) {
	sel, err := m.Select(t.target)
	t.picked, t.armed = sel, err == nil
	return sel, err
}

func (t *targeted) Transform(m resmap.ResMap) error {
	if !t.armed {
		return t.Transformer.Transform(m)
	}
	t.armed = false
	return t.Transformer.Transform(&preselected{ResMap: m, target: t.target, list: t.picked})
}

// preselected is a map whose first Select of target returns list.
type preselected struct {
	resmap.ResMap
	target types.Selector
	list   []*resource.Resource
	used   bool
}

func (p *preselected) Select(s types.Selector) ([]*resource.Resource, error) {
	if !p.used && s == p.target {
		p.used = true
		return p.list, nil
	}
	return p.ResMap.Select(s)
}
