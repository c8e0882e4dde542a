package fieldspec

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// slices returns the field-spec lists of c by name.
func slices(c *Config) map[string]types.FsSlice {
	return map[string]types.FsSlice{
		"namePrefix":                c.NamePrefix,
		"nameSuffix":                c.NameSuffix,
		"namespace":                 c.NameSpace,
		"commonLabels":              c.CommonLabels,
		"labels":                    c.Labels,
		"templateLabels":            c.TemplateLabels,
		"volumeClaimTemplateLabels": c.VolumeClaimTemplateLabels,
		"commonAnnotations":         c.CommonAnnotations,
		"varReference":              c.VarReference,
		"images":                    c.Images,
		"replicas":                  c.Replicas,
	}
}

func mustParse(t *testing.T, y string) *Config {
	t.Helper()
	c, err := Parse([]byte(y))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, y)
	}
	return c
}

func loader(t *testing.T, files map[string]string) *load.Loader {
	t.Helper()
	fs := krmtest.MemFS(t, files)
	if err := fs.MkdirAll("/app"); err != nil {
		t.Fatal(err)
	}
	l, err := load.NewLoader(fs, "/app", load.RootOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestDefaultsNonEmptyAndSorted(t *testing.T) {
	d := Defaults()
	for name, s := range slices(d) {
		if name == "labels" {
			// kustomize has no default specs for `labels` (it borrows the others).
			if len(s) != 0 {
				t.Errorf("labels: %d default specs, want 0", len(s))
			}
			continue
		}
		if len(s) == 0 {
			t.Errorf("%s: no default field specs", name)
		}
		if !sort.IsSorted(s) {
			t.Errorf("%s: default field specs not sorted", name)
		}
	}
	if len(d.NameReference) < 10 {
		t.Errorf("nameReference: only %d default entries", len(d.NameReference))
	}
	if !sort.IsSorted(d.NameReference) {
		t.Errorf("nameReference: not sorted")
	}
	found := false
	for _, nr := range d.NameReference {
		if nr.Kind == "ConfigMap" && nr.Version == "v1" {
			for _, r := range nr.Referrers {
				if r.Kind == "Deployment" && r.Path == "spec/template/spec/volumes/configMap/name" {
					found = true
				}
			}
		}
	}
	if !found {
		t.Errorf("nameReference: no ConfigMap referrer Deployment spec/template/spec/volumes/configMap/name")
	}
}

func TestDefaultsReturnsACopy(t *testing.T) {
	a := Defaults()
	n := len(a.NamePrefix)
	a.NamePrefix[0].Path = "mutated"
	a.NamePrefix = append(a.NamePrefix, types.FieldSpec{Path: "x"})
	a.NameReference[0].Referrers[0].Path = "mutated"
	b := Defaults()
	if len(b.NamePrefix) != n || b.NamePrefix[0].Path == "mutated" || b.NameReference[0].Referrers[0].Path == "mutated" {
		t.Errorf("mutating one Defaults() result changed the next: %v", b.NamePrefix)
	}
}

func TestParseStrict(t *testing.T) {
	for _, tc := range []struct {
		name, in, wantErr string
	}{
		{name: "unknown top-level key", in: "namePrefixes:\n- path: metadata/name\n", wantErr: "namePrefixes"},
		{name: "unknown field-spec key", in: "namePrefix:\n- pth: metadata/name\n", wantErr: "pth"},
		{name: "unknown nameReference key", in: "nameReference:\n- kind: Secret\n  referrers: []\n", wantErr: "referrers"},
		{name: "wrong type", in: "namePrefix: metadata/name\n", wantErr: "cannot unmarshal"},
		{name: "not yaml", in: "namePrefix: [\n", wantErr: "error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Parse error = %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
	c := mustParse(t, `
namePrefix:
- path: spec/b
  kind: Zeta
- path: spec/a
  kind: Alpha
- path: metadata/name
  kind: Namespace
images:
- path: spec/image
  kind: Foo
  create: true
nameReference:
- kind: Zeta
  fieldSpecs:
  - path: spec/z
- kind: ConfigMap
  version: v1
  fieldSpecs:
  - path: spec/cm
    kind: Foo
`)
	// kustomize's Gvk order puts Namespace first, then by group/version/kind.
	if got := kinds(c.NamePrefix); got != "Namespace Alpha Zeta" {
		t.Errorf("namePrefix order = %s", got)
	}
	if !c.Images[0].CreateIfNotPresent {
		t.Errorf("images[0].create lost")
	}
	if c.NameReference[0].Kind != "ConfigMap" || c.NameReference[1].Kind != "Zeta" {
		t.Errorf("nameReference order = %v", c.NameReference)
	}
	if c.NameReference[0].Referrers[0].Kind != "Foo" {
		t.Errorf("nameReference referrer = %+v", c.NameReference[0].Referrers[0])
	}
	if empty, err := Parse(nil); err != nil || !reflect.DeepEqual(empty, &Config{}) {
		t.Errorf("Parse(nil) = %+v, %v", empty, err)
	}
}

func kinds(s types.FsSlice) string {
	var out []string
	for _, f := range s {
		out = append(out, f.Kind)
	}
	return strings.Join(out, " ")
}

func TestMerge(t *testing.T) {
	a := mustParse(t, `
namePrefix:
- path: metadata/name
- path: spec/x
  kind: Bar
commonLabels:
- path: spec/selector
  kind: Foo
  create: true
nameReference:
- kind: Secret
  version: v1
  fieldSpecs:
  - path: spec/secretName
    kind: Foo
`)
	b := mustParse(t, `
namePrefix:
- path: spec/x
  kind: Bar
- path: spec/y
  kind: Baz
- path: metadata/name
  kind: Namespace
varReference:
- path: spec/args
  kind: Foo
nameReference:
- kind: Secret
  version: v1
  fieldSpecs:
  - path: spec/secretName
    kind: Foo
  - path: spec/other
    kind: Foo
- kind: ConfigMap
  version: v1
  fieldSpecs:
  - path: spec/cm
    kind: Foo
`)
	m, err := a.Merge(b)
	if err != nil {
		t.Fatal(err)
	}
	// Sorted by kustomize's Gvk order: Namespace first, a spec without a
	// kind (~K) after the kinds.
	if got := kinds(m.NamePrefix); got != "Namespace Bar Baz " {
		t.Errorf("namePrefix = %q, want union without duplicates, sorted", got)
	}
	if len(m.CommonLabels) != 1 || len(m.VarReference) != 1 {
		t.Errorf("one-sided lists lost: %v %v", m.CommonLabels, m.VarReference)
	}
	if len(m.NameReference) != 2 || m.NameReference[0].Kind != "ConfigMap" || m.NameReference[1].Kind != "Secret" {
		t.Fatalf("nameReference = %v", m.NameReference)
	}
	if got := m.NameReference[1].Referrers; len(got) != 2 || got[0].Path != "spec/secretName" || got[1].Path != "spec/other" {
		t.Errorf("Secret referrers = %v, want merged without duplicates", got)
	}
	for name, s := range slices(m) {
		if !sort.IsSorted(s) {
			t.Errorf("%s not sorted after merge", name)
		}
	}
	// Merging with nil or with itself changes nothing.
	if same, err := a.Merge(nil); err != nil || same != a {
		t.Errorf("Merge(nil) = %p, %v; want the receiver", same, err)
	}
	again, err := m.Merge(m.DeepCopy())
	if err != nil || !reflect.DeepEqual(again, m) {
		t.Errorf("m.Merge(m) = %+v, %v; want m", again, err)
	}
	// Like kustomize's FsSlice.MergeOne, an incoming spec is a duplicate
	// when an existing one is selected by its Gvk: the kind-less
	// metadata/name of a is dropped when b (which has it for Namespace)
	// is the receiver.
	ba, err := b.Merge(a)
	if err != nil {
		t.Fatal(err)
	}
	if got := kinds(ba.NamePrefix); got != "Namespace Bar Baz" {
		t.Errorf("b.Merge(a).namePrefix = %q, want %q", got, "Namespace Bar Baz")
	}
}

func TestMergeConflicts(t *testing.T) {
	for _, tc := range []struct{ name, a, b, want string }{
		{
			name: "namePrefix create flag",
			a:    "namePrefix:\n- path: spec/x\n  kind: Foo\n",
			b:    "namePrefix:\n- path: spec/x\n  kind: Foo\n  create: true\n",
			want: "failed to merge namePrefix field specs: conflicting fieldspecs",
		},
		{
			name: "images",
			a:    "images:\n- path: spec/x\n  create: true\n",
			b:    "images:\n- path: spec/x\n",
			want: "failed to merge images field specs",
		},
		{
			name: "nameReference referrer",
			a:    "nameReference:\n- kind: Secret\n  fieldSpecs:\n  - path: spec/s\n    kind: Foo\n",
			b:    "nameReference:\n- kind: Secret\n  fieldSpecs:\n  - path: spec/s\n    kind: Foo\n    create: true\n",
			want: "failed to merge nameReference field specs",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mustParse(t, tc.a).Merge(mustParse(t, tc.b))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Merge error = %v, want %q", err, tc.want)
			}
		})
	}
}

// BUG (latent, shared with kustomize's TransformerConfig.Merge): Merge
// appends to the receiver's slices and sorts the result in place, so when
// a receiver slice has spare capacity (any slice Parse decoded) Merge
// rewrites the receiver's elements.
func TestMergeLeavesOperandsAlone(t *testing.T) {
	a := mustParse(t, "namePrefix:\n- path: spec/b\n  kind: B\n- path: spec/c\n  kind: C\n- path: spec/d\n  kind: D\n")
	b := mustParse(t, "namePrefix:\n- path: spec/a\n  kind: A\n")
	before := append(types.FsSlice(nil), a.NamePrefix...)
	if _, err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.NamePrefix, before) {
		t.Errorf("Merge changed its receiver: %v, was %v", a.NamePrefix, before)
	}
}

func TestDeepCopy(t *testing.T) {
	d := Defaults()
	c := d.DeepCopy()
	if !reflect.DeepEqual(c, d) {
		t.Fatal("DeepCopy differs")
	}
	for _, s := range slices(c) {
		if len(s) > 0 {
			s[0].Path = "changed"
		}
	}
	c.NameReference[0].Referrers[0].Path = "changed"
	for name, s := range slices(d) {
		if len(s) > 0 && s[0].Path == "changed" {
			t.Errorf("%s shared with the copy", name)
		}
	}
	if d.NameReference[0].Referrers[0].Path == "changed" {
		t.Errorf("nameReference referrers shared with the copy")
	}
}

func TestLoad(t *testing.T) {
	l := loader(t, map[string]string{
		"/app/config.yaml": `
namePrefix:
- path: spec/serviceName
  kind: Frobnicator
nameReference:
- kind: Secret
  version: v1
  fieldSpecs:
  - path: spec/credentials/name
    kind: Frobnicator
- kind: Gadget
  group: example.com
  fieldSpecs:
  - path: spec/gadgetRef
    kind: Frobnicator
`,
		"/app/more.yaml": `
images:
- path: spec/runner/image
  kind: Frobnicator
namePrefix:
- path: spec/serviceName
  kind: Frobnicator
`,
		"/app/bad.yaml":      "namePrefix:\n- paht: x\n",
		"/app/conflict.yaml": "commonLabels:\n- path: spec/selector\n  version: v1\n  kind: Service\n  create: false\n",
		"/outside.yaml":      "namePrefix: []\n",
	})
	d, err := Load(l, nil)
	if err != nil || !reflect.DeepEqual(d, Defaults()) {
		t.Errorf("Load(no paths) = %v; want the defaults", err)
	}
	c, err := Load(l, []string{"config.yaml", "more.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.NamePrefix) != len(d.NamePrefix)+1 {
		t.Errorf("namePrefix: %d specs, want defaults + 1", len(c.NamePrefix))
	}
	if len(c.Images) != len(d.Images)+1 {
		t.Errorf("images: %d specs, want defaults + 1", len(c.Images))
	}
	var secret, gadget *NameBackReference
	for i := range c.NameReference {
		switch c.NameReference[i].Kind {
		case "Secret":
			secret = &c.NameReference[i]
		case "Gadget":
			gadget = &c.NameReference[i]
		}
	}
	var dsecret NameBackReference
	for _, nr := range d.NameReference {
		if nr.Kind == "Secret" {
			dsecret = nr
		}
	}
	if secret == nil || len(secret.Referrers) != len(dsecret.Referrers)+1 {
		t.Errorf("Secret referrers not extended: %v", secret)
	}
	if gadget == nil || gadget.Group != "example.com" || len(gadget.Referrers) != 1 {
		t.Errorf("Gadget entry = %v", gadget)
	}
	for name, s := range slices(c) {
		if !sort.IsSorted(s) {
			t.Errorf("%s not sorted", name)
		}
	}
	if !sort.IsSorted(c.NameReference) {
		t.Errorf("nameReference not sorted")
	}
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{[]string{"missing.yaml"}, "doesn't exist"},
		{[]string{"config.yaml", "bad.yaml"}, "configurations file bad.yaml"},
		{[]string{"conflict.yaml"}, "conflicting fieldspecs"},
		{[]string{"../outside.yaml"}, "is not in or below"},
	} {
		if _, err := Load(l, tc.paths); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%v) error = %v, want %q", tc.paths, err, tc.want)
		}
	}
}

