package accumulate

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"sigs.k8s.io/kustomize/api/ifc"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/generate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/plugin"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/transform"
)

const originAnnotation = "config.kubernetes.io/origin"

// Env is what every kustomization of one build shares.
type Env struct {
	Factory   *resmap.Factory
	Validator ifc.Validator
	Plugins   *types.PluginConfig
	// Prebuilt supplies base kustomizations rendered earlier (snapshots);
	// nil renders every base from its sources.
	Prebuilt Prebuilt
	// BasesFromSources renders bases from their declared sources in this
	// build (with Hermetic): a tree that sets openapi, whose schema kustomize
	// applies to everything rendered after it (see openapi.go).
	BasesFromSources bool
	// Hermetic makes a base directory that Prebuilt lacks an error instead
	// of a recursion into its sources: under Bazel every base is a dependency.
	Hermetic bool
	// Label names the build target, for error messages.
	Label string
	// Warnings receives warnings about kustomization files; nil means stderr.
	Warnings io.Writer
	// Functions is what this build's Starlark and exec functions share.
	Functions plugin.Functions
	// Owners maps the absolute directories of components read from
	// snapshots to the labels of their targets, for error messages.
	Owners map[string]string
	// Memoize accumulates each base directory once per build and hands out
	// copies: kustomize re-accumulates a base for every path including it.
	Memoize bool
	memo    map[string]*Accumulation
	// uses counts the lookups each base directory will get (CountBaseUses),
	// so a cached accumulation is handed out itself on its last use.
	uses map[string]int
	// helmFree holds the base directories with no helmCharts in their
	// subtree (ScanTree).
	helmFree map[string]bool
	// Configure, when set, is called with each kustomization file read (its
	// absolute directory) before it is accumulated: the build appends the
	// images it pins there.
	Configure func(root string, k *load.Kustomization)
	// Observer is told what each step did (observe.Nop when nobody
	// watches; never nil).
	Observer observe.Observer
	// openAPI is the first openapi setting met in this build.
	openAPI *OpenAPISetting
	// baseInheritsHelmNamespace: see ScanTree.
	baseInheritsHelmNamespace bool
}

// Prebuilt looks up the rendered accumulation of a base directory.
type Prebuilt interface {
	// Lookup returns a fresh accumulation for the kustomization in the
	// absolute directory dir, its kind (Kustomization or Component), and
	// whether dir is known.
	Lookup(dir string) (acc *Accumulation, kind string, ok bool, err error)
}

// Target is one kustomization directory being accumulated.
type Target struct {
	env  *Env
	ldr  *load.Loader
	kust *load.Kustomization
	// origin is non-nil when the top kustomization asks for buildMetadata;
	// its Path is this kustomization's directory relative to the top.
	origin *resource.Origin
	// helmNamespace is the namespace of the nearest including kustomization
	// that sets one: helmCharts entries without a namespace get it.
	helmNamespace string
}

// NewTarget reads the kustomization file in ldr's root.
func NewTarget(env *Env, ldr *load.Loader) (*Target, error) {
	warn := env.Warnings
	if warn == nil {
		warn = os.Stderr
	}
	k, err := load.ReadKustomization(ldr, warn)
	if err != nil {
		return nil, err
	}
	if env.Configure != nil {
		env.Configure(ldr.Root(), k)
	}
	return &Target{env: env, ldr: ldr, kust: k}, nil
}

// Kustomization is the parsed kustomization file.
func (t *Target) Kustomization() *load.Kustomization { return t.kust }

// Loader reads this kustomization's files.
func (t *Target) Loader() *load.Loader { return t.ldr }

// EnableOrigins turns on origin tracking (buildMetadata) for this target and,
// through it, every base and component.
func (t *Target) EnableOrigins() { t.origin = &resource.Origin{} }

// Accumulate renders this kustomization on its own: resources, bases,
// generators, components, transformers, vars.
func (t *Target) Accumulate() (*Accumulation, error) {
	acc, err := t.accumulate(NewAccumulation())
	if acc != nil {
		acc.Origins = t.origin != nil
	}
	return acc, err
}

