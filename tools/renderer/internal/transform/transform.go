// Package transform configures the builtin transformers a kustomization file
// asks for (patches, namespace, prefix/suffix, labels, annotations, replicas,
// images, replacements), in the order kustomize runs them.
package transform

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yaml11"
)

// Transformer is one configured transformer and the kustomization field
// that asked for it (for error messages).
type Transformer struct {
	Field string
	// Steps is how many kustomize transformers this one stands for (each
	// adds an entry to the transformations annotation); 0 means 1.
	Steps int
	// Helpers are the helpers it was configured with (nil if none).
	Helpers *resmap.PluginHelpers
	// Step describes it to observers: its builtin Kind, its Config, and
	// its Scope or Report where it can tell them.
	Step observe.Step
	resmap.Transformer
}

type builder struct {
	newHelpers func() *resmap.PluginHelpers
	out        []Transformer
}

// addConfigured adds p, already configured with the values config(fss)
// holds; its YAML is made only when an observer asks, without a round trip
// through the plugin's Config.
func (b *builder) addConfigured(kind string, p resmap.TransformerPlugin, config func([]types.FieldSpec) interface{}, fss []types.FieldSpec) error {
	b.out = append(b.out, Transformer{Field: kind, Transformer: p, Step: observe.Step{
		Kind: kind,
		Config: func() ([]byte, error) {
			y, err := configYAML(config, fss)
			if err != nil {
				return nil, fmt.Errorf("builtin %s marshal: %w", kind, err)
			}
			return y, nil
		},
	}})
	return nil
}

func (b *builder) add(kind string, p resmap.TransformerPlugin, config interface{}) error {
	return b.addField(kind, "", p, config)
}

func (b *builder) addField(kind, field string, p resmap.TransformerPlugin, config interface{}) error {
	y, err := yaml.Marshal(config)
	if err != nil {
		return fmt.Errorf("builtin %s marshal: %w", kind, err)
	}
	h := b.newHelpers()
	if err := p.Config(h, y); err != nil {
		if field != "" {
			return fmt.Errorf("%s: %w", field, err)
		}
		return fmt.Errorf("trouble configuring builtin %s with config: `\n%s`: %w", kind, y, err)
	}
	if field == "" {
		field = kind
	}
	b.out = append(b.out, Transformer{Field: field, Helpers: h, Transformer: p, Step: observe.Step{Kind: kind, Config: observe.ConfigOf(y)}})
	return nil
}

// marshalled is a Step.Config marshalling v when asked.
func marshalled(v interface{}) func() ([]byte, error) {
	return func() ([]byte, error) { return yaml.Marshal(v) }
}

// Builtins returns the transformers declared by the fields of k, configured
// with the field specs in cfg and helpers made by newHelpers for each one
// that reads files.
func Builtins(k *types.Kustomization, cfg *fieldspec.Config, newHelpers func() *resmap.PluginHelpers) ([]Transformer, error) {
	return builtinsWith(&builder{newHelpers: newHelpers}, k, cfg)
}

func builtinsWith(b *builder, k *types.Kustomization, cfg *fieldspec.Config) ([]Transformer, error) {
	steps := []func(*builder, *types.Kustomization, *fieldspec.Config) error{
		patchesStrategicMerge, patches, namespaceStep, prefix, suffix, labels,
		annotations, patchesJSON6902, replicas, images, replacements,
	}
	for _, step := range steps {
		if err := step(b, k, cfg); err != nil {
			return nil, err
		}
	}
	return b.out, nil
}

func patchesStrategicMerge(b *builder, k *types.Kustomization, _ *fieldspec.Config) error {
	if len(k.PatchesStrategicMerge) == 0 {
		return nil
	}
	return b.addField("PatchStrategicMergeTransformer", fmt.Sprintf("patchesStrategicMerge %v", k.PatchesStrategicMerge), builtins.NewPatchStrategicMergeTransformerPlugin(), struct {
		Paths []types.PatchStrategicMerge `json:"paths,omitempty"`
	}{k.PatchesStrategicMerge})
}

// nothing is the scope of a transformer that changes nothing.
func nothing(resmap.ResMap) ([]*resource.Resource, error) { return nil, nil }

