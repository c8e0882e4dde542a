package generate

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

func setup(t *testing.T, kust string, files map[string]string) (*types.Kustomization, *resmap.PluginHelpers) {
	t.Helper()
	files["/app/kustomization.yaml"] = kust
	ldr, err := load.NewLoader(krmtest.MemFS(t, files), "/app", load.RootOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	k, err := load.ReadKustomization(ldr, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	return &k.Kustomization, krmtest.PluginHelpers(ldr, types.DisabledPluginConfig())
}

func generateAll(t *testing.T, gens []Generator) (kinds []string, out string) {
	t.Helper()
	var b strings.Builder
	for _, g := range gens {
		kinds = append(kinds, g.Step.Kind)
		m, err := g.Generate()
		if err != nil {
			t.Fatal(err)
		}
		y, err := m.AsYaml()
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("---\n")
		b.Write(y)
	}
	return kinds, b.String()
}

func TestBuiltins(t *testing.T) {
	k, h := setup(t, `
secretGenerator:
- name: creds
  literals:
  - password=hunter2
  type: kubernetes.io/basic-auth
configMapGenerator:
- name: settings
  literals:
  - mode=fast
  files:
  - conf/app.properties
  options:
    labels:
      local: "1"
- name: env
  envs:
  - app.env
  behavior: merge
  options:
    disableNameSuffixHash: true
generatorOptions:
  labels:
    global: "yes"
  annotations:
    note: generated
`, map[string]string{
		"/app/conf/app.properties": "a=b\n",
		"/app/app.env":             "FROM_ENV=1\n# comment\n",
	})
	gens, err := Builtins(k, func() *resmap.PluginHelpers { return h })
	if err != nil {
		t.Fatal(err)
	}
	kinds, out := generateAll(t, gens)
	if got := strings.Join(kinds, " "); got != "ConfigMapGenerator ConfigMapGenerator SecretGenerator" {
		t.Errorf("generators = %s, want ConfigMaps first, in order, then Secrets", got)
	}
	for _, want := range []string{
		"mode: fast",
		"app.properties: |\n    a=b",
		"FROM_ENV: \"1\"",
		"password: aHVudGVyMg==",
		"type: kubernetes.io/basic-auth",
		// global options merged into each generator's own
		"global: \"yes\"",
		"local: \"1\"",
		"note: generated",
		"internal.config.kubernetes.io/generatorBehavior: merge",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// settings and creds get a hash suffix later; env opted out.
	docs := strings.Split(out, "---\n")[1:]
	for i, name := range []string{"settings", "env", "creds"} {
		hashed := strings.Contains(docs[i], "needsHashSuffix")
		if hashed != (name != "env") {
			t.Errorf("%s: needsHashSuffix = %v\n%s", name, hashed, docs[i])
		}
		if !strings.Contains(docs[i], "name: "+name+"\n") {
			t.Errorf("doc %d is not %s:\n%s", i, name, docs[i])
		}
	}
	// Generating again gives the same objects (option merging, which
	// like kustomize's writes into the entries' options, is idempotent).
	gens, err = Builtins(k, func() *resmap.PluginHelpers { return h })
	if err != nil {
		t.Fatal(err)
	}
	if _, again := generateAll(t, gens); again != out {
		t.Errorf("second generation differs:\n%s\nfirst:\n%s", again, out)
	}
}

func TestBuiltinsNone(t *testing.T) {
	k, h := setup(t, "resources:\n- a.yaml\n", map[string]string{})
	gens, err := Builtins(k, func() *resmap.PluginHelpers { return h })
	if err != nil || len(gens) != 0 {
		t.Errorf("Builtins = %d generators, %v", len(gens), err)
	}
}

func TestBuiltinsErrors(t *testing.T) {
	for _, tc := range []struct{ name, kust, want string }{
		{"helm charts", "helmCharts:\n- name: x\n", "must specify --enable-helm"},
		{"bad literal", "configMapGenerator:\n- name: x\n  literals:\n  - novalue\n", "invalid literal source novalue, expected key=value"},
		{"missing file", "configMapGenerator:\n- name: x\n  files:\n  - missing.txt\n", "missing.txt"},
		{"secret missing env", "secretGenerator:\n- name: x\n  envs:\n  - missing.env\n", "env source files: [missing.env]"},
		{"file outside root", "configMapGenerator:\n- name: x\n  files:\n  - ../outside.txt\n", "is not in or below"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, h := setup(t, tc.kust, map[string]string{"/outside.txt": "x"})
			gens, err := Builtins(k, func() *resmap.PluginHelpers { return h })
			if err == nil {
				// Some generators fail only when they run.
				for _, g := range gens {
					if _, err = g.Generate(); err != nil {
						break
					}
				}
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want %q", err, tc.want)
			}
		})
	}
}
