// Package generate configures the builtin generators a kustomization file
// asks for (configMapGenerator, secretGenerator, helmCharts), in kustomize's order.
package generate

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/helmsupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
)

// Generator is one configured generator.
type Generator struct {
	// Helpers are the helpers it was configured with (and reads files through).
	Helpers *resmap.PluginHelpers
	// Step describes it to observers: its builtin Kind, its Config and,
	// for a SecretGenerator, its configuration without any secret value
	// (Redacted: literal values dropped, keys and file names kept).
	Step observe.Step
	resmap.Generator
}

// Builtins returns the generators declared by k, ConfigMaps first, then
// Secrets, then Helm charts, each with helpers made by newHelpers.
func Builtins(k *types.Kustomization, newHelpers func() *resmap.PluginHelpers) ([]Generator, error) {
	var out []Generator
	for _, args := range k.ConfigMapGenerator {
		args.Options = types.MergeGlobalOptionsIntoLocal(args.Options, k.GeneratorOptions)
		p := builtins.NewConfigMapGeneratorPlugin()
		h := newHelpers()
		y, err := configure(p, h, struct{ types.ConfigMapArgs }{args}, "ConfigMapGenerator")
		if err != nil {
			return nil, err
		}
		out = append(out, Generator{Helpers: h, Generator: p, Step: observe.Step{Kind: "ConfigMapGenerator", Config: observe.ConfigOf(y)}})
	}
	for _, args := range k.SecretGenerator {
		args.Options = types.MergeGlobalOptionsIntoLocal(args.Options, k.GeneratorOptions)
		p := builtins.NewSecretGeneratorPlugin()
		h := newHelpers()
		red, err := yaml.Marshal(struct{ types.SecretArgs }{redactSecretArgs(args)})
		if err != nil {
			return nil, fmt.Errorf("builtin SecretGenerator marshal: %w", err)
		}
		y, err := configureShowing(p, h, struct{ types.SecretArgs }{args}, "SecretGenerator", red)
		if err != nil {
			return nil, err
		}
		out = append(out, Generator{Helpers: h, Generator: p, Step: observe.Step{Kind: "SecretGenerator", Config: observe.ConfigOf(y), Redacted: red}})
	}
	helmCharts, err := helmChartGenerators(k, newHelpers)
	if err != nil {
		return nil, err
	}
	return append(out, helmCharts...), nil
}

// helmChartGenerators configures one Helm chart inflator per helmCharts
// entry, with helmGlobals; a chart without a namespace gets the
// kustomization's (kustomize does the same).
func helmChartGenerators(k *types.Kustomization, newHelpers func() *resmap.PluginHelpers) ([]Generator, error) {
	var globals types.HelmGlobals
	if k.HelmGlobals != nil {
		globals = *k.HelmGlobals
	}
	var out []Generator
	for _, chart := range k.HelmCharts {
		if chart.Namespace == "" {
			chart.Namespace = k.Namespace
		}
		p := helmsupport.New()
		h := newHelpers()
		y, err := configure(p, h, struct {
			types.HelmGlobals
			types.HelmChart
		}{globals, chart}, helmsupport.Kind)
		if err != nil {
			return nil, err
		}
		out = append(out, Generator{Helpers: h, Generator: p, Step: observe.Step{Kind: helmsupport.Kind, Config: observe.ConfigOf(y)}})
	}
	return out, nil
}

func configure(p resmap.Configurable, h *resmap.PluginHelpers, c interface{}, kind string) ([]byte, error) {
	return configureShowing(p, h, c, kind, nil)
}

// configureShowing configures p with c; an error shows show instead of the
// configuration when set (a SecretGenerator's holds secret values).
func configureShowing(p resmap.Configurable, h *resmap.PluginHelpers, c interface{}, kind string, show []byte) ([]byte, error) {
	y, err := yaml.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("builtin %s marshal: %w", kind, err)
	}
	if err := p.Config(h, y); err != nil {
		if show == nil {
			show = y
		}
		return nil, fmt.Errorf("trouble configuring builtin %s with config: `\n%s`: %w", kind, show, err)
	}
	return y, nil
}

// redactSecretArgs is a SecretGenerator's configuration with every value
// removed: literal sources keep their keys, file and env sources their
// names (file names and keys are not secret; contents are).
func redactSecretArgs(a types.SecretArgs) types.SecretArgs {
	r := a
	r.LiteralSources = nil
	for _, l := range a.LiteralSources {
		key, _, _ := strings.Cut(l, "=")
		r.LiteralSources = append(r.LiteralSources, key)
	}
	return r
}