// accumulate starts from acc: empty for a Kustomization, the parent's
// accumulation for a Component.
func (t *Target) accumulate(acc *Accumulation) (*Accumulation, error) {
	k := &t.kust.Kustomization
	acc, err := t.accumulateResources(acc, k.Resources)
	if err != nil {
		return nil, fmt.Errorf("accumulating resources: %w", err)
	}
	cfg, err := fieldspec.Load(t.ldr, k.Configurations)
	if err != nil {
		return nil, err
	}
	if err := acc.MergeConfig(cfg); err != nil {
		return nil, fmt.Errorf("merging config: %w", err)
	}
	crdCfg, err := fieldspec.LoadCRDs(t.ldr, k.Crds)
	if err != nil {
		return nil, fmt.Errorf("loading CRDs %v: %w", k.Crds, err)
	}
	if err := acc.MergeConfig(crdCfg); err != nil {
		return nil, fmt.Errorf("merging CRDs: %w", err)
	}
	if err := t.runGenerators(acc); err != nil {
		return nil, err
	}
	if acc, err = t.accumulateComponents(acc, k.Components); err != nil {
		return nil, fmt.Errorf("accumulating components: %w", err)
	}
	if err := t.runTransformers(acc); err != nil {
		return nil, err
	}
	if err := t.runValidators(acc); err != nil {
		return nil, err
	}
	if err := acc.MergeVars(k.Vars, t.kustPath()); err != nil {
		return nil, fmt.Errorf("merging vars %v: %w", k.Vars, err)
	}
	return acc, nil
}

// kustPath names this kustomization file in messages: relative to the
// working directory when below it, so errors read the same on every machine.
func (t *Target) kustPath() string {
	return load.Rel(filepath.Join(t.ldr.Root(), t.kust.FileName))
}

// builtinOrigin is the origin kustomize records for a builtin generator or
// transformer configured by this kustomization file.
func (t *Target) builtinOrigin(kind string) *resource.Origin {
	if t.origin == nil {
		return nil
	}
	return &resource.Origin{
		Repo:         t.origin.Repo,
		Ref:          t.origin.Ref,
		ConfiguredIn: filepath.Join(t.origin.Path, t.kust.FileName),
		ConfiguredBy: kyaml.ResourceIdentifier{TypeMeta: kyaml.TypeMeta{APIVersion: "builtin", Kind: kind}},
	}
}