// setScope sets the scope of the transformer added last.
func (b *builder) setScope(f func(resmap.ResMap) ([]*resource.Resource, error)) {
	b.out[len(b.out)-1].Step.Scope = f
}

func patches(b *builder, k *types.Kustomization, _ *fieldspec.Config) error {
	for i, p := range k.Patches {
		if err := checkSelector(fmt.Sprintf("patches[%d].target", i), p.Target); err != nil {
			return err
		}
		plugin := newPatchPlugin()
		err := b.addField("PatchTransformer", describePatch("patches", i, p.Path, p.Target), plugin, struct {
			Path    string           `json:"path,omitempty"`
			Patch   string           `json:"patch,omitempty"`
			Target  *types.Selector  `json:"target,omitempty"`
			Options *types.PatchArgs `json:"options,omitempty"`
		}{p.Path, p.Patch, p.Target, p.Options})
		if err != nil {
			return err
		}
		b.target(p.Target)
		if plugin.untargeted != nil {
			b.setScope(plugin.untargetedScope)
		}
	}
	return nil
}

func namespaceStep(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	if k.Namespace == "" {
		return nil
	}
	config := marshalled(struct {
		Namespace  string            `json:"namespace"`
		FieldSpecs []types.FieldSpec `json:"fieldSpecs,omitempty"`
	}{k.Namespace, cfg.NameSpace})
	t := &setNamespace{namespace: k.Namespace, fss: cfg.NameSpace}
	b.out = append(b.out, Transformer{Field: "namespace", Transformer: t, Step: observe.Step{Kind: "NamespaceTransformer", Config: config}})
	b.reportTo(&t.changes)
	return nil
}

func prefix(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	if k.NamePrefix == "" {
		return nil
	}
	p := &prefixPlugin{PrefixTransformerPlugin: &builtins.PrefixTransformerPlugin{}}
	err := b.add("PrefixTransformer", p, struct {
		Prefix     string            `json:"prefix,omitempty"`
		FieldSpecs []types.FieldSpec `json:"fieldSpecs,omitempty"`
	}{k.NamePrefix, cfg.NamePrefix})
	if err == nil {
		b.reportTo(&p.changes)
	}
	return err
}

func suffix(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	if k.NameSuffix == "" {
		return nil
	}
	p := &suffixPlugin{SuffixTransformerPlugin: &builtins.SuffixTransformerPlugin{}}
	err := b.add("SuffixTransformer", p, struct {
		Suffix     string            `json:"suffix,omitempty"`
		FieldSpecs []types.FieldSpec `json:"fieldSpecs,omitempty"`
	}{k.NameSuffix, cfg.NameSuffix})
	if err == nil {
		b.reportTo(&p.changes)
	}
	return err
}

// labels mirrors kustomize: one transformer per `labels` entry, then one for
// commonLabels (even when empty).
func labels(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	if len(k.Labels) == 0 && len(k.CommonLabels) == 0 {
		return nil
	}
	for _, l := range k.Labels {
		fss, err := types.FsSlice(l.FieldSpecs).MergeAll(cfg.Labels)
		if err != nil {
			return fmt.Errorf("failed to merge labels: %w", err)
		}
		if l.IncludeSelectors {
			fss, err = fss.MergeAll(cfg.CommonLabels)
		} else {
			if l.IncludeTemplates {
				if fss, err = fss.MergeAll(cfg.TemplateLabels); err != nil {
					return fmt.Errorf("failed to merge template fieldSpec: %w", err)
				}
			}
			if l.IncludeVolumeClaimTemplates {
				if fss, err = fss.MergeAll(cfg.VolumeClaimTemplateLabels); err != nil {
					return fmt.Errorf("failed to merge volumeClaimTemplate fieldSpec: %w", err)
				}
			}
			fss, err = fss.MergeOne(types.FieldSpec{Path: "metadata/labels", CreateIfNotPresent: true})
		}
		if err != nil {
			return fmt.Errorf("failed to merge labels: %w", err)
		}
		if err := addLabels(b, l.Pairs, fss); err != nil {
			return err
		}
	}
	return addLabels(b, k.CommonLabels, cfg.CommonLabels)
}