const crdJSON = `{
  "example.com.v1.Bee": {
    "Schema": {
      "properties": {
        "apiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "metadata": {"$ref": "io.k8s.ObjectMeta"},
        "spec": {"$ref": "example.com.v1.BeeSpec"}
      }
    }
  },
  "example.com.v1.BeeSpec": {
    "Schema": {
      "properties": {
        "secretRef": {
          "type": "object",
          "x-kubernetes-object-ref-api-version": "v1",
          "x-kubernetes-object-ref-kind": "Secret"
        },
        "hive": {
          "type": "string",
          "x-kubernetes-object-ref-api-version": "v1",
          "x-kubernetes-object-ref-kind": "ConfigMap",
          "x-kubernetes-object-ref-name-key": "hiveName"
        },
        "tags": {"type": "object", "x-kubernetes-annotation": ""},
        "selector": {"type": "object", "x-kubernetes-label-selector": ""},
        "beeName": {"type": "string", "x-kubernetes-identity": ""},
        "versionOnly": {"type": "string", "x-kubernetes-object-ref-api-version": "v1"}
      }
    }
  },
  "example.com.v1.NotAType": {
    "Schema": {
      "properties": {
        "kind": {"type": "string"},
        "thing": {"type": "string", "x-kubernetes-identity": ""}
      }
    }
  }
}`

