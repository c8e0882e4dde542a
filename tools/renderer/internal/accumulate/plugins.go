package accumulate

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/plugin"
)

// configured is a generator or transformer made from a config object, with
// the origin kustomize records for it.
type configured struct {
	plugin resmap.Configurable
	origin *resource.Origin
	id     string
}

// pluginConfigs reads the objects named by a generators/transformers/validators
// list. Like kustomize, inline objects come first, then files and directories
// (which are accumulated like resources, so a directory's own transformers apply).
func (t *Target) pluginConfigs(entries []string) (resmap.ResMap, error) {
	acc := NewAccumulation()
	var paths []string
	for _, e := range entries {
		m, err := t.env.Factory.NewResMapFromBytes([]byte(e))
		if err != nil {
			paths = append(paths, e)
			continue
		}
		if t.origin != nil {
			for _, r := range m.Resources() {
				if err := r.SetOrigin(t.origin.Append(t.kust.FileName)); err != nil {
					return nil, err
				}
			}
		}
		if err := acc.Resources.AppendAll(m); err != nil {
			return nil, err
		}
	}
	acc, err := t.accumulateResources(acc, paths)
	if err != nil {
		return nil, err
	}
	return acc.Resources, nil
}

func (t *Target) configurePlugins(entries []string) ([]configured, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	m, err := t.pluginConfigs(entries)
	if err != nil {
		return nil, err
	}
	var out []configured
	for _, res := range m.Resources() {
		p, err := plugin.Configure(res, t.helpers())
		if err != nil {
			return nil, err
		}
		o, err := plugin.Origin(res)
		if err != nil {
			return nil, err
		}
		out = append(out, configured{plugin: p, origin: o, id: res.OrgId().String()})
	}
	return out, nil
}

func (t *Target) externalGenerators() ([]configured, error) {
	gs, err := t.configurePlugins(t.kust.Generators)
	if err != nil {
		return nil, fmt.Errorf("loading generator plugins: %w", err)
	}
	for _, g := range gs {
		if _, ok := g.plugin.(resmap.Generator); !ok {
			return nil, fmt.Errorf("failed to load generator: plugin %s not a generator", g.id)
		}
	}
	return gs, nil
}

func (t *Target) externalTransformers(entries []string) ([]configured, error) {
	ts, err := t.configurePlugins(entries)
	if err != nil {
		return nil, err
	}
	for _, tr := range ts {
		if _, ok := tr.plugin.(resmap.Transformer); !ok {
			return nil, fmt.Errorf("plugin %s not a transformer", tr.id)
		}
	}
	return ts, nil
}

// runValidators runs each validator on the accumulation and fails if one
// changed anything but the validated-by label.
func (t *Target) runValidators(acc *Accumulation) error {
	vs, err := t.externalTransformers(t.kust.Validators)
	if err != nil {
		return err
	}
	for _, v := range vs {
		before := acc.Resources.DeepCopy()
		if err := v.plugin.(resmap.Transformer).Transform(acc.Resources); err != nil {
			return err
		}
		after := acc.Resources.DeepCopy()
		for _, r := range after.Resources() {
			labels := r.GetLabels()
			if _, ok := labels[konfig.ValidatedByLabelKey]; !ok {
				continue
			}
			delete(labels, konfig.ValidatedByLabelKey)
			if err := r.SetLabels(labels); err != nil {
				return err
			}
		}
		if err := before.ErrorIfNotEqualSets(after); err != nil {
			return fmt.Errorf("validator shouldn't modify the resource map: %v", err)
		}
	}
	return nil
}
