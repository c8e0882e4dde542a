package kustref

import (
	"reflect"
	"testing"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
)

// The kustomize api module is fine here: tests are not compiled into the gazelle binaries
// of rules_krm's consumers.

func TestFileNames(t *testing.T) {
	if got, want := FileNames(), konfig.RecognizedKustomizationFileNames(); !reflect.DeepEqual(got, want) {
		t.Errorf("FileNames() = %q, konfig.RecognizedKustomizationFileNames() = %q", got, want)
	}
}

// TestParse compares Parse with kustomize's Unmarshal and FixKustomization.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		// nestedUnknown: kustomize refuses an unknown field within an entry, Parse does not.
		nestedUnknown bool
	}{
		{name: "empty"},
		{name: "comment only", yaml: "# nothing\n"},
		{name: "component", yaml: "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [a.yaml]\n"},
		{name: "current fields", yaml: `
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
metadata:
  name: app
namespace: prod
namePrefix: p-
nameSuffix: -s
openapi:
  path: schema.json
buildMetadata: [originAnnotations, managedByLabel]
resources: [deployment.yaml, ../base, "https://example.com/x.yaml"]
components: [../comp]
crds: [crd.yaml]
configurations: [namerefs.yaml]
generators: [gen, "apiVersion: v1\nkind: G\n"]
transformers: [t.yaml]
validators: [v.yaml]
labels:
- pairs: {a: b}
  includeSelectors: true
commonAnnotations: {x: y}
images:
- name: nginx
  newTag: "1.2"
replicas:
- name: web
  count: 3
sortOptions:
  order: legacy
patches:
- path: p.yaml
- patch: |-
    - op: add
      path: /x
      value: 1
  target:
    kind: Deployment
    name: web
    labelSelector: a=b
  options:
    allowNameChange: true
replacements:
- path: replacements.yaml
- source:
    kind: ConfigMap
    name: cm
    fieldPath: data.x
  targets:
  - select: {kind: Deployment}
    fieldPaths: [spec.x]
configMapGenerator:
- name: cm
  namespace: other
  behavior: create
  files: [a.txt, key=b.txt]
  envs: [a.env]
  literals: [k=v]
  options:
    disableNameSuffixHash: true
secretGenerator:
- name: s
  type: Opaque
  files: [s.txt]
generatorOptions:
  labels: {a: b}
helmGlobals:
  chartHome: vendor
helmCharts:
- name: chart
  namespace: n
  releaseName: r
  valuesFile: values.yaml
  additionalValuesFiles: [more.yaml]
  valuesInline: {a: 1}
  includeCRDs: true
- name: other
`},
		{name: "legacy fields", yaml: `
bases: [../base, ../other]
resources: [a.yaml]
commonLabels: {app: x}
imageTags:
- name: nginx
  newTag: "1"
vars:
- name: V
  objref: {kind: Service, name: s, apiVersion: v1}
patchesStrategicMerge:
- smp.yaml
- |-
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
patchesJson6902:
- path: json.yaml
  target: {group: apps, version: v1, kind: Deployment, name: web}
configMapGenerator:
- name: cm
  env: legacy.env
  envs: [a.env]
secretGenerator:
- name: s
  env: s.env
helmChartInflationGenerator:
- chartName: legacy
  chartHome: vendor
  helmHome: helm
  values: v.yaml
  releaseName: r
  releaseNamespace: ns
`},
		{name: "legacy helm with globals", yaml: `
helmGlobals:
  chartHome: mine
helmCharts:
- name: a
  namespace: n
helmChartInflationGenerator:
- chartName: b
  chartHome: theirs
`},
		{name: "field names ignore case", yaml: "Resources: [a.yaml]\nNAMESPACE: n\n"},
		{name: "nulls", yaml: "resources: null\npatches:\n- path: p.yaml\n  target: null\nhelmGlobals: null\n"},
		{name: "unknown field", yaml: "resources: [a.yaml]\nresource: [b.yaml]\n"},
		{name: "wrong type", yaml: "resources: a.yaml\n"},
		{name: "wrong type of an unread field", yaml: "namePrefix: [a]\n"},
		{name: "wrong type of a label", yaml: "commonLabels: {a: [b]}\n"},
		{name: "wrong type of a count", yaml: "replicas:\n- name: a\n  count: \"3\"\n"},
		{name: "wrong type of a target", yaml: "patches:\n- path: p.yaml\n  target: Deployment\n"},
		{name: "not an object", yaml: "- a.yaml\n"},
		{name: "invalid YAML", yaml: "resources: [a.yaml\n"},
		{name: "unknown field in a patch", yaml: "patches:\n- path: p.yaml\n  bogus: 1\n", nestedUnknown: true},
		{name: "unknown field in a chart", yaml: "helmCharts:\n- name: a\n  bogus: 1\n", nestedUnknown: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse([]byte(tc.yaml))
			var k types.Kustomization
			kerr := k.Unmarshal([]byte(tc.yaml))
			if tc.nestedUnknown {
				if err != nil || kerr == nil {
					t.Fatalf("Parse: %v; kustomize: %v; want no error and an error", err, kerr)
				}
				return
			}
			if (err != nil) != (kerr != nil) {
				t.Fatalf("Parse: %v; kustomize: %v", err, kerr)
			}
			if err != nil {
				return
			}
			k.FixKustomization()
			if want := fromKustomize(&k); !reflect.DeepEqual(got, want) {
				t.Errorf("Parse:\n%+v\nkustomize:\n%+v", got, want)
			}
		})
	}
}

