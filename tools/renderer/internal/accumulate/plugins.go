package accumulate

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/krmfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/plugin"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provenance"
)

// configured is a generator or transformer made from a config object, with
// the origin kustomize records for it.
type configured struct {
	plugin resmap.Configurable
	origin *resource.Origin
	id     string
	// step and rec are its provenance step and the loader recording what
	// it reads (provenance only).
	step *provenance.Step
	rec  *load.Recorder
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
func (t *Target) configurePlugins(field string, entries []string, generator bool) ([]configured, error) {
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
		h := t.helpers()
		if t.env.Prov != nil {
			h = t.recordingHelpers()
		}
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
		c := configured{plugin: p, origin: o, id: res.OrgId().String(), entry: entry}
		if tk := t.env.Prov; tk != nil {
			c.step, err = t.pluginStep(res, generator)
			if err != nil {
				return nil, err
			}
			c.rec = recorderOf(h)
		}
		out = append(out, c)
	}
	return out, nil
}

// pluginStep is the provenance step of the plugin configured by res: it is
// configured in the file res was read from (or this kustomization file for
// an inline config), by res without kustomize's bookkeeping annotations.
func (t *Target) pluginStep(res *resource.Resource, generator bool) (*provenance.Step, error) {
	tk := t.env.Prov
	in := tk.OriginFile(res)
	if in == nil {
		in = t.kustFile()
	}
	n := res.RNode.Copy()
	if _, err := krmfn.StripHidden(n); err != nil {
		return nil, err
	}
	y, err := n.String()
	if err != nil {
		return nil, err
	}
	return tk.NewStep(res.GetKind(), res.GetName(), in, t.label(), 0, []byte(y), plugin.IsBuiltin(res), generator), nil
}

func (t *Target) externalGenerators() ([]configured, error) {
	gs, err := t.configurePlugins("generators", t.kust.Generators, true)
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
	ts, err := t.configurePlugins(field, entries, false)
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
		var was []*resource.Resource
		if t.env.Prov != nil {
			v.step.Validator, v.step.Ordinal = true, i
			was = t.env.Prov.Before(acc.Resources)
		}
		before := acc.Resources.DeepCopy()
		if err := v.plugin.(resmap.Transformer).Transform(acc.Resources); err != nil {
			return fmt.Errorf("%s: %s: %w", t.kustPath(), v.entry, err)
		}
		if t.env.Prov != nil {
			// A validator may add its validated-by label.
			t.recordStep(acc.Resources, was, v.step, v.rec, nil, false)
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