func TestLoadCRDs(t *testing.T) {
	var asYAML map[string]interface{}
	if err := yaml.Unmarshal([]byte(crdJSON), &asYAML); err != nil {
		t.Fatal(err)
	}
	y, err := yaml.Marshal(asYAML)
	if err != nil {
		t.Fatal(err)
	}
	l := loader(t, map[string]string{
		"/app/crd.json": crdJSON,
		"/app/crd.yaml": string(y),
		"/app/bad.json": "{not json",
	})
	bee := resid.Gvk{Kind: "Bee"}
	want := &Config{
		NamePrefix:        types.FsSlice{{Gvk: bee, Path: "spec/beeName"}},
		CommonLabels:      types.FsSlice{{Gvk: bee, Path: "spec/selector"}},
		CommonAnnotations: types.FsSlice{{Gvk: bee, Path: "spec/tags"}},
		NameReference: NameBackReferences{
			{Gvk: resid.Gvk{Version: "v1", Kind: "ConfigMap"}, Referrers: types.FsSlice{{Gvk: bee, Path: "spec/hive/hiveName"}}},
			{Gvk: resid.Gvk{Version: "v1", Kind: "Secret"}, Referrers: types.FsSlice{{Gvk: bee, Path: "spec/secretRef/name"}}},
		},
	}
	for _, p := range []string{"crd.json", "crd.yaml"} {
		got, err := LoadCRDs(l, []string{p})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !reflect.DeepEqual(got, want) {
			gy, _ := yaml.Marshal(got)
			wy, _ := yaml.Marshal(want)
			t.Errorf("%s: LoadCRDs =\n%s\nwant\n%s", p, gy, wy)
		}
	}
	// The same file twice merges to the same config.
	twice, err := LoadCRDs(l, []string{"crd.json", "crd.yaml"})
	if err != nil || !reflect.DeepEqual(twice, want) {
		t.Errorf("twice: %v", err)
	}
	if c, err := LoadCRDs(l, nil); err != nil || !reflect.DeepEqual(c, &Config{}) {
		t.Errorf("LoadCRDs(nil) = %+v, %v", c, err)
	}
	if _, err := LoadCRDs(l, []string{"bad.json"}); err == nil || !strings.Contains(err.Error(), "unable to parse open API definition from 'bad.json'") {
		t.Errorf("bad.json: error = %v", err)
	}
	if _, err := LoadCRDs(l, []string{"missing.json"}); err == nil {
		t.Errorf("missing.json: no error")
	}
	// The nameReference a CRD adds merges into the defaults like kustomize's.
	merged, err := Defaults().Merge(want)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, nr := range merged.NameReference {
		if nr.Kind == "Secret" && nr.Version == "v1" {
			for _, r := range nr.Referrers {
				found = found || (r.Kind == "Bee" && r.Path == "spec/secretRef/name")
			}
		}
	}
	if !found {
		t.Errorf("CRD nameReference not merged into the default Secret entry")
	}
}