func addLabels(b *builder, pairs map[string]string, fss []types.FieldSpec) error {
	p := &labelsPlugin{LabelTransformerPlugin: &builtins.LabelTransformerPlugin{Labels: pairs, FieldSpecs: fss}}
	err := b.addConfigured("LabelTransformer", p, func(fss []types.FieldSpec) interface{} {
		return struct {
			Labels     map[string]string
			FieldSpecs []types.FieldSpec
		}{pairs, fss}
	}, fss)
	switch {
	case err != nil:
	case len(pairs) == 0:
		b.setScope(nothing) // the plugin does nothing without labels
	default:
		b.reportTo(&p.changes)
	}
	return err
}

// labelsPlugin and annotationsPlugin are kustomize's transformers with
// yaml11.EntriesFilter for their filters: the same filter, minus a YAML 1.1
// parse of each value it sets where that parse does nothing.
type labelsPlugin struct {
	*builtins.LabelTransformerPlugin
	changes
}

func (p *labelsPlugin) Transform(m resmap.ResMap) error {
	if len(p.Labels) == 0 {
		return nil
	}
	return p.applyEntries(m, yaml11.EntriesFilter{Entries: p.Labels, FsSlice: p.FieldSpecs})
}

type annotationsPlugin struct {
	*builtins.AnnotationsTransformerPlugin
	changes
}

func (p *annotationsPlugin) Transform(m resmap.ResMap) error {
	if len(p.Annotations) == 0 {
		return nil
	}
	return p.applyEntries(m, yaml11.EntriesFilter{Entries: p.Annotations, FsSlice: p.FieldSpecs})
}

func annotations(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	if len(k.CommonAnnotations) == 0 {
		return nil
	}
	p := &annotationsPlugin{AnnotationsTransformerPlugin: &builtins.AnnotationsTransformerPlugin{Annotations: k.CommonAnnotations, FieldSpecs: cfg.CommonAnnotations}}
	err := b.addConfigured("AnnotationsTransformer", p, func(fss []types.FieldSpec) interface{} {
		return struct {
			Annotations map[string]string
			FieldSpecs  []types.FieldSpec
		}{k.CommonAnnotations, fss}
	}, cfg.CommonAnnotations)
	if err == nil {
		b.reportTo(&p.changes)
	}
	return err
}

func patchesJSON6902(b *builder, k *types.Kustomization, _ *fieldspec.Config) error {
	for i, p := range k.PatchesJson6902 {
		if err := checkSelector(fmt.Sprintf("patchesJson6902[%d].target", i), p.Target); err != nil {
			return err
		}
		err := b.addField("PatchJson6902Transformer", describePatch("patchesJson6902", i, p.Path, p.Target), newJSON6902Plugin(), struct {
			Target *types.Selector `json:"target,omitempty"`
			Path   string          `json:"path,omitempty"`
			JsonOp string          `json:"jsonOp,omitempty"`
		}{p.Target, p.Path, p.Patch})
		if err != nil {
			return err
		}
		b.target(p.Target)
	}
	return nil
}

// images runs all `images` entries as one step (see imageTags).
func images(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	if len(k.Images) == 0 {
		return nil
	}
	config := marshalled(struct {
		Images     []types.Image     `json:"images"`
		FieldSpecs []types.FieldSpec `json:"fieldSpecs,omitempty"`
	}{k.Images, cfg.Images})
	t := newImageTags(k.Images, cfg.Images)
	b.out = append(b.out, Transformer{
		Field: "images", Steps: len(k.Images), Transformer: t,
		Step: observe.Step{Kind: "ImageTagTransformer", Config: config},
	})
	b.reportTo(&t.changes)
	return nil
}

func replacements(b *builder, k *types.Kustomization, _ *fieldspec.Config) error {
	if len(k.Replacements) == 0 {
		return nil
	}
	if err := checkReplacementSelectors(k.Replacements); err != nil {
		return err
	}
	return b.add("ReplacementTransformer", builtins.NewReplacementTransformerPlugin(), struct {
		Replacements []types.ReplacementField
	}{k.Replacements})
}

// describePatch names a patch entry the way a user finds it in the file.
func describePatch(field string, i int, path string, target *types.Selector) string {
	d := fmt.Sprintf("%s[%d]", field, i)
	if path != "" {
		d += " (path: " + path + ")"
	} else {
		d += " (inline)"
	}
	if target != nil {
		d += " target " + target.String()
	}
	return d
}
