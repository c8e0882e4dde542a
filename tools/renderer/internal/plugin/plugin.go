// Package plugin turns plugin configuration objects (the entries of a
// kustomization's generators, transformers and validators fields) into
// configured generators and transformers.
package plugin

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/execfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/helmsupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/krmfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/selector"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/starlarkfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/transform"
)

// Functions is what the Starlark and exec functions of one build share: it
// travels with the build (accumulate.Env), so that builds in one process
// (a persistent worker) cannot see each other's.
type Functions struct {
	// Runtime says where functions print and how a runaway script ends krm.
	Runtime krmfn.Runtime
	// Declared are the executables exec functions run (krm render
	// --function); nil runs the file an exec path names.
	Declared *execfn.Registry
}

// BuiltinAPIVersion marks a config object as naming a builtin plugin.
const BuiltinAPIVersion = "builtin"

var generators = map[string]func() resmap.GeneratorPlugin{
	"ConfigMapGenerator": builtins.NewConfigMapGeneratorPlugin,
	"SecretGenerator":    builtins.NewSecretGeneratorPlugin,
	"IAMPolicyGenerator": builtins.NewIAMPolicyGeneratorPlugin,
	helmsupport.Kind:     helmsupport.New,
}

var transformers = map[string]func() resmap.TransformerPlugin{
	"AnnotationsTransformer":         builtins.NewAnnotationsTransformerPlugin,
	"HashTransformer":                builtins.NewHashTransformerPlugin,
	"ImageTagTransformer":            builtins.NewImageTagTransformerPlugin,
	"LabelTransformer":               builtins.NewLabelTransformerPlugin,
	"NamespaceTransformer":           builtins.NewNamespaceTransformerPlugin,
	"PatchJson6902Transformer":       transform.NewJSON6902Plugin,
	"PatchStrategicMergeTransformer": builtins.NewPatchStrategicMergeTransformerPlugin,
	"PatchTransformer":               transform.NewPatchPlugin,
	"PrefixSuffixTransformer":        newPrefixSuffix,
	"PrefixTransformer":              builtins.NewPrefixTransformerPlugin,
	"SuffixTransformer":              builtins.NewSuffixTransformerPlugin,
	"ReplacementTransformer":         builtins.NewReplacementTransformerPlugin,
	"ReplicaCountTransformer":        builtins.NewReplicaCountTransformerPlugin,
	"ValueAddTransformer":            builtins.NewValueAddTransformerPlugin,
}

// prefixSuffix is kustomize's PrefixSuffixTransformer: the prefix and suffix
// transformers configured from one object.
type prefixSuffix []resmap.TransformerPlugin

func newPrefixSuffix() resmap.TransformerPlugin {
	return prefixSuffix{builtins.NewPrefixTransformerPlugin(), builtins.NewSuffixTransformerPlugin()}
}

func (p prefixSuffix) Config(h *resmap.PluginHelpers, c []byte) error {
	for _, t := range p {
		if err := t.Config(h, c); err != nil {
			return err
		}
	}
	return nil
}

func (p prefixSuffix) Transform(m resmap.ResMap) error {
	for _, t := range p {
		if err := t.Transform(m); err != nil {
			return err
		}
	}
	return nil
}

// IsBuiltin reports whether a config object names a builtin plugin.
func IsBuiltin(res *resource.Resource) bool {
	g := res.GetGvk()
	return g.Group == "" && g.Version == BuiltinAPIVersion
}

// Configure makes the plugin a config object names and configures it with
// the object itself: a builtin plugin (apiVersion builtin), a Starlark
// function (kind StarlarkRun, package starlarkfn) or an exec KRM function
// (config.kubernetes.io/function annotation, package execfn). A config
// with selectors or exclude (package selector) limits the plugin to the
// resources they select. Functions run with fns.
func Configure(res *resource.Resource, h *resmap.PluginHelpers, fns Functions) (resmap.Configurable, error) {
	c, err := configure(res, h, fns)
	if err != nil {
		return nil, err
	}
	sel, err := selector.FromConfig(res)
	if err == nil {
		c, err = selector.Wrap(c, sel)
	}
	if err != nil {
		return nil, fmt.Errorf("plugin %s: %w", res.OrgId(), err)
	}
	return c, nil
}

func configure(res *resource.Resource, h *resmap.PluginHelpers, fns Functions) (resmap.Configurable, error) {
	var c resmap.Configurable
	if !IsBuiltin(res) {
		return configureFunction(res, h, fns)
	}
	kind := res.GetKind()
	if f, ok := generators[kind]; ok {
		c = f()
	} else if f, ok := transformers[kind]; ok {
		c = f()
	} else {
		return nil, fmt.Errorf("unable to load builtin %s", res.GetGvk())
	}
	y, err := res.AsYAML()
	if err != nil {
		return nil, fmt.Errorf("marshalling yaml from res %s: %w", res.OrgId(), err)
	}
	if err := c.Config(h, y); err != nil {
		return nil, fmt.Errorf("plugin %s fails configuration: %w", res.OrgId(), err)
	}
	return c, nil
}

// configureFunction configures a Starlark or exec function. As in
// kustomize, functions need --enable-alpha-plugins (PluginRestrictionsNone),
// and without --enable-exec an exec function does nothing.
func configureFunction(res *resource.Resource, h *resmap.PluginHelpers, fns Functions) (resmap.Configurable, error) {
	pc := h.GeneralConfig()
	if pc == nil || pc.PluginRestrictions != types.PluginRestrictionsNone {
		return nil, types.NewErrOnlyBuiltinPluginsAllowed(res.OrgId().Kind)
	}
	var c resmap.Configurable
	if starlarkfn.IsConfig(res) {
		c = starlarkfn.New(fns.Runtime)
	} else {
		spec, err := execfn.FunctionSpec(res)
		if err != nil {
			return nil, err
		}
		if spec == nil {
			return nil, types.NewErrOnlyBuiltinPluginsAllowed(res.OrgId().Kind)
		}
		if spec.Container.Image == "" && !pc.FnpLoadingOptions.EnableExec {
			return skipped{}, nil
		}
		c = execfn.New(fns.Runtime, fns.Declared)
	}
	// The YAML of the node itself keeps the key order the user wrote.
	y, err := res.RNode.String()
	if err != nil {
		return nil, fmt.Errorf("marshalling yaml from res %s: %w", res.OrgId(), err)
	}
	if err := c.Config(h, []byte(y)); err != nil {
		return nil, err
	}
	return c, nil
}

// skipped is an exec function kustomize build does not run (no
// --enable-exec): it generates nothing and changes nothing.
type skipped struct{}

func (skipped) Config(*resmap.PluginHelpers, []byte) error { return nil }
func (skipped) Transform(resmap.ResMap) error              { return nil }
func (skipped) Generate() (resmap.ResMap, error)           { return resmap.New(), nil }

// Origin is the origin kustomize records for a plugin configured by res.
func Origin(res *resource.Resource) (*resource.Origin, error) {
	return resource.OriginFromCustomPlugin(res)
}
