package accumulate

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/ifc"
	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/krmfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/plugin"
)

// configured is a generator or transformer made from a config object, with
// the origin kustomize records for it.
type configured struct {
	plugin resmap.Configurable
	origin *resource.Origin
	id     string
	// res is its config object; ldr what it reads through.
	res *resource.Resource
	ldr ifc.Loader
	// entry is where errors say it was configured: "FIELD: ENTRY" of this
	// kustomization file.
	entry string
}

// pluginConfigs reads the objects named by a generators/transformers/validators
// list. Like kustomize, inline objects come first, then files and directories
// (which are accumulated like resources, so a directory's own transformers apply).
// It also returns the entry each object came from, for messages.
func (t *Target) pluginConfigs(entries []string) (resmap.ResMap, []string, error) {
	acc := NewAccumulation()
	var paths, from []string
	for _, e := range entries {
		m, err := t.env.Factory.NewResMapFromBytes([]byte(e))
		if err != nil {
			paths = append(paths, e)
			continue
		}
		if t.origin != nil {
			for _, r := range m.Resources() {
				if err := r.SetOrigin(t.origin.Append(t.kust.FileName)); err != nil {
					return nil, nil, err
				}
			}
		}
		if err := acc.Resources.AppendAll(m); err != nil {
			return nil, nil, err
		}
		for range m.Resources() {
			from = append(from, "an inline entry")
		}
	}
	for _, p := range paths {
		var err error
		if acc, err = t.accumulateResources(acc, []string{p}); err != nil {
			return nil, nil, err
		}
		for len(from) < acc.Resources.Size() {
			from = append(from, p)
		}
	}
	return acc.Resources, from, nil
}

// configurePlugins configures the plugins that the entries of field
// (generators, transformers or validators) name.
func (t *Target) configurePlugins(field string, entries []string) ([]configured, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	m, from, err := t.pluginConfigs(entries)
	if err != nil {
		return nil, err
	}
	var out []configured
	for i, res := range m.Resources() {
		entry := field
		if i < len(from) {
			entry = fmt.Sprintf("%s: %s", field, from[i])
		}
		h := t.stepHelpers()
		fns := t.env.Functions
		fns.Runtime.Where = t.kustPath() + ": " + entry
		p, err := plugin.Configure(res, h, fns)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", fns.Runtime.Where, err)
		}
		o, err := plugin.Origin(res)
		if err != nil {
			return nil, err
		}
		out = append(out, configured{plugin: p, origin: o, id: res.OrgId().String(), res: res, ldr: h.Loader(), entry: entry})
	}
	return out, nil
}

// pluginStep describes the plugin c to observers, the ordinal-th step of
// its role in this kustomization. Its configuration is its config object
// without kustomize's bookkeeping annotations.
func (t *Target) pluginStep(c configured, role observe.Role, ordinal int) *observe.Step {
	return &observe.Step{
		Role: role, Kind: c.res.GetKind(), In: t.Source(), Object: c.res, Builtin: plugin.IsBuiltin(c.res),
		Ordinal: ordinal, Loader: c.ldr,
		Config: func() ([]byte, error) {
			n := c.res.RNode.Copy()
			if _, err := krmfn.StripHidden(n); err != nil {
				return nil, err
			}
			y, err := n.String()
			return []byte(y), err
		},
	}
}

func (t *Target) externalGenerators() ([]configured, error) {
	gs, err := t.configurePlugins("generators", t.kust.Generators)
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

func (t *Target) externalTransformers(field string, entries []string) ([]configured, error) {
	ts, err := t.configurePlugins(field, entries)
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
	vs, err := t.externalTransformers("validators", t.kust.Validators)
	if err != nil {
		return err
	}
	for i, v := range vs {
		before := acc.Resources.DeepCopy()
		err := t.env.Observer.Step(t.pluginStep(v, observe.Validator, i), acc.Resources, func() error {
			if err := v.plugin.(resmap.Transformer).Transform(acc.Resources); err != nil {
				return fmt.Errorf("%s: %s: %w", t.kustPath(), v.entry, err)
			}
			return nil
		})
		if err != nil {
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
			return fmt.Errorf("%s: %s: validator %s shouldn't modify the resource map: %v", t.kustPath(), v.entry, v.id, err)
		}
	}
	return nil
}