// fromKustomize keeps the fields of k that Kustomization has.
func fromKustomize(k *types.Kustomization) *Kustomization {
	ref := func(id resid.ResId) ObjectRef {
		return ObjectRef{Group: id.Group, Version: id.Version, Kind: id.Kind, Name: id.Name, Namespace: id.Namespace}
	}
	patches := func(ps []types.Patch) []Patch {
		return convert(ps, func(p types.Patch) Patch {
			out := Patch{Path: p.Path, Patch: p.Patch}
			if s := p.Target; s != nil {
				out.Target = &Selector{
					ObjectRef:          ref(s.ResId),
					AnnotationSelector: s.AnnotationSelector,
					LabelSelector:      s.LabelSelector,
				}
			}
			return out
		})
	}
	gens := func(g types.GeneratorArgs) GeneratorArgs {
		return GeneratorArgs{Name: g.Name, Namespace: g.Namespace, FileSources: g.FileSources, EnvSources: g.EnvSources, EnvSource: g.EnvSource}
	}
	out := &Kustomization{
		Kind:           k.Kind,
		Namespace:      k.Namespace,
		OpenAPI:        k.OpenAPI,
		BuildMetadata:  k.BuildMetadata,
		Resources:      k.Resources,
		Components:     k.Components,
		Crds:           k.Crds,
		Configurations: k.Configurations,
		Generators:     k.Generators,
		Transformers:   k.Transformers,
		Validators:     k.Validators,

		Patches:               patches(k.Patches),
		PatchesJson6902:       patches(k.PatchesJson6902),
		PatchesStrategicMerge: convert(k.PatchesStrategicMerge, func(p types.PatchStrategicMerge) string { return string(p) }),
		Replacements: convert(k.Replacements, func(r types.ReplacementField) ReplacementField {
			out := ReplacementField{Path: r.Path}
			if s := r.Source; s != nil {
				out.Source = &SourceSelector{
					ObjectRef: ref(s.ResId),
					FieldPath: s.FieldPath,
				}
			}
			return out
		}),
		Replicas:           convert(k.Replicas, func(r types.Replica) Replica { return Replica(r) }),
		ConfigMapGenerator: convert(k.ConfigMapGenerator, func(g types.ConfigMapArgs) GeneratorArgs { return gens(g.GeneratorArgs) }),
		SecretGenerator:    convert(k.SecretGenerator, func(g types.SecretArgs) GeneratorArgs { return gens(g.GeneratorArgs) }),
		HelmCharts: convert(k.HelmCharts, func(c types.HelmChart) HelmChart {
			return HelmChart{Name: c.Name, Namespace: c.Namespace, ReleaseName: c.ReleaseName, ValuesFile: c.ValuesFile, AdditionalValuesFiles: c.AdditionalValuesFiles}
		}),
	}
	if g := k.HelmGlobals; g != nil {
		out.HelmGlobals = &HelmGlobals{ChartHome: g.ChartHome, ConfigHome: g.ConfigHome}
	}
	return out
}

// convert maps a slice, nil to nil.
func convert[T, U any](in []T, f func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
