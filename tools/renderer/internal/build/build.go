// Package build renders a kustomization directory: load, accumulate, finish,
// emit. Build gives the bytes `kustomize build` prints; Render can also
// return the snapshot that parents of this kustomization continue from.
package build

import (
	"fmt"
	"path/filepath"
	"slices"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/provider"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/emit"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/finish"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provenance"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/snapshot"
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
	// Deps maps base directories to the snapshot files rendered for them;
	// those bases are read from the snapshots instead of their sources.
	Deps map[string]string
	// Hermetic makes a base directory missing from Deps an error.
	Hermetic bool
	// Label is the Bazel label being built, named in error messages.
	Label string
	// Prebuilt, when set, supplies bases instead of Deps.
	Prebuilt accumulate.Prebuilt
	// Provenance, when set, annotates every object with its provenance and
	// produces a provenance manifest (docs/provenance.md). Snapshots then
	// carry provenance too, and bases read from snapshots must have it.
	Provenance *provenance.Options
	// Helm configures helmCharts as kustomize's --enable-helm and --helm-*
	// flags do; charts are rendered in-process, so Command is not used.
	Helm types.HelmConfig
}

// Result is what Render produces.
type Result struct {
	// Snapshot is the encoded accumulation (only when asked for).
	Snapshot []byte
	// Manifests is the final YAML stream.
	Manifests []byte
	// ProvenanceManifest is the provenance manifest (JSON), with Options.Provenance.
	ProvenanceManifest []byte
}

// nesting counts Render calls in progress. kyaml's OpenAPI schema is
// process-wide state, so builds must not run concurrently.
var nesting int

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
	r, err := Render(fsys, dir, opts, false)
	if err != nil {
		return nil, err
	}
	return r.Manifests, nil
}

// Render renders the kustomization in dir, and also encodes its snapshot
// when withSnapshot is set.
func Render(fsys filesys.FileSystem, dir string, opts Options, withSnapshot bool) (*Result, error) {
	r, err := load.ParseRestrictor(opts.LoadRestrictor)
	if err != nil {
		return nil, err
	}
	var hint load.MissingHint
	if opts.Hermetic {
		label := opts.Label
		hint = func(path string) string {
			return fmt.Sprintf("if %q exists, add it to srcs of %s (builds only see declared files)", path, label)
		}
	}
	ldr, err := load.NewLoader(fsys, dir, r, hint)
	if err != nil {
		return nil, err
	}
	env := NewEnv()
	env.Hermetic, env.Label = opts.Hermetic, opts.Label
	env.Memoize = !opts.Hermetic
	env.Plugins.HelmConfig = opts.Helm
	if opts.Provenance != nil {
		if env.Prov, err = provenance.New(fsys, *opts.Provenance); err != nil {
			return nil, err
		}
		if opts.Label != "" {
			if err := env.Prov.SetDefaultLabel(ldr.Root(), opts.Label); err != nil {
				return nil, err
			}
		}
	}
	if opts.Prebuilt != nil {
		env.Prebuilt = opts.Prebuilt
	} else if len(opts.Deps) > 0 {
		pre, err := newPrebuilt(fsys, opts.Deps)
		if err != nil {
			return nil, err
		}
		env.Prebuilt = pre
	}
	t, err := accumulate.NewTarget(env, ldr)
	if err != nil {
		return nil, err
	}
	usesOpenAPI := env.ScanTree(ldr)
	if nesting == 0 {
		// Only an outermost build starts from a fresh schema; a build nested
		// in another (a Prebuilt rendering a base) shares the caller's.
		accumulate.ResetOpenAPI(usesOpenAPI)
	}
	nesting++
	defer func() { nesting-- }()
	k := t.Kustomization()
	if err := t.SetRootOpenAPI(); err != nil {
		return nil, err
	}
	// Snapshots always carry origins (relative to their own directory) so
	// that any parent can ask for them; the final stream drops them unless
	// the top kustomization's buildMetadata asks.
	if len(k.BuildMetadata) != 0 || withSnapshot {
		t.EnableOrigins()
	}
	acc, err := t.Accumulate()
	if err != nil {
		return nil, err
	}
	res := &Result{}
	if withSnapshot {
		kind := k.Kind
		if kind == "" {
			kind = types.KustomizationKind
		}
		h := snapshot.Header{
			KustomizationKind: kind,
			Label:             opts.Label,
			SortOptions:       k.SortOptions,
			BuildMetadata:     k.BuildMetadata,
		}
		if env.Prov != nil {
			h.Provenance = env.Prov.Export(acc.Resources.Resources())
		}
		res.Snapshot, err = snapshot.Encode(acc, h)
		if err != nil {
			return nil, err
		}
	}
	helpers := resmap.NewPluginHelpers(ldr, env.Validator, env.Factory, env.Plugins)
	if env.Prov != nil {
		err = finish.RunObserved(acc, helpers, env.Prov)
	} else {
		err = finish.Run(acc, helpers)
	}
	if err != nil {
		return nil, err
	}
	if err := emit.Prepare(acc.Resources, emit.Options{SortOptions: k.SortOptions, BuildMetadata: k.BuildMetadata}); err != nil {
		return nil, err
	}
	if env.Prov != nil && slices.Contains(k.BuildMetadata, types.ManagedByLabelOption) {
		// emit.Prepare labelled every object.
		env.Prov.AddToAll(acc.Resources, t.ProvenanceStep("LabelTransformer",
			[]byte(konfig.ManagedbyLabelKey+": "+emit.ManagedByValue+"\n")))
	}
	if env.Prov == nil {
		if res.Manifests, err = emit.YAML(acc.Resources); err != nil {
			return nil, err
		}
		return res, nil
	}
	fin, err := env.Prov.Finish(acc.Resources, provenance.Top{Dir: ldr.Root(), Label: opts.Label})
	if err != nil {
		return nil, err
	}
	res.ProvenanceManifest = fin.Manifest
	if res.Manifests, err = emit.YAMLWith(acc.Resources, fin.Print); err != nil {
		return nil, err
	}
	return res, nil
}

// prebuilt serves snapshots by absolute base directory.
type prebuilt struct {
	fs    filesys.FileSystem
	files map[string]string
}

func newPrebuilt(fs filesys.FileSystem, deps map[string]string) (*prebuilt, error) {
	p := &prebuilt{fs: fs, files: map[string]string{}}
	for dir, file := range deps {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		p.files[filepath.Clean(abs)] = file
	}
	return p, nil
}

func (p *prebuilt) Lookup(dir string) (*accumulate.Accumulation, string, bool, error) {
	file, ok := p.files[filepath.Clean(dir)]
	if !ok {
		return nil, "", false, nil
	}
	data, err := p.fs.ReadFile(file)
	if err != nil {
		return nil, "", false, fmt.Errorf("reading snapshot of %s: %w", dir, err)
	}
	s, err := snapshot.Decode(data)
	if err != nil {
		return nil, "", false, fmt.Errorf("snapshot %s (of %s): %w", file, dir, err)
	}
	return s.Accumulation, s.KustomizationKind, true, nil
}
