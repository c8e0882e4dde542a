package transform

import (
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/yaml11"
)

// reportTo has the transformer added last offer to list its changes in c
// (Step.Report).
func (b *builder) reportTo(c *changes) {
	b.out[len(b.out)-1].Step.Report = c.arm
}

// changes are the resources a transformer changed, listed as it runs when
// on (and only then: listing costs a little).
type changes struct {
	on      bool
	changed []*resource.Resource
}

// arm turns listing on; the function it returns gives the list.
func (c *changes) arm() func() []*resource.Resource {
	c.on = true
	return c.list
}

func (c *changes) list() []*resource.Resource { return c.changed }

func (c *changes) reset() { c.changed = nil }

func (c *changes) add(r *resource.Resource) {
	if c.on {
		c.changed = append(c.changed, r)
	}
}

// applyEntries applies f to every resource of m, listing those whose
// entries it changed.
func (c *changes) applyEntries(m resmap.ResMap, f yaml11.EntriesFilter) error {
	if !c.on {
		return m.ApplyFilter(f)
	}
	c.reset()
	changed := false
	f.Changed = func() { changed = true }
	for _, r := range m.Resources() {
		changed = false
		if err := r.ApplyFilter(f); err != nil {
			return err
		}
		if changed {
			c.add(r)
		}
	}
	return nil
}
