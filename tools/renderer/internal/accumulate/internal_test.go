package accumulate

import (
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

var rmf = krmtest.NewFactory()

func memLoader(t *testing.T, files map[string]string, dir string) *load.Loader {
	t.Helper()
	l, err := load.NewLoader(krmtest.MemFS(t, files), dir, load.RootOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func resources(t *testing.T, y string) resmap.ResMap {
	t.Helper()
	rs, err := rmf.RF().SliceFromBytes([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	m, err := resourcemap.FromResources(rs)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestScanTreeCountsBaseUses(t *testing.T) {
	k := func(body string) string { return body }
	files := map[string]string{
		"/r/top/kustomization.yaml": k(`resources:
- a
- b
- file.yaml
- missing-dir
components:
- ../comp
- ../comp
transformers:
- ../tdir
- |-
  apiVersion: builtin
  kind: LabelTransformer
  metadata:
    name: inline
  labels:
    x: y
`),
		"/r/top/file.yaml":             "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: f\n",
		"/r/top/a/kustomization.yaml":  "resources:\n- ../../base\n",
		"/r/top/b/kustomization.yaml":  "resources:\n- ../../base\n- ../../base2\ngenerators:\n- ../../gdir\n",
		"/r/base/kustomization.yaml":   "resources:\n- ../leaf\n",
		"/r/base2/kustomization.yaml":  "resources:\n- ../leaf\nvalidators:\n- ../vdir\n",
		"/r/leaf/kustomization.yaml":   "namePrefix: l-\n",
		"/r/comp/kustomization.yaml":   "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n- ../base\n",
		"/r/tdir/kustomization.yaml":   "resources: []\nnamePrefix: t-\n",
		"/r/gdir/kustomization.yaml":   "namePrefix: g-\n",
		"/r/vdir/kustomization.yaml":   "namePrefix: v-\n",
		"/r/cycle1/kustomization.yaml": "resources:\n- ../cycle2\n",
		"/r/cycle2/kustomization.yaml": "resources:\n- ../cycle1\n",
	}
	e := &Env{}
	if e.ScanTree(memLoader(t, files, "/r/top")) {
		t.Errorf("ScanTree reports openapi; no kustomization sets it")
	}
	want := map[string]int{
		"/r/top/a": 1,
		"/r/top/b": 1,
		// once from a, once from b (b's kustomization is read once), and
		// once per application of the component (twice).
		"/r/base":  4,
		"/r/base2": 1,
		"/r/leaf":  2, // from base (read once) and base2
		"/r/tdir":  1,
		"/r/gdir":  1,
		"/r/vdir":  1,
	}
	if !reflect.DeepEqual(e.uses, want) {
		t.Errorf("uses = %v\nwant   %v", e.uses, want)
	}

	// A cycle does not hang and counts what it can.
	e = &Env{}
	e.ScanTree(memLoader(t, files, "/r/cycle1"))
	if e.uses["/r/cycle2"] != 1 {
		t.Errorf("cycle: uses = %v", e.uses)
	}
	// An unreadable kustomization counts nothing.
	e = &Env{}
	e.ScanTree(memLoader(t, map[string]string{"/x/kustomization.yaml": "bogus: [\n"}, "/x"))
	if len(e.uses) != 0 {
		t.Errorf("unreadable: uses = %v", e.uses)
	}
	// An openapi setting anywhere in the tree (here in a component's base)
	// is reported.
	files["/r/leaf/kustomization.yaml"] = "namePrefix: l-\nopenapi:\n  path: schema.json\n"
	if !(&Env{}).ScanTree(memLoader(t, files, "/r/top")) {
		t.Errorf("ScanTree misses the openapi setting of /r/leaf")
	}
}

// TestScanTreeHelmFree: a base is helm-free when no kustomization of its
// subtree (bases, components) has helmCharts; cycles and unreadable
// kustomizations count as having some.
func TestScanTreeHelmFree(t *testing.T) {
	files := map[string]string{
		"/r/top/kustomization.yaml":        "namespace: top\nresources:\n- ../plain\n- ../chart\n- ../mid\n- ../withcomp\n- ../bad\n- ../c1\n",
		"/r/plain/kustomization.yaml":      "resources:\n- ../leaf\n",
		"/r/leaf/kustomization.yaml":       "namePrefix: l-\n",
		"/r/chart/kustomization.yaml":      "helmCharts:\n- name: x\n",
		"/r/mid/kustomization.yaml":        "resources:\n- ../chart\n- ../leaf\n",
		"/r/withcomp/kustomization.yaml":   "components:\n- ../comp\n",
		"/r/comp/kustomization.yaml":       "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n- ../chart\n",
		"/r/bad/kustomization.yaml":        "resources:\n- ../unreadable\n",
		"/r/unreadable/kustomization.yaml": "bogus: [\n",
		"/r/c1/kustomization.yaml":         "resources:\n- ../c2\n",
		"/r/c2/kustomization.yaml":         "resources:\n- ../c1\n",
	}
	e := &Env{}
	e.ScanTree(memLoader(t, files, "/r/top"))
	want := map[string]bool{"/r/plain": true, "/r/leaf": true}
	if !reflect.DeepEqual(e.helmFree, want) {
		t.Errorf("helmFree = %v\nwant       %v", e.helmFree, want)
	}
}

func TestRebaseOrigins(t *testing.T) {
	m := resources(t, `apiVersion: v1
kind: ConfigMap
metadata:
  name: from-file
  annotations:
    config.kubernetes.io/origin: |
      path: sub/cm.yaml
    alpha.config.kubernetes.io/transformations: |
      - configuredIn: kustomization.yaml
        configuredBy:
          apiVersion: builtin
          kind: PrefixTransformer
      - path: plugins/t.yaml
        configuredIn: plugins/t.yaml
        configuredBy:
          apiVersion: example.com/v1
          kind: Custom
          name: t
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: generated
  annotations:
    config.kubernetes.io/origin: |
      configuredIn: kustomization.yaml
      configuredBy:
        apiVersion: builtin
        kind: ConfigMapGenerator
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: plain
  annotations:
    other: value
`)
	before, _ := m.AsYaml()
	for _, dir := range []string{"", "."} {
		if err := RebaseOrigins(m, dir); err != nil {
			t.Fatal(err)
		}
		if after, _ := m.AsYaml(); string(after) != string(before) {
			t.Errorf("RebaseOrigins(%q) changed the objects", dir)
		}
	}
	if err := RebaseOrigins(m, "../base"); err != nil {
		t.Fatal(err)
	}
	rs := m.Resources()
	o, err := rs[0].GetOrigin()
	if err != nil || o.Path != "../base/sub/cm.yaml" || o.ConfiguredIn != "" {
		t.Errorf("file origin = %+v, %v", o, err)
	}
	ts, err := rs[0].GetTransformations()
	if err != nil || len(ts) != 2 {
		t.Fatalf("transformations = %v, %v", ts, err)
	}
	if ts[0].ConfiguredIn != "../base/kustomization.yaml" || ts[0].Path != "" || ts[0].ConfiguredBy.Kind != "PrefixTransformer" {
		t.Errorf("transformation 0 = %+v", ts[0])
	}
	if ts[1].Path != "../base/plugins/t.yaml" || ts[1].ConfiguredIn != "../base/plugins/t.yaml" || ts[1].ConfiguredBy.Name != "t" {
		t.Errorf("transformation 1 = %+v", ts[1])
	}
	o, err = rs[1].GetOrigin()
	if err != nil || o.Path != "" || o.ConfiguredIn != "../base/kustomization.yaml" || o.ConfiguredBy.Kind != "ConfigMapGenerator" {
		t.Errorf("generator origin = %+v, %v", o, err)
	}
	if got := rs[2].GetAnnotations(); !reflect.DeepEqual(got, map[string]string{"other": "value"}) {
		t.Errorf("object without origin got annotations %v", got)
	}
	// Rebasing twice composes, and paths are cleaned.
	if err := RebaseOrigins(m, "overlays/../top"); err != nil {
		t.Fatal(err)
	}
	if o, _ := m.Resources()[0].GetOrigin(); o.Path != "base/sub/cm.yaml" {
		t.Errorf("rebased twice: %q, want base/sub/cm.yaml", o.Path)
	}
	// A malformed origin is an error.
	bad := resources(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\n  annotations:\n    config.kubernetes.io/origin: '[not, an, origin'\n")
	if err := RebaseOrigins(bad, "x"); err == nil {
		t.Errorf("malformed origin: no error")
	}
}

func TestAccumulationMergeAndVars(t *testing.T) {
	a := NewAccumulation()
	if err := a.Resources.AppendAll(resources(t, "apiVersion: v1\nkind: Service\nmetadata:\n  name: svc\n  namespace: x\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc\n  namespace: y\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n")); err != nil {
		t.Fatal(err)
	}
	svcVar := func(name, ns string) types.Var {
		return types.Var{Name: name, ObjRef: types.Target{APIVersion: "v1", Gvk: residGvk("Service"), Name: "svc", Namespace: ns}, FieldRef: types.FieldSelector{FieldPath: "metadata.name"}}
	}
	if err := a.MergeVars([]types.Var{svcVar("AMBIGUOUS", "")}, "kustomization.yaml"); err == nil || !strings.Contains(err.Error(), "found 2 resId matches for var") {
		t.Errorf("ambiguous var: error = %v", err)
	}
	if err := a.MergeVars([]types.Var{svcVar("X", "x"), {Name: "NONE", ObjRef: types.Target{APIVersion: "v1", Gvk: residGvk("Secret"), Name: "s"}}}, "kustomization.yaml"); err != nil {
		t.Fatal(err)
	}
	var marked []string
	for _, r := range a.Resources.Resources() {
		marked = append(marked, r.GetNamespace()+":"+strings.Join(r.GetRefVarNames(), ","))
	}
	if strings.Join(marked, " ") != "x:X y: :" {
		t.Errorf("var marks = %v", marked)
	}
	if err := a.MergeVars([]types.Var{svcVar("X", "y")}, "kustomization.yaml"); err == nil {
		t.Errorf("redeclaring var X: no error")
	}

	// Merge: resources appended, config merged, vars merged.
	b := NewAccumulation()
	_ = b.Resources.AppendAll(resources(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n"))
	b.Config = fieldspec.Defaults()
	_ = b.Vars.Merge(types.Var{Name: "B"})
	c := a.DeepCopy()
	if err := c.Merge(b); err != nil {
		t.Fatal(err)
	}
	if c.Resources.Size() != 4 || len(c.Vars.AsSlice()) != 3 || len(c.Config.NamePrefix) == 0 {
		t.Errorf("merged: %d resources, vars %v, %d namePrefix specs", c.Resources.Size(), c.Vars.AsSlice(), len(c.Config.NamePrefix))
	}
	// The copy is independent of a.
	if a.Resources.Size() != 3 || len(a.Vars.AsSlice()) != 2 || len(a.Config.NamePrefix) != 0 {
		t.Errorf("DeepCopy shares state with the original")
	}
	c.Resources.Resources()[0].SetName("renamed")
	if a.Resources.Resources()[0].GetName() != "svc" {
		t.Errorf("DeepCopy shares resources")
	}
	// Merging an accumulation with a colliding ID fails.
	if err := c.Merge(b); err == nil || !strings.Contains(err.Error(), "already registered id") {
		t.Errorf("colliding merge: error = %v", err)
	}
	// Merging conflicting field specs fails.
	d := NewAccumulation()
	d.Config = &fieldspec.Config{NamePrefix: types.FsSlice{{Path: "spec/x", CreateIfNotPresent: true}}}
	e := NewAccumulation()
	e.Config = &fieldspec.Config{NamePrefix: types.FsSlice{{Path: "spec/x"}}}
	if err := d.Merge(e); err == nil {
		t.Errorf("conflicting config merge: no error")
	}
}

func residGvk(kind string) resid.Gvk { return resid.Gvk{Version: "v1", Kind: kind} }

// TestTargetErrors covers the structural errors of one accumulation.
func TestTargetErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name: "component as a resource",
			files: map[string]string{
				"/r/app/kustomization.yaml":  "resources:\n- ../comp\n",
				"/r/comp/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nnamePrefix: c-\n",
			},
			want: []string{"expected kind != 'Component' for path '/r/comp'"},
		},
		{
			name: "kustomization as a component",
			files: map[string]string{
				"/r/app/kustomization.yaml":  "components:\n- ../base\n",
				"/r/base/kustomization.yaml": "namePrefix: b-\n",
			},
			want: []string{"expected kind 'Component' for path '/r/base' but got 'Kustomization'"},
		},
		{
			name: "remote resource",
			files: map[string]string{
				"/r/app/kustomization.yaml": "resources:\n- https://github.com/org/repo//base?ref=v1\n",
			},
			want: []string{"remote content is not supported"},
		},
		{
			name: "missing resource",
			files: map[string]string{
				"/r/app/kustomization.yaml": "resources:\n- nope.yaml\n",
			},
			want: []string{"accumulating resources", "nope.yaml"},
		},
		{
			name: "malformed yaml resource",
			files: map[string]string{
				"/r/app/kustomization.yaml": "resources:\n- bad.yaml\n",
				"/r/app/bad.yaml":           "apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: x\n",
			},
			want: []string{"MalformedYAMLError"},
		},
		{
			name: "cycle",
			files: map[string]string{
				"/r/app/kustomization.yaml": "resources:\n- ../b\n",
				"/r/b/kustomization.yaml":   "resources:\n- ../app\n",
			},
			want: []string{"cycle detected"},
		},
		{
			name: "duplicate from two bases",
			files: map[string]string{
				"/r/app/kustomization.yaml": "resources:\n- ../b\n- ../c\n",
				"/r/b/kustomization.yaml":   "resources:\n- ../cm.yaml\n",
				"/r/c/kustomization.yaml":   "resources:\n- cm.yaml\n",
				"/r/c/cm.yaml":              "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n",
				"/r/cm.yaml":                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n",
			},
			// b may not read ../cm.yaml (RootOnly): the load restrictor speaks first.
			want: []string{"is not in or below '/r/b'"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := &Env{Factory: rmf, Plugins: types.DisabledPluginConfig(), Observer: observe.Nop{}}
			tg, err := NewTarget(env, memLoader(t, tc.files, "/r/app"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = tg.Accumulate()
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
		})
	}
}
