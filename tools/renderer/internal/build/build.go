// Package build renders a kustomization directory into the YAML stream that
// `kustomize build` prints: load, accumulate, finish, emit.
package build

import (
	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/provider"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/emit"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/finish"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// Load restrictor values, spelled as kustomize spells them.
const (
	LoadRestrictionsRootOnly = "LoadRestrictionsRootOnly"
	LoadRestrictionsNone     = "LoadRestrictionsNone"
)

// Options tune a build; the zero value behaves like `kustomize build` with default flags.
type Options struct {
	// LoadRestrictor is LoadRestrictionsRootOnly (default when empty) or LoadRestrictionsNone.
	LoadRestrictor string
}

// NewEnv returns the shared state of one build.
func NewEnv() *accumulate.Env {
	return &accumulate.Env{
		Factory:   resmap.NewFactory(resource.NewFactory(&hasher.Hasher{})),
		Validator: provider.NewDefaultDepProvider().GetFieldValidator(),
		Plugins:   types.DisabledPluginConfig(),
	}
}

// Build renders the kustomization in dir (a path in fsys) and returns the bytes
// `kustomize build dir` would print on stdout.
func Build(fsys filesys.FileSystem, dir string, opts Options) ([]byte, error) {
	r, err := load.ParseRestrictor(opts.LoadRestrictor)
	if err != nil {
		return nil, err
	}
	ldr, err := load.NewLoader(fsys, dir, r, nil)
	if err != nil {
		return nil, err
	}
	env := NewEnv()
	t, err := accumulate.NewTarget(env, ldr)
	if err != nil {
		return nil, err
	}
	k := t.Kustomization()
	if err := t.SetRootOpenAPI(); err != nil {
		return nil, err
	}
	if len(k.BuildMetadata) != 0 {
		t.EnableOrigins()
	}
	acc, err := t.Accumulate()
	if err != nil {
		return nil, err
	}
	if err := finish.Run(acc, resmap.NewPluginHelpers(ldr, env.Validator, env.Factory, env.Plugins)); err != nil {
		return nil, err
	}
	if err := emit.Prepare(acc.Resources, emit.Options{SortOptions: k.SortOptions, BuildMetadata: k.BuildMetadata}); err != nil {
		return nil, err
	}
	return emit.YAML(acc.Resources)
}
