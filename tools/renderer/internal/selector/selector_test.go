package selector

import (
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
)

var rmf = krmtest.NewFactory()

func resources(t *testing.T) resmap.ResMap {
	t.Helper()
	b, err := os.ReadFile("testdata/resources.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := rmf.NewResMapFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func spec(t *testing.T, y string) *Spec {
	t.Helper()
	r, err := rmf.RF().FromBytes([]byte("apiVersion: builtin\nkind: LabelTransformer\nmetadata:\n  name: x\n" + y))
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromConfig(r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func names(rs []*resource.Resource) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.GetName())
	}
	return strings.Join(out, " ")
}

func selected(t *testing.T, s *Spec) string {
	t.Helper()
	var rs []*resource.Resource
	for _, r := range resources(t).Resources() {
		if s.Selects(r) {
			rs = append(rs, r)
		}
	}
	return names(rs)
}

// testdata/resources.yaml holds, in order:
//
//	web     apps/v1 Deployment  ns prod  labels app=web,tier=front  annotations team=a
//	worker  apps/v1 Deployment  ns prod  labels app=worker          annotations team=b
//	web     v1 Service          ns prod  labels app=web
//	cfg     v1 ConfigMap        ns dev   labels app=web,tier=front
//	job     batch/v1 Job        (no namespace)
//	legacy  extensions/v1beta1 Ingress ns prod
func TestEveryField(t *testing.T) {
	cases := []struct{ sel, want string }{
		{"selectors:\n- apiVersion: apps/v1\n", "web worker"},
		{"selectors:\n- apiVersion: v1\n", "web cfg"},
		{"selectors:\n- group: apps\n", "web worker"},
		{"selectors:\n- group: \"\"\n", "web cfg"},
		{"selectors:\n- version: v1\n", "web worker web cfg job"},
		{"selectors:\n- version: v1beta1\n", "legacy"},
		{"selectors:\n- kind: Deployment\n", "web worker"},
		{"selectors:\n- name: web\n", "web web"},
		{"selectors:\n- namespace: dev\n", "cfg"},
		{"selectors:\n- labels: {app: web}\n", "web web cfg"},
		{"selectors:\n- labels: {app: web, tier: front}\n", "web cfg"},
		{"selectors:\n- annotations: {team: b}\n", "worker"},
		// All fields of an entry must match ...
		{"selectors:\n- kind: Deployment\n  name: web\n", "web"},
		{"selectors:\n- group: apps\n  version: v1\n  kind: Deployment\n  name: worker\n  namespace: prod\n  labels: {app: worker}\n  annotations: {team: b}\n", "worker"},
		{"selectors:\n- kind: Deployment\n  namespace: dev\n", ""},
		// ... and any entry of the list.
		{"selectors:\n- kind: Job\n- namespace: dev\n", "cfg job"},
		// Exclusion alone, and with selectors.
		{"exclude:\n- kind: Deployment\n", "web cfg job legacy"},
		{"exclude:\n- kind: Deployment\n- group: \"\"\n", "job legacy"},
		{"exclude:\n- kind: Deployment\n  name: web\n", "worker web cfg job legacy"},
		{"selectors:\n- labels: {app: web}\nexclude:\n- kind: Service\n", "web cfg"},
		{"selectors:\n- group: apps\nexclude:\n- annotations: {team: a}\n", "worker"},
		// An empty list selects everything.
		{"selectors: []\nexclude:\n- kind: Ingress\n", "web worker web cfg job"},
	}
	for _, c := range cases {
		if got := selected(t, spec(t, c.sel)); got != c.want {
			t.Errorf("%s: selected %q, want %q", c.sel, got, c.want)
		}
	}
	if s := spec(t, "selectors: []\n"); s != nil {
		t.Errorf("empty lists give a spec: %+v", s)
	}
	if s := spec(t, ""); s != nil {
		t.Errorf("no fields give a spec: %+v", s)
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"selectors:\n  kind: Deployment\n":      "selectors must be a list of selectors",
		"selectors:\n- matchLabels: {a: b}\n":   `selectors: error unmarshaling JSON: while decoding JSON: json: unknown field "matchLabels"`,
		"exclude:\n- {}\n":                      "exclude[0] is empty",
		"selectors:\n- kind: A\n- labels: {}\n": "selectors[1] is empty",
	}
	for y, want := range cases {
		r, err := rmf.RF().FromBytes([]byte("apiVersion: builtin\nkind: LabelTransformer\nmetadata:\n  name: x\n" + y))
		if err != nil {
			t.Fatal(err)
		}
		_, err = FromConfig(r)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", y, err, want)
		}
	}
}

// fake edits, deletes and adds resources.
type fake struct {
	seen string
}

func (f *fake) Config(*resmap.PluginHelpers, []byte) error { return nil }

func (f *fake) Transform(m resmap.ResMap) error {
	f.seen = names(m.Resources())
	for _, r := range m.Resources() {
		switch r.GetName() {
		case "worker":
			if err := m.Remove(r.CurId()); err != nil {
				return err
			}
		default:
			if err := r.SetLabels(map[string]string{"touched": "yes"}); err != nil {
				return err
			}
		}
	}
	added, err := rmf.RF().FromBytes([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: added\n"))
	if err != nil {
		return err
	}
	return m.Append(added)
}

type fakeGenerator struct{ fake }

func (g *fakeGenerator) Generate() (resmap.ResMap, error) { return resmap.New(), nil }

func TestWrapKeepsOrder(t *testing.T) {
	m := resources(t)
	f := &fake{}
	w, err := Wrap(f, spec(t, "selectors:\n- namespace: prod\nexclude:\n- kind: Ingress\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := w.(resmap.Generator); ok {
		t.Errorf("a wrapped transformer became a generator")
	}
	if err := w.(resmap.Transformer).Transform(m); err != nil {
		t.Fatal(err)
	}
	if f.seen != "web worker web" {
		t.Errorf("the transformer saw %q", f.seen)
	}
	// worker deleted; web, web edited in place; the rest untouched and in order; added at the end.
	if got, want := names(m.Resources()), "web web cfg job legacy added"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
	for _, r := range m.Resources() {
		touched := r.GetLabels()["touched"] == "yes"
		if want := r.GetName() == "web"; touched != want {
			t.Errorf("%s: touched %v, want %v", r.CurId(), touched, want)
		}
	}
	if r := m.Resources()[2]; r.GetLabels()["app"] != "web" || len(r.GetLabels()) != 2 {
		t.Errorf("unselected resource changed: %v", r.GetLabels())
	}
}

func TestWrapPassThrough(t *testing.T) {
	f := &fake{}
	if w, err := Wrap(f, nil); err != nil || w != resmap.Configurable(f) {
		t.Errorf("nil spec: %v %v", w, err)
	}
	s := spec(t, "selectors:\n- kind: Job\n")
	g := &fakeGenerator{}
	w, err := Wrap(g, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := w.(resmap.Generator); !ok {
		t.Errorf("a generator-transformer lost Generate")
	}
	if _, err := Wrap(generatorOnly{}, s); err == nil || !strings.Contains(err.Error(), "apply to transformers and validators, not generators") {
		t.Errorf("generator with selectors: %v", err)
	}
}

type generatorOnly struct{}

func (generatorOnly) Config(*resmap.PluginHelpers, []byte) error { return nil }
func (generatorOnly) Generate() (resmap.ResMap, error)           { return resmap.New(), nil }
