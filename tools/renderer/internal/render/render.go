// Package render renders a kustomization directory: load, accumulate, finish,
// emit. Build gives the bytes `kustomize build` prints; Render can also
// return the snapshot that parents of this kustomization continue from.
package render

import (
	"fmt"
	"io"
	"log"
	"path/filepath"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/provider"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/emit"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/execfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/finish"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/images"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/inputs"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/krmfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/plugin"
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
	// Stderr receives what a build prints besides its result: warnings
	// about the kustomization files (deprecated fields), as kustomize prints
	// them, and what functions print; nil means os.Stderr.
	Stderr io.Writer
	// Abort reports msg and ends the process when a Starlark script takes
	// the heap past its limit inside one operation, which cannot be
	// interrupted; nil prints msg on Stderr and exits 1.
	Abort func(msg string)
	// LoadRestrictor is LoadRestrictionsRootOnly (default when empty) or LoadRestrictionsNone.
	LoadRestrictor string
	// Deps maps base directories to the snapshot files rendered for them;
	// those bases are read from the snapshots instead of their sources.
	Deps map[string]string
	// Hermetic makes a base directory missing from Deps an error, names the
	// declaration to add for a missing file, and shows paths in errors
	// relative to the working directory (the workspace, under Bazel).
	Hermetic bool
	// Kind, when set, is the kind the kustomization must have (Kustomization
	// or Component): the build system's expectation.
	Kind string
	// Snapshot asks for the snapshot too (Result.Snapshot): what parents
	// of this kustomization continue from.
	Snapshot bool
	// SnapshotOnly stops a render with a snapshot before the finishing
	// steps: a base that kustomize cannot build alone still has a snapshot.
	SnapshotOnly bool
	// Origins tracks origins (kustomize's buildMetadata annotations) even
	// when this kustomization does not ask, for parents that do: its
	// snapshot then carries them, and its bases' snapshots must too.
	Origins bool
	// Label is the Bazel label being built, named in error messages.
	Label string
	// Prebuilt, when set, supplies bases instead of Deps.
	Prebuilt accumulate.Prebuilt
	// BasesFromSources renders every base from its (declared) sources,
	// ignoring Deps and Prebuilt: for a tree that sets openapi, which
	// snapshots cannot carry (see accumulate/openapi.go).
	BasesFromSources bool
	// Owners maps kustomization directories to the labels of the targets
	// declaring them, named in errors (with BasesFromSources).
	Owners map[string]string
	// Provenance, when set, annotates every object with its provenance and
	// produces a provenance manifest (docs/provenance.md). Snapshots then
	// carry provenance too, and bases read from snapshots must have it.
	Provenance *provenance.Options
	// Functions says which non-builtin plugins may run; the zero value is
	// kustomize build's default (builtins only).
	Functions Functions
	// Reorder and ManagedByLabel are kustomize build's deprecated --reorder
	// and --enable-managedby-label flags (see emit.Options).
	Reorder        string
	ManagedByLabel bool
	// Images are appended to the `images` of the top kustomization, or of
	// the base in their Dir (krm --image).
	Images []images.Spec
	// Helm configures helmCharts as kustomize's --enable-helm and --helm-*
	// flags do; charts are rendered in-process, so Command is not used.
	Helm types.HelmConfig
}

// Functions are kustomize build's flags for plugins other than the builtins.
type Functions struct {
	// Alpha allows Starlark and exec functions (--enable-alpha-plugins);
	// without it a function config is an error, as in kustomize.
	Alpha bool
	// Exec runs exec functions (--enable-exec); with Alpha but without it an
	// exec function does nothing, as in kustomize.
	Exec bool
	// Env is added to the environment of exec functions (-e/--env KEY=VALUE).
	Env []string
	// Declared are the executables exec functions run instead of the files
	// their paths name (krm render --function); nil declares none.
	Declared *execfn.Registry
}

// pluginConfig is kustomize's plugin configuration for f.
func (f Functions) pluginConfig() *types.PluginConfig {
	if !f.Alpha {
		return types.DisabledPluginConfig()
	}
	c := types.EnabledPluginConfig(types.BploUseStaticallyLinked)
	c.FnpLoadingOptions = types.FnPluginLoadingOptions{EnableExec: f.Exec, Env: f.Env}
	return c
}

// Result is what Render produces.
type Result struct {
	// Snapshot is the encoded accumulation (only when asked for).
	Snapshot []byte
	// Manifests is the final YAML stream.
	Manifests []byte
	// ProvenanceManifest is the provenance manifest (JSON), with Options.Provenance.
	ProvenanceManifest []byte
	// Component says the Snapshot is a Component's (its files) and the
	// Manifests are empty: a component renders in its parents.
	Component bool
}

// NewEnv returns the shared state of one build, which nobody observes.
func NewEnv() *accumulate.Env {
	return &accumulate.Env{
		Factory:   resmap.NewFactory(resource.NewFactory(&hasher.Hasher{})),
		Validator: provider.NewDefaultDepProvider().GetFieldValidator(),
		Plugins:   types.DisabledPluginConfig(),
		Observer:  observe.Nop{},
	}
}

