package kustref

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// The kinds of kustomization files (kustomize's types.KustomizationKind and
// types.ComponentKind).
const (
	KustomizationKind = "Kustomization"
	ComponentKind     = "Component"
)

// FileNames are the names a kustomization file may have, in the order
// kustomize looks for them (konfig.RecognizedKustomizationFileNames).
func FileNames() []string {
	return []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}
}

// Kustomization holds the fields of a kustomization file that name other
// files, directories and objects, or that change how its tree renders: the
// part of kustomize's types.Kustomization that the Gazelle extension reads,
// without kustomize's api module (whose dependencies need patches to build
// with Bazel). Parse fills it in as kustomize reads a file, legacy fields
// moved to their successors.
type Kustomization struct {
	Kind          string            `json:"kind,omitempty"`
	Namespace     string            `json:"namespace,omitempty"`
	OpenAPI       map[string]string `json:"openapi,omitempty"`
	BuildMetadata []string          `json:"buildMetadata,omitempty"`

	// Resources holds the entries of bases too.
	Resources      []string `json:"resources,omitempty"`
	Components     []string `json:"components,omitempty"`
	Crds           []string `json:"crds,omitempty"`
	Configurations []string `json:"configurations,omitempty"`
	Generators     []string `json:"generators,omitempty"`
	Transformers   []string `json:"transformers,omitempty"`
	Validators     []string `json:"validators,omitempty"`

	Patches         []Patch `json:"patches,omitempty"`
	PatchesJson6902 []Patch `json:"patchesJson6902,omitempty"`
	// PatchesStrategicMerge entries are file paths or inline patches.
	PatchesStrategicMerge []string           `json:"patchesStrategicMerge,omitempty"`
	Replacements          []ReplacementField `json:"replacements,omitempty"`
	Replicas              []Replica          `json:"replicas,omitempty"`
	ConfigMapGenerator    []GeneratorArgs    `json:"configMapGenerator,omitempty"`
	SecretGenerator       []GeneratorArgs    `json:"secretGenerator,omitempty"`

	// HelmGlobals and HelmCharts hold the entries of helmChartInflationGenerator too.
	HelmGlobals *HelmGlobals `json:"helmGlobals,omitempty"`
	HelmCharts  []HelmChart  `json:"helmCharts,omitempty"`
}

// Patch is an entry of patches or patchesJson6902.
type Patch struct {
	Path   string    `json:"path,omitempty"`
	Patch  string    `json:"patch,omitempty"`
	Target *Selector `json:"target,omitempty"`
}

// Selector selects the objects a patch applies to.
type Selector struct {
	ObjectRef
	AnnotationSelector string `json:"annotationSelector,omitempty"`
	LabelSelector      string `json:"labelSelector,omitempty"`
}

// ObjectRef names objects (kustomize's resid.ResId): empty fields match any.
type ObjectRef struct {
	Group     string `json:"group,omitempty"`
	Version   string `json:"version,omitempty"`
	Kind      string `json:"kind,omitempty"`
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
}

// ReplacementField is an entry of replacements: a file of replacements
// (Path), or a replacement written inline.
type ReplacementField struct {
	Path   string          `json:"path,omitempty"`
	Source *SourceSelector `json:"source,omitempty"`
}

// SourceSelector is the object and field a replacement copies from.
type SourceSelector struct {
	ObjectRef
	FieldPath string `json:"fieldPath,omitempty"`
}

// Replica is an entry of replicas.
type Replica struct {
	Name  string `json:"name,omitempty"`
	Count int64  `json:"count"`
}

// GeneratorArgs is an entry of configMapGenerator or secretGenerator.
type GeneratorArgs struct {
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	// FileSources are "path" or "key=path".
	FileSources []string `json:"files,omitempty"`
	// EnvSources holds the entry of env too.
	EnvSources []string `json:"envs,omitempty"`
	EnvSource  string   `json:"env,omitempty"`
}

// HelmGlobals are the helm settings of every chart of a kustomization.
type HelmGlobals struct {
	ChartHome  string `json:"chartHome,omitempty"`
	ConfigHome string `json:"configHome,omitempty"`
}

// HelmChart is an entry of helmCharts.
type HelmChart struct {
	Name                  string   `json:"name,omitempty"`
	Namespace             string   `json:"namespace,omitempty"`
	ReleaseName           string   `json:"releaseName,omitempty"`
	ValuesFile            string   `json:"valuesFile,omitempty"`
	AdditionalValuesFiles []string `json:"additionalValuesFiles,omitempty"`
}

// helmChartArgs is an entry of the legacy helmChartInflationGenerator.
type helmChartArgs struct {
	ChartName   string `json:"chartName,omitempty"`
	ChartHome   string `json:"chartHome,omitempty"`
	HelmHome    string `json:"helmHome,omitempty"`
	Values      string `json:"values,omitempty"`
	ReleaseName string `json:"releaseName,omitempty"`
}