func (t *Target) runGenerators(acc *Accumulation) error {
	gens, err := generate.Builtins(t.generatorKustomization(), t.stepHelpers)
	if err != nil {
		return fmt.Errorf("%s: %w", t.kustPath(), err)
	}
	// No kustomization up to here sets a namespace for its charts.
	if t.helmNamespace == "" && t.kust.InheritsHelmNamespace() {
		acc.HelmUnnamespaced = true
	}
	type gen struct {
		g      resmap.Generator
		origin *resource.Origin
		name   string
		step   *observe.Step
	}
	var all []gen
	for _, g := range gens {
		s := g.Step
		s.Role, s.In, s.Builtin, s.Ordinal, s.Loader = observe.Generator, t.Source(), true, len(all), g.Helpers.Loader()
		all = append(all, gen{g.Generator, t.builtinOrigin(s.Kind), s.Kind, &s})
	}
	external, err := t.externalGenerators()
	if err != nil {
		return err
	}
	for _, g := range external {
		all = append(all, gen{g.plugin.(resmap.Generator), g.origin, g.id, t.pluginStep(g, observe.Generator, len(all))})
	}
	for _, g := range all {
		if c, ok := g.g.(inflatedChart); ok {
			g.step.Chart = c.InflatedChart
		}
	}
	// One index of the resources for all generators: only they change them.
	absorb := acc.Resources.AbsorbAll
	if rm, ok := acc.Resources.(*resourcemap.Map); ok {
		absorb = rm.Absorber()
	}
	for _, g := range all {
		err := t.env.Observer.Step(g.step, acc.Resources, func() error {
			m, err := g.g.Generate()
			if err != nil {
				return fmt.Errorf("%s: %w", t.kustPath(), err)
			}
			if m != nil {
				if err := m.AddOriginAnnotation(g.origin); err != nil {
					return fmt.Errorf("adding origin annotations for generator %v: %w", g.name, err)
				}
			}
			if err := absorb(m); err != nil {
				return fmt.Errorf("%s: merging from generator %s: %w", t.kustPath(), g.name, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// generatorKustomization is the kustomization the builtin generators are
// configured from: as in kustomize v5.8, a helmCharts entry without a
// namespace takes the nearest including kustomization's (its own is applied
// by package generate).
func (t *Target) generatorKustomization() *types.Kustomization {
	k := &t.kust.Kustomization
	if k.Namespace != "" || t.helmNamespace == "" || len(k.HelmCharts) == 0 {
		return k
	}
	c := *k
	c.HelmCharts = append([]types.HelmChart(nil), k.HelmCharts...)
	for i := range c.HelmCharts {
		if c.HelmCharts[i].Namespace == "" {
			c.HelmCharts[i].Namespace = t.helmNamespace
		}
	}
	return &c
}

// subHelmNamespace is the helmNamespace of the bases and components this
// kustomization includes.
func (t *Target) subHelmNamespace() string {
	if t.kust.Namespace != "" {
		return t.kust.Namespace
	}
	return t.helmNamespace
}

// inflatedChart is a generator that inflated a Helm chart (package helm).
type inflatedChart interface {
	InflatedChart() (name, version, sha256 string)
}

// stepHelpers are the plugin helpers of one step: their loader is the
// observer's (which may watch what the step reads).
func (t *Target) stepHelpers() *resmap.PluginHelpers {
	return resmap.NewPluginHelpers(t.env.Observer.Loader(t.ldr), t.env.Validator, t.env.Factory, t.env.Plugins)
}

// Source is this kustomization file, as steps name what configures them.
func (t *Target) Source() observe.Kustomization {
	return observe.Kustomization{Dir: t.ldr.Root(), File: t.kust.FileName, Content: t.kust.Content}
}

func (t *Target) runTransformers(acc *Accumulation) error {
	ts, err := transform.Builtins(&t.kust.Kustomization, acc.Config, t.stepHelpers)
	if err != nil {
		return fmt.Errorf("%s: %w", t.kustPath(), err)
	}
	type step struct {
		t      resmap.Transformer
		origin *resource.Origin
		name   string
		steps  int
		obs    *observe.Step
	}
	var all []step
	for _, tr := range ts {
		s := tr.Step
		s.Role, s.In, s.Builtin, s.Ordinal = observe.Transformer, t.Source(), true, len(all)
		if tr.Helpers != nil {
			s.Loader = tr.Helpers.Loader()
		}
		all = append(all, step{t: tr.Transformer, origin: t.builtinOrigin(s.Kind), name: tr.Field, steps: tr.Steps, obs: &s})
	}
	external, err := t.externalTransformers("transformers", t.kust.Transformers)
	if err != nil {
		return err
	}
	for _, tr := range external {
		// Errors name the entry of the kustomization file that configures it.
		all = append(all, step{t: tr.plugin.(resmap.Transformer), origin: tr.origin, name: tr.entry, steps: 1,
			obs: t.pluginStep(tr, observe.Transformer, len(all))})
	}
	m := acc.Resources
	schema := t.schemaRead()
	for _, s := range all {
		s.obs.Schema = schema
		err := t.env.Observer.Step(s.obs, m, func() error {
			if err := s.t.Transform(m); err != nil {
				return fmt.Errorf("%s: %s: %w", t.kustPath(), s.name, err)
			}
			for i := 0; s.origin != nil && (i < s.steps || i == 0); i++ {
				if err := m.AddTransformerAnnotation(s.origin); err != nil {
					return err
				}
			}
			m.DropEmpties()
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// accumulateResources reads each entry of `resources` as a file, or failing
// that as a base directory.
func (t *Target) accumulateResources(acc *Accumulation, paths []string) (*Accumulation, error) {
	ahead := t.parseAhead(paths)
	for i, path := range paths {
		var pre *parsed
		if ahead != nil && ahead[i].ok {
			pre = &ahead[i]
		}
		errF := t.accumulateFile(acc, path, pre)
		if errF == nil {
			continue
		}
		if errors.Is(errF, load.ErrRemote) || errors.Is(errF, load.ErrAliasExpansion) {
			return nil, errF
		}
		// A base read from a snapshot is found by its path alone: its
		// directory need not exist (in Bazel's sandbox it does not).
		dir, errD := t.ldr.DirPath(path)
		if errD == nil && t.env.Prebuilt != nil {
			pre, kind, ok, err := t.env.Prebuilt.Lookup(dir)
			if err != nil {
				return nil, err
			}
			if ok {
				if acc, err = t.mergePrebuilt(acc, pre, kind, dir, path); err != nil {
					return nil, err
				}
				continue
			}
		}
		if errD == nil && t.env.Hermetic && !t.ldr.FS().Exists(dir) {
			return nil, t.undeclared("resources", path, dir)
		}
		sub, err := t.ldr.New(path)
		if err != nil {
			if isMalformedYAML(errF) || errors.Is(errF, errDuplicateKey) {
				return nil, errF
			}
			return nil, fmt.Errorf("accumulation err='%s': %w", errF.Error(), err)
		}
		if acc, err = t.accumulateDirectory(acc, sub.(*load.Loader), path, false); err != nil {
			return nil, fmt.Errorf("accumulation err='%s': %w", errF.Error(), err)
		}
	}
	return acc, nil
}

func (t *Target) accumulateComponents(acc *Accumulation, paths []string) (*Accumulation, error) {
	for _, path := range paths {
		if t.env.Hermetic {
			if err := t.checkDeclaredComponent(path); err != nil {
				return nil, err
			}
		}
		sub, err := t.ldr.New(path)
		if err != nil {
			return nil, fmt.Errorf("loader.New %q", err)
		}
		if acc, err = t.accumulateDirectory(acc, sub.(*load.Loader), path, true); err != nil {
			return nil, fmt.Errorf("accumulateDirectory: %q", err)
		}
	}
	return acc, nil
}

// mergePrebuilt merges the snapshot pre (of kind) of the base directory dir,
// named path in resources.
func (t *Target) mergePrebuilt(acc *Accumulation, pre *Accumulation, kind, dir, path string) (*Accumulation, error) {
	if kind == types.ComponentKind {
		return nil, fmt.Errorf("expected kind != '%s' for path '%s'", types.ComponentKind, dir)
	}
	if pre.HelmUnnamespaced && t.subHelmNamespace() != "" {
		hint := "render the bases from sources (krm render --bases-from-sources)"
		if t.env.Label != "" {
			hint = "set helm_inherits_namespace = True on the krm_kustomization whose file has that helmCharts entry " +
				"(Gazelle does; the targets including it then render it from its sources)"
		}
		return nil, fmt.Errorf("base '%s' inflates a helm chart without a namespace; kustomize gives it the namespace %q "+
			"of the kustomization that includes it, which a base rendered on its own cannot know: %s, "+
			"or set namespace on the helmCharts entry", path, t.subHelmNamespace(), hint)
	}
	if t.origin != nil {
		if !pre.Origins {
			hint := "render its snapshot with --origins"
			if t.env.Label != "" {
				hint = "set build_metadata = True on " + t.env.Label + " (Gazelle does)"
			}
			return nil, fmt.Errorf("base '%s' %w, which the buildMetadata of %s needs: %s", path, ErrNoOrigins, t.kustPath(), hint)
		}
		if err := RebaseOrigins(pre.Resources, filepath.Join(t.origin.Path, path)); err != nil {
			return nil, err
		}
	}
	if err := t.env.Observer.Restore(pre.Resources, pre.Observed); err != nil {
		return nil, fmt.Errorf("base '%s': %w", path, err)
	}
	pre.Observed = nil
	if pre.OpenAPI != nil || t.env.openAPI != nil {
		return nil, t.openAPIAcrossSnapshots(path, pre)
	}
	if err := acc.Merge(pre); err != nil {
		return nil, fmt.Errorf("recursed merging from path '%s': %w", dir, err)
	}
	return acc, nil
}

// accumulateDirectory accumulates the base or component in ldr from its
// sources (bases with a snapshot were merged by accumulateResources).
func (t *Target) accumulateDirectory(acc *Accumulation, ldr *load.Loader, path string, isComponent bool) (*Accumulation, error) {
	if !isComponent && t.env.Memoize {
		return t.accumulateMemoized(acc, ldr, path)
	}
	if _, component := t.env.Owners[ldr.Root()]; !isComponent && !component && t.env.Hermetic && !t.env.BasesFromSources {
		return nil, fmt.Errorf("base '%s' (resources of %s) %w as a base: add the krm_kustomization target of %s to deps of %s",
			path, t.kustPath(), load.ErrUndeclared, load.Rel(ldr.Root()), t.env.Owner(t.ldr.Root()))
	}
	sub, err := NewTarget(t.env, ldr)
	if err != nil {
		return nil, fmt.Errorf("couldn't make target for path '%s': %w", ldr.Root(), err)
	}
	sub.kust.BuildMetadata = t.kust.BuildMetadata
	sub.helmNamespace = t.subHelmNamespace()
	if t.origin != nil {
		o := t.origin.Append(path)
		sub.origin = o
	}
	if err := setOpenAPI(sub, false); err != nil {
		return nil, err
	}
	kind := sub.kust.Kind
	if isComponent && kind != types.ComponentKind {
		return nil, fmt.Errorf("expected kind '%s' for path '%s' but got '%s'", types.ComponentKind, ldr.Root(), kind)
	}
	if !isComponent && kind == types.ComponentKind {
		return nil, fmt.Errorf("expected kind != '%s' for path '%s'", types.ComponentKind, ldr.Root())
	}
	var subAcc *Accumulation
	if isComponent {
		// A component works on the parent's accumulation in place.
		subAcc, err = sub.accumulate(acc)
		acc = NewAccumulation()
	} else {
		subAcc, err = sub.Accumulate()
	}
	if err != nil {
		return nil, fmt.Errorf("recursed accumulation of path '%s': %w", ldr.Root(), err)
	}
	if err := acc.Merge(subAcc); err != nil {
		return nil, fmt.Errorf("recursed merging from path '%s': %w", ldr.Root(), err)
	}
	return acc, nil
}

// accumulateFile merges the resources of the file path; pre, when not nil,
// holds them already parsed.
func (t *Target) accumulateFile(acc *Accumulation, path string, pre *parsed) error {
	var m resmap.ResMap
	var err error
	ldr := t.env.Observer.Loader(t.ldr)
	if pre != nil {
		ldr = pre.ldr
		m, err = resourcemap.FromResources(pre.list)
	} else {
		m, err = t.readResources(ldr, path)
	}
	if err == nil {
		err = checkDuplicateKeys(m)
	}
	if err != nil {
		return fmt.Errorf("accumulating resources from '%s': %w", path, err)
	}
	t.env.Observer.Read(t.ldr.Root(), ldr, m)
	if t.origin != nil {
		anno, err := t.origin.Append(path).String()
		if err != nil || anno == "" {
			return fmt.Errorf("cannot add path annotation for '%s': %v", path, err)
		}
		if err := m.AnnotateAll(originAnnotation, anno); err != nil {
			return fmt.Errorf("cannot add path annotation for '%s': %w", path, err)
		}
	}
	if err := acc.Resources.AppendAll(m); err != nil {
		return fmt.Errorf("merging resources from '%s': %w", path, err)
	}
	return nil
}

// readResources parses the resources in the file path. It is kustomize's
// resmap.Factory.FromFile in linear time (kustomize appends the objects of a
// file one by one, each checked against all before it) and without kyaml's
// de-anchoring copy for documents that have no anchors.
func (t *Target) readResources(ldr ifc.Loader, path string) (resmap.ResMap, error) {
	data, err := ldr.Load(path)
	if err != nil {
		return nil, err
	}
	list, err := load.ParseResources(t.env.Factory.RF(), data)
	if errors.Is(err, load.ErrAliasExpansion) || errors.Is(err, load.ErrTooDeep) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err != nil {
		// kustomize's own path gives the exact error text.
		return t.env.Factory.FromFile(ldr, path)
	}
	m, err := resourcemap.FromResources(list)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// accumulateMemoized merges a copy of the base in ldr, accumulating it the
// first time. Its origins are recorded relative to itself and rebased here,
// exactly as for a prebuilt snapshot.
func (t *Target) accumulateMemoized(acc *Accumulation, ldr *load.Loader, path string) (*Accumulation, error) {
	if t.env.memo == nil {
		t.env.memo = map[string]*Accumulation{}
	}
	root := ldr.Root()
	left := 1
	if t.env.uses != nil {
		t.env.uses[root]--
		left = t.env.uses[root]
	}
	// A base's helm charts may render differently under another namespace;
	// a base without any (ScanTree) renders the same under all. Nor is it
	// the same base under another schema (openapi).
	key := root + "\x00" + t.env.schemaKey()
	if !t.env.helmFree[root] {
		key += "\x00" + t.subHelmNamespace()
	}
	cached, ok := t.env.memo[key]
	if !ok {
		sub, err := NewTarget(t.env, ldr)
		if err != nil {
			return nil, fmt.Errorf("couldn't make target for path '%s': %w", ldr.Root(), err)
		}
		if err := setOpenAPI(sub, false); err != nil {
			return nil, err
		}
		if sub.kust.Kind == types.ComponentKind {
			return nil, fmt.Errorf("expected kind != '%s' for path '%s'", types.ComponentKind, ldr.Root())
		}
		if t.origin != nil {
			sub.origin = &resource.Origin{}
		}
		sub.helmNamespace = t.subHelmNamespace()
		if cached, err = sub.Accumulate(); err != nil {
			return nil, fmt.Errorf("recursed accumulation of path '%s': %w", ldr.Root(), err)
		}
	}
	pre := cached
	if left > 0 {
		t.env.memo[key] = cached
		pre = cached.DeepCopy()
		t.env.Observer.Copied(cached.Resources, pre.Resources)
	} else {
		delete(t.env.memo, key)
	}
	if t.origin != nil {
		if err := RebaseOrigins(pre.Resources, filepath.Join(t.origin.Path, path)); err != nil {
			return nil, err
		}
	}
	if err := acc.Merge(pre); err != nil {
		return nil, fmt.Errorf("recursed merging from path '%s': %w", ldr.Root(), err)
	}
	return acc, nil
}
