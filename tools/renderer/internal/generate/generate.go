// Package generate configures the builtin generators a kustomization file
// asks for (configMapGenerator, secretGenerator), in kustomize's order.
package generate

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"
)

// Generator is one configured generator and the builtin kind that made it.
type Generator struct {
	Kind string
	resmap.Generator
}

// Builtins returns the generators declared by k, ConfigMaps first, then Secrets.
func Builtins(k *types.Kustomization, h *resmap.PluginHelpers) ([]Generator, error) {
	var out []Generator
	for _, args := range k.ConfigMapGenerator {
		args.Options = types.MergeGlobalOptionsIntoLocal(args.Options, k.GeneratorOptions)
		p := builtins.NewConfigMapGeneratorPlugin()
		if err := configure(p, h, struct{ types.ConfigMapArgs }{args}, "ConfigMapGenerator"); err != nil {
			return nil, err
		}
		out = append(out, Generator{Kind: "ConfigMapGenerator", Generator: p})
	}
	for _, args := range k.SecretGenerator {
		args.Options = types.MergeGlobalOptionsIntoLocal(args.Options, k.GeneratorOptions)
		p := builtins.NewSecretGeneratorPlugin()
		if err := configure(p, h, struct{ types.SecretArgs }{args}, "SecretGenerator"); err != nil {
			return nil, err
		}
		out = append(out, Generator{Kind: "SecretGenerator", Generator: p})
	}
	if len(k.HelmCharts) > 0 || k.HelmGlobals != nil || len(k.HelmChartInflationGenerator) > 0 {
		return nil, fmt.Errorf("helmCharts: not supported yet by krm; render the chart to YAML and list it under resources")
	}
	return out, nil
}

func configure(p resmap.Configurable, h *resmap.PluginHelpers, c interface{}, kind string) error {
	y, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Errorf("builtin %s marshal: %w", kind, err)
	}
	if err := p.Config(h, y); err != nil {
		return fmt.Errorf("trouble configuring builtin %s with config: `\n%s`: %w", kind, y, err)
	}
	return nil
}