// kustomizationFile is what Parse decodes: the fields of Kustomization, the
// legacy ones it folds into them, and the rest of kustomize's top-level
// fields with the shape of their values, so that a file kustomize refuses
// for a misspelt field or a value of the wrong shape is refused here too.
type kustomizationFile struct {
	Kustomization

	Bases                       []string        `json:"bases,omitempty"`
	HelmChartInflationGenerator []helmChartArgs `json:"helmChartInflationGenerator,omitempty"`

	APIVersion        string                     `json:"apiVersion,omitempty"`
	MetaData          map[string]json.RawMessage `json:"metadata,omitempty"`
	NamePrefix        string                     `json:"namePrefix,omitempty"`
	NameSuffix        string                     `json:"nameSuffix,omitempty"`
	CommonLabels      map[string]string          `json:"commonLabels,omitempty"`
	Labels            []json.RawMessage          `json:"labels,omitempty"`
	CommonAnnotations map[string]string          `json:"commonAnnotations,omitempty"`
	Images            []json.RawMessage          `json:"images,omitempty"`
	ImageTags         []json.RawMessage          `json:"imageTags,omitempty"`
	Vars              []json.RawMessage          `json:"vars,omitempty"`
	SortOptions       map[string]json.RawMessage `json:"sortOptions,omitempty"`
	GeneratorOptions  map[string]json.RawMessage `json:"generatorOptions,omitempty"`
}

// Parse reads a kustomization file as kustomize does (types.Kustomization's
// Unmarshal, then FixKustomization): it refuses a top-level field kustomize
// does not know and values of the wrong type, and moves the legacy fields to
// their successors: bases to resources, a generator's env to its envs,
// helmChartInflationGenerator to helmCharts and helmGlobals; Kind defaults
// to Kustomization. Unlike kustomize, it lets unknown fields within entries
// (a patch, a chart...) pass: a render reports them.
func Parse(content []byte) (*Kustomization, error) {
	j, err := yaml.YAMLToJSON(content)
	if err != nil {
		return nil, fmt.Errorf("invalid Kustomization: %w", err)
	}
	if err := checkFields(j); err != nil {
		return nil, fmt.Errorf("invalid Kustomization: %w", err)
	}
	var f kustomizationFile
	if err := json.Unmarshal(j, &f); err != nil {
		return nil, fmt.Errorf("invalid Kustomization: %w", err)
	}
	f.fix()
	return &f.Kustomization, nil
}

// fix moves the legacy fields to their successors (FixKustomization).
func (f *kustomizationFile) fix() {
	k := &f.Kustomization
	if k.Kind == "" {
		k.Kind = KustomizationKind
	}
	k.Resources = append(k.Resources, f.Bases...)
	for _, gens := range [][]GeneratorArgs{k.ConfigMapGenerator, k.SecretGenerator} {
		for i := range gens {
			if g := &gens[i]; g.EnvSource != "" {
				g.EnvSources = append(g.EnvSources, g.EnvSource)
				g.EnvSource = ""
			}
		}
	}
	var globals HelmGlobals
	for _, old := range f.HelmChartInflationGenerator {
		k.HelmCharts = append(k.HelmCharts, HelmChart{Name: old.ChartName, ValuesFile: old.Values, ReleaseName: old.ReleaseName})
		if old.HelmHome != "" {
			globals.ConfigHome = old.HelmHome
		}
		if old.ChartHome != "" {
			globals.ChartHome = old.ChartHome
		}
	}
	if k.HelmGlobals == nil && (globals.ChartHome != "" || globals.ConfigHome != "") {
		k.HelmGlobals = &globals
	}
}

// checkFields refuses the top-level fields of the JSON object j that
// kustomizationFile does not have, as json.Decoder.DisallowUnknownFields
// would (names match case-insensitively), without refusing the unknown
// fields of nested entries. Anything but an object is left to json.Unmarshal.
func checkFields(j []byte) error {
	var fields map[string]json.RawMessage
	if json.Unmarshal(j, &fields) != nil {
		return nil
	}
	known := fileFieldNames()
	var unknown []string
	for name := range fields {
		if !known[strings.ToLower(name)] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return fmt.Errorf("json: unknown field %q", unknown[0])
}

// fileFieldNames are the JSON names of kustomizationFile's fields, in lower case.
func fileFieldNames() map[string]bool {
	names := map[string]bool{}
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Anonymous {
				add(f.Type)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			names[strings.ToLower(name)] = true
		}
	}
	add(reflect.TypeOf(kustomizationFile{}))
	return names
}

// InheritsHelmNamespace reports whether a helmCharts entry of k has no
// namespace while k sets none (see the function InheritsHelmNamespace).
func (k *Kustomization) InheritsHelmNamespace() bool {
	return InheritsHelmNamespace(k.Namespace, k.HelmCharts, func(c HelmChart) string { return c.Namespace })
}