// Build renders the kustomization in dir (a path in fsys) and returns the bytes
// `kustomize build dir` would print on stdout.
func Build(fsys filesys.FileSystem, dir string, opts Options) ([]byte, error) {
	opts.Snapshot = false
	r, err := Render(fsys, dir, opts)
	if err != nil {
		return nil, err
	}
	return r.Manifests, nil
}

// Render renders the kustomization in dir, and also encodes its snapshot
// when opts.Snapshot is set.
//
// A Component's snapshot (with declared inputs, under a build system) is
// its files, after checking that the kustomization is valid and reads only
// declared inputs; its parents apply it from them. Its manifests are empty.
func Render(fsys filesys.FileSystem, dir string, opts Options) (res *Result, err error) {
	if opts.Hermetic {
		defer func() { err = load.Relative(err) }()
	}
	r, err := load.ParseRestrictor(opts.LoadRestrictor)
	if err != nil {
		return nil, err
	}
	env := NewEnv()
	env.Plugins = opts.Functions.pluginConfig()
	env.Plugins.HelmConfig = opts.Helm
	env.Hermetic, env.Label, env.Warnings = opts.Hermetic, opts.Label, opts.Stderr
	env.Functions = plugin.Functions{
		Runtime:  krmfn.Runtime{Stderr: opts.Stderr, Abort: opts.Abort},
		Declared: opts.Functions.Declared,
	}
	env.Memoize = !opts.Hermetic
	var hint load.MissingHint
	if opts.Hermetic {
		hint = env.MissingFileHint
	}
	ldr, err := load.NewLoader(fsys, dir, r, hint)
	if err != nil {
		return nil, err
	}
	if opts.Hermetic {
		// Bazel's inputs are symbolic links out of the sandbox; the
		// declared inputs confine the build there.
		if err := ldr.SetLinks(load.KeepLinks); err != nil {
			return nil, err
		}
	}
	if opts.Provenance != nil {
		if env.Observer, err = provenance.New(fsys, *opts.Provenance, provenance.Top{Dir: ldr.Root(), Label: opts.Label}); err != nil {
			return nil, err
		}
	}
	env.BasesFromSources = opts.BasesFromSources
	for dir, label := range opts.Owners {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		if env.Owners == nil {
			env.Owners = map[string]string{}
		}
		env.Owners[abs] = label
	}
	pins, err := newImagePins(fsys, ldr.Root(), opts.Images, env.Observer)
	if err != nil {
		return nil, err
	}
	if pins != nil {
		env.Configure = pins.configure
	}
	switch {
	case opts.BasesFromSources:
	case opts.Prebuilt != nil:
		env.Prebuilt = opts.Prebuilt
	case len(opts.Deps) > 0:
		pre, err := newPrebuilt(fsys, opts.Deps, env)
		if err != nil {
			return nil, err
		}
		env.Prebuilt = pre
	}
	t, err := accumulate.NewTarget(env, ldr)
	if err != nil {
		return nil, err
	}
	if err := checkKind(t, opts); err != nil {
		return nil, err
	}
	if t.Kustomization().Kind == types.ComponentKind && !standalone(t, opts) {
		if in, ok := fsys.(*inputs.FS); ok {
			return renderComponent(t, in, opts)
		}
	}
	defer accumulate.HoldOpenAPI(env.ScanTree(ldr))()
	k := t.Kustomization()
	if err := t.SetRootOpenAPI(); err != nil {
		return nil, err
	}
	// kustomize tracks origins for a whole build when the top
	// kustomization's buildMetadata asks. Tracking writes annotations that
	// later transformers see, so a snapshot carries origins only when
	// rendered for parents that ask (Options.Origins), never otherwise.
	if opts.Origins || (len(k.BuildMetadata) != 0 && !opts.SnapshotOnly) {
		t.EnableOrigins()
	}
	acc, err := t.Accumulate()
	if err != nil {
		return nil, err
	}
	if pins != nil {
		if err := pins.checkUsed(); err != nil {
			return nil, err
		}
	}
	res = &Result{}
	if opts.Snapshot {
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
		if h.Provenance, err = env.Observer.Carry(acc.Resources); err != nil {
			return nil, err
		}
		if o := env.OpenAPI(); o != nil {
			h.OpenAPI = &snapshot.OpenAPI{Settings: o.Settings, Schema: string(o.Schema)}
		}
		res.Snapshot, err = snapshot.Encode(acc, h)
		if err != nil {
			return nil, err
		}
		if opts.SnapshotOnly {
			return res, nil
		}
	}
	helpers := resmap.NewPluginHelpers(ldr, env.Validator, env.Factory, env.Plugins)
	// kustomize's warnings, as its log package prints them.
	warn := log.Default()
	if opts.Stderr != nil {
		warn = log.New(opts.Stderr, "", log.LstdFlags)
	}
	if err := finish.Run(acc, helpers, env.Observer, warn); err != nil {
		return nil, finishing(err, opts)
	}
	if err := emit.Prepare(acc.Resources, emit.Options{
		SortOptions: k.SortOptions, BuildMetadata: k.BuildMetadata, Reorder: opts.Reorder, ManagedByLabel: opts.ManagedByLabel,
		Log: warn, Top: t.Source(),
	}, env.Observer); err != nil {
		return nil, finishing(err, opts)
	}
	if res.ProvenanceManifest, err = env.Observer.Finished(acc.Resources); err != nil {
		return nil, err
	}
	if res.Manifests, err = emit.YAML(acc.Resources, env.Observer); err != nil {
		return nil, finishing(err, opts)
	}
	return res, nil
}

