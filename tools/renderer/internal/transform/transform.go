// Package transform configures the builtin transformers a kustomization file
// asks for (patches, namespace, prefix/suffix, labels, annotations, replicas,
// images, replacements), in the order kustomize runs them.
package transform

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
)

// Transformer is one configured transformer, the builtin kind that made it
// and the kustomization field that asked for it (for error messages).
type Transformer struct {
	Kind  string
	Field string
	// Steps is how many kustomize transformers this one stands for (each
	// adds an entry to the transformations annotation); 0 means 1.
	Steps int
	resmap.Transformer
}

type builder struct {
	h   *resmap.PluginHelpers
	out []Transformer
}

func (b *builder) add(kind string, p resmap.TransformerPlugin, config interface{}) error {
	return b.addField(kind, "", p, config)
}

func (b *builder) addField(kind, field string, p resmap.TransformerPlugin, config interface{}) error {
	y, err := yaml.Marshal(config)
	if err != nil {
		return fmt.Errorf("builtin %s marshal: %w", kind, err)
	}
	if err := p.Config(b.h, y); err != nil {
		if field != "" {
			return fmt.Errorf("%s: %w", field, err)
		}
		return fmt.Errorf("trouble configuring builtin %s with config: `\n%s`: %w", kind, y, err)
	}
	if field == "" {
		field = kind
	}
	b.out = append(b.out, Transformer{Kind: kind, Field: field, Transformer: p})
	return nil
}

// Builtins returns the transformers declared by the fields of k, configured
// with the field specs in cfg.
func Builtins(k *types.Kustomization, cfg *fieldspec.Config, h *resmap.PluginHelpers) ([]Transformer, error) {
	b := &builder{h: h}
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

func patches(b *builder, k *types.Kustomization, _ *fieldspec.Config) error {
	for i, p := range k.Patches {
		err := b.addField("PatchTransformer", describePatch("patches", i, p.Path, p.Target), builtins.NewPatchTransformerPlugin(), struct {
			Path    string           `json:"path,omitempty"`
			Patch   string           `json:"patch,omitempty"`
			Target  *types.Selector  `json:"target,omitempty"`
			Options *types.PatchArgs `json:"options,omitempty"`
		}{p.Path, p.Patch, p.Target, p.Options})
		if err != nil {
			return err
		}
	}
	return nil
}

func namespaceStep(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	if k.Namespace == "" {
		return nil
	}
	b.out = append(b.out, Transformer{
		Kind: "NamespaceTransformer", Field: "namespace",
		Transformer: &setNamespace{namespace: k.Namespace, fss: cfg.NameSpace},
	})
	return nil
}

func prefix(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	if k.NamePrefix == "" {
		return nil
	}
	return b.add("PrefixTransformer", builtins.NewPrefixTransformerPlugin(), struct {
		Prefix     string            `json:"prefix,omitempty"`
		FieldSpecs []types.FieldSpec `json:"fieldSpecs,omitempty"`
	}{k.NamePrefix, cfg.NamePrefix})
}

func suffix(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	if k.NameSuffix == "" {
		return nil
	}
	return b.add("SuffixTransformer", builtins.NewSuffixTransformerPlugin(), struct {
		Suffix     string            `json:"suffix,omitempty"`
		FieldSpecs []types.FieldSpec `json:"fieldSpecs,omitempty"`
	}{k.NameSuffix, cfg.NameSuffix})
}

type labelConfig struct {
	Labels     map[string]string
	FieldSpecs []types.FieldSpec
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
		if err := b.add("LabelTransformer", builtins.NewLabelTransformerPlugin(), labelConfig{l.Pairs, fss}); err != nil {
			return err
		}
	}
	return b.add("LabelTransformer", builtins.NewLabelTransformerPlugin(), labelConfig{k.CommonLabels, cfg.CommonLabels})
}

func annotations(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	if len(k.CommonAnnotations) == 0 {
		return nil
	}
	return b.add("AnnotationsTransformer", builtins.NewAnnotationsTransformerPlugin(), struct {
		Annotations map[string]string
		FieldSpecs  []types.FieldSpec
	}{k.CommonAnnotations, cfg.CommonAnnotations})
}

func patchesJSON6902(b *builder, k *types.Kustomization, _ *fieldspec.Config) error {
	for i, p := range k.PatchesJson6902 {
		err := b.addField("PatchJson6902Transformer", describePatch("patchesJson6902", i, p.Path, p.Target), builtins.NewPatchJson6902TransformerPlugin(), struct {
			Target *types.Selector `json:"target,omitempty"`
			Path   string          `json:"path,omitempty"`
			JsonOp string          `json:"jsonOp,omitempty"`
		}{p.Target, p.Path, p.Patch})
		if err != nil {
			return err
		}
	}
	return nil
}

func replicas(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	for _, r := range k.Replicas {
		err := b.add("ReplicaCountTransformer", builtins.NewReplicaCountTransformerPlugin(), struct {
			Replica    types.Replica
			FieldSpecs []types.FieldSpec
		}{r, cfg.Replicas})
		if err != nil {
			return err
		}
	}
	return nil
}

// images runs all `images` entries as one step (see imageTags).
func images(b *builder, k *types.Kustomization, cfg *fieldspec.Config) error {
	if len(k.Images) == 0 {
		return nil
	}
	b.out = append(b.out, Transformer{
		Kind: "ImageTagTransformer", Field: "images", Steps: len(k.Images),
		Transformer: newImageTags(k.Images, cfg.Images),
	})
	return nil
}

func replacements(b *builder, k *types.Kustomization, _ *fieldspec.Config) error {
	if len(k.Replacements) == 0 {
		return nil
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
