package starlarkfn

import (
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/dev/testtree"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/krmfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// kustDir is the kustomization root of the tests: testdata/kust.
func kustDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(testtree.Real(t, d), "kust")
}

func helpers(t *testing.T, dir string, r load.Restrictor, hint load.MissingHint) *resmap.PluginHelpers {
	t.Helper()
	ldr, err := load.NewLoader(filesys.MakeFsOnDisk(), dir, r, hint)
	if err != nil {
		t.Fatal(err)
	}
	return krmtest.PluginHelpers(ldr, types.DisabledPluginConfig())
}

func resMap(t *testing.T, h *resmap.PluginHelpers, y string) resmap.ResMap {
	t.Helper()
	return krmtest.ResMap(t, h.ResmapFactory(), y)
}

func configure(t *testing.T, h *resmap.PluginHelpers, cfg string) *Plugin {
	t.Helper()
	return configureWith(t, h, cfg, krmfn.Runtime{})
}

// configureWith configures a function that prints through rt.
func configureWith(t *testing.T, h *resmap.PluginHelpers, cfg string, rt krmfn.Runtime) *Plugin {
	t.Helper()
	return krmtest.Configure(t, New(rt), h, cfg)
}

// inline wraps a script into a StarlarkRun config.
func inline(name, script string) string {
	return "apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata:\n  name: " + name +
		"\nsource: |\n  " + strings.ReplaceAll(strings.TrimSpace(script), "\n", "\n  ") + "\n"
}

// rnodes renders the resources of m as their own YAML (key order kept).
func rnodes(t *testing.T, m resmap.ResMap) string {
	t.Helper()
	var b strings.Builder
	for i, r := range m.Resources() {
		if i > 0 {
			b.WriteString("---\n")
		}
		s, err := r.RNode.String()
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(s)
	}
	return b.String()
}

func wantEqual(t *testing.T, got, want string) {
	t.Helper()
	if strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func wantErr(t *testing.T, err error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one containing %q", subs)
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q\ndoes not contain %q", err, s)
		}
	}
}

const twoResources = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.25
---
apiVersion: v1
kind: Service
metadata:
  name: web
  labels:
    app: web
spec:
  ports:
  - port: 80
`