// finishing is err of a finishing step; when the snapshot was asked for
// with the manifests (the rules' one action per kustomization), it says
// how to keep the snapshot for the kustomizations including this one.
func finishing(err error, opts Options) error {
	if !opts.Snapshot || opts.SnapshotOnly || opts.Label == "" {
		return err
	}
	return fmt.Errorf("%w\n(the kustomizations including %s read its snapshot, which the same action renders: "+
		"if kustomize cannot build %s alone, set builds_alone = False on it)", err, opts.Label, opts.Label)
}

// NeedsBaseSources reports whether the rules render dir's bases from their
// sources: its tree sets openapi, or a base or component below it inflates a
// helm chart that inherits the namespace of the kustomization including it
// (the openapi and helm_inherits_namespace attributes, transitively).
func NeedsBaseSources(fsys filesys.FileSystem, dir string) (bool, error) {
	openAPI, helm, err := scanTree(fsys, dir)
	return openAPI || helm, err
}

func scanTree(fsys filesys.FileSystem, dir string) (openAPI, baseInheritsHelmNamespace bool, err error) {
	ldr, err := load.NewLoader(fsys, dir, load.RootOnly, nil)
	if err != nil {
		return false, false, err
	}
	// The tree is judged as the rules' renders read it (--hermetic): with the
	// links of a Bazel tree (runfiles, a sandbox) kept, not resolved out of it.
	if err := ldr.SetLinks(load.KeepLinks); err != nil {
		return false, false, err
	}
	env := NewEnv()
	openAPI = env.ScanTree(ldr)
	return openAPI, env.BaseInheritsHelmNamespace(), nil
}

// prebuilt serves snapshots by absolute base directory: files named by
// --dep, or snapshots carried by component snapshots.
type prebuilt struct {
	fs    filesys.FileSystem
	files map[string]string
	data  map[string][]byte
}

// newPrebuilt reads the header of each dep: a base's snapshot is served by
// directory; a component's files join the declared inputs in fsys (which
// must be an inputs.FS), the snapshots of its bases are served like the
// others, and its label names it in errors.
func newPrebuilt(fs filesys.FileSystem, deps map[string]string, env *accumulate.Env) (*prebuilt, error) {
	p := &prebuilt{fs: fs, files: map[string]string{}, data: map[string][]byte{}}
	for dir, file := range deps {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		abs = filepath.Clean(abs)
		data, err := fs.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("reading snapshot of %s: %w", dir, err)
		}
		h, err := snapshot.DecodeHeader(data)
		if err != nil {
			return nil, fmt.Errorf("snapshot %s (of %s): %w", file, dir, err)
		}
		if h.KustomizationKind != types.ComponentKind || len(h.Files) == 0 {
			p.files[abs] = file
			continue
		}
		if err := p.addComponent(h, env); err != nil {
			return nil, fmt.Errorf("snapshot %s of the component %s: %w", file, dir, err)
		}
	}
	return p, nil
}

func (p *prebuilt) addComponent(h *snapshot.Header, env *accumulate.Env) error {
	in, ok := p.fs.(*inputs.FS)
	if !ok {
		return fmt.Errorf("components are read from snapshots only with declared inputs (--inputs)")
	}
	files := make([]inputs.File, len(h.Files))
	for i, f := range h.Files {
		files[i] = inputs.File{Path: f.Path, Data: f.Content()}
	}
	if err := in.Add(files...); err != nil {
		return err
	}
	for _, c := range h.Components {
		if env.Owners == nil {
			env.Owners = map[string]string{}
		}
		env.Owners[filepath.Join(in.Root(), filepath.FromSlash(c.Dir))] = c.Label
	}
	for _, b := range h.Bases {
		p.data[filepath.Join(in.Root(), filepath.FromSlash(b.Dir))] = []byte(b.Snapshot)
	}
	return nil
}

func (p *prebuilt) Lookup(dir string) (*accumulate.Accumulation, string, bool, error) {
	dir = filepath.Clean(dir)
	file, ok := p.files[dir]
	data, carried := p.data[dir]
	if !ok && !carried {
		return nil, "", false, nil
	}
	if ok {
		var err error
		if data, err = p.fs.ReadFile(file); err != nil {
			return nil, "", false, fmt.Errorf("reading snapshot of %s: %w", dir, err)
		}
	} else {
		file = "carried by a component"
	}
	s, err := snapshot.Decode(data)
	if err != nil {
		return nil, "", false, fmt.Errorf("snapshot %s (of %s): %w", file, dir, err)
	}
	return s.Accumulation, s.KustomizationKind, true, nil
}
