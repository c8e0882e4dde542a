package execfn

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/krmfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// kust copies testdata/kust into a temporary directory, making the scripts
// under fn/ executable (all but fn/not-executable), and returns its path.
func kust(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "kust")
	err := filepath.Walk("testdata/kust", func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/kust", p)
		out := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if filepath.Base(filepath.Dir(p)) == "fn" && info.Name() != "not-executable" {
			mode = 0o755
		}
		return os.WriteFile(out, b, mode)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func helpers(t *testing.T, dir string, hint load.MissingHint) *resmap.PluginHelpers {
	t.Helper()
	ldr, err := load.NewLoader(filesys.MakeFsOnDisk(), dir, load.RootOnly, hint)
	if err != nil {
		t.Fatal(err)
	}
	return krmtest.PluginHelpers(ldr, types.DisabledPluginConfig())
}

// config is a function config running fn/<name>.
func config(name string, extra string) string {
	return `apiVersion: example.com/v1
kind: SetThing
metadata:
  name: ` + name + `
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ./fn/` + name + `
` + extra + `spec:
  value: 1
`
}

func configure(t *testing.T, h *resmap.PluginHelpers, cfg string) *Plugin {
	t.Helper()
	return configureDeclared(t, h, cfg, nil)
}

// configureDeclared configures a function of a build that declared reg.
func configureDeclared(t *testing.T, h *resmap.PluginHelpers, cfg string, reg *Registry) *Plugin {
	t.Helper()
	return krmtest.Configure(t, New(krmfn.Runtime{}, reg), h, cfg)
}

const input = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/origin: |
      path: app.yaml
spec:
  replicas: 1
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
`

func resMap(t *testing.T, h *resmap.PluginHelpers) resmap.ResMap {
	t.Helper()
	return krmtest.ResMap(t, h.ResmapFactory(), input)
}

func yamlOf(t *testing.T, m resmap.ResMap) string {
	t.Helper()
	var b strings.Builder
	for i, r := range m.Resources() {
		if i > 0 {
			b.WriteString("---\n")
		}
		b.WriteString(r.RNode.MustString())
	}
	return b.String()
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

func TestIdentity(t *testing.T) {
	h := helpers(t, kust(t), nil)
	m := resMap(t, h)
	before := m.Resources()
	if err := configure(t, h, config("identity", "")).Transform(m); err != nil {
		t.Fatal(err)
	}
	if got := yamlOf(t, m); got != input {
		t.Errorf("got\n%s\nwant\n%s", got, input)
	}
	for i, r := range m.Resources() {
		if r != before[i] {
			t.Errorf("resource %d was replaced", i)
		}
	}
}

func TestTransform(t *testing.T) {
	h := helpers(t, kust(t), nil)
	m := resMap(t, h)
	if err := configure(t, h, config("replicas", "")).Transform(m); err != nil {
		t.Fatal(err)
	}
	if got := yamlOf(t, m); !strings.Contains(got, "replicas: 3") || !strings.Contains(got, "path: app.yaml") {
		t.Errorf("got\n%s", got)
	}
}

func TestAddDeleteKeep(t *testing.T) {
	h := helpers(t, kust(t), nil)
	m := resMap(t, h)
	svc := m.Resources()[1]
	if err := configure(t, h, config("replace", "")).Transform(m); err != nil {
		t.Fatal(err)
	}
	rs := m.Resources()
	if len(rs) != 2 || rs[0] != svc || rs[1].GetName() != "added" {
		t.Fatalf("got %v", m.AllIds())
	}
	if got := svc.GetLabels()["edited"]; got != "true" {
		t.Errorf("edit lost: %v", svc.GetLabels())
	}
	if a := svc.GetAnnotations(); len(a) != 0 {
		t.Errorf("id annotations left: %v", a)
	}
}

func TestResourceListInput(t *testing.T) {
	dir := kust(t)
	h := helpers(t, dir, nil)
	record := filepath.Join(t.TempDir(), "in.yaml")
	t.Setenv("RECORD", record)
	p := configure(t, h, config("record", "        envs: [RECORD]\n"))
	if err := p.Transform(resMap(t, h)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	want := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
    annotations:
      internal.config.kubernetes.io/id: '0'
      config.k8s.io/id: '0'
  spec:
    replicas: 1
- apiVersion: v1
  kind: Service
  metadata:
    name: web
    annotations:
      internal.config.kubernetes.io/id: '1'
      config.k8s.io/id: '1'
  spec:
    ports:
    - port: 80
functionConfig:
  apiVersion: example.com/v1
  kind: SetThing
  metadata:
    name: record
    annotations:
      config.kubernetes.io/function: |
        exec:
          path: ./fn/record
          envs: [RECORD]
  spec:
    value: 1
`
	if string(b) != want {
		t.Errorf("input\n%s\nwant\n%s", b, want)
	}
}

func TestGenerateWithEnvAndArgs(t *testing.T) {
	dir := kust(t)
	h := helpers(t, dir, nil)
	t.Setenv("PASSED", "from-krm")
	t.Setenv("HOME", "/home/someone")
	p := configure(t, h, config("env", "        args: [a, b]\n        envs: [FOO=bar, PASSED, NOT_SET]\n"))
	m, err := p.Generate()
	if err != nil {
		t.Fatal(err)
	}
	rs := m.Resources()
	if len(rs) != 1 || !rs[0].NeedHashSuffix() {
		t.Fatalf("generated %v", m.AllIds())
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := rs[0].GetDataMap()
	want := map[string]string{"foo": "bar", "passed": "from-krm", "home": "unset", "args": "a b"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("data.%s = %q, want %q", k, got[k], v)
		}
	}
	if got["pwd"] != dir && got["pwd"] != real {
		t.Errorf("ran in %s, want %s", got["pwd"], dir)
	}
}

func TestFailure(t *testing.T) {
	h := helpers(t, kust(t), nil)
	err := configure(t, h, config("fail", "")).Transform(resMap(t, h))
	wantErr(t, err, `SetThing "fail": function `, "exit status 3", "results:\n  replicas must be set", "stderr:\nset-thing: bad config")
	if strings.Contains(err.Error(), "just saying") {
		t.Errorf("info result in the error: %v", err)
	}
}

func TestMalformedOutput(t *testing.T) {
	h := helpers(t, kust(t), nil)
	cases := map[string]string{
		"garbage":    "wrote malformed output: yaml:",
		"not-a-list": "wrote malformed output: stdout is a v1 ConfigMap, want a config.kubernetes.io/v1 ResourceList",
		"silent":     "wrote malformed output: no ResourceList on stdout",
		"two-docs":   "wrote malformed output: more than one YAML document on stdout",
	}
	for name, want := range cases {
		wantErr(t, configure(t, h, config(name, "")).Transform(resMap(t, h)), `SetThing "`+name+`"`, want)
	}
}

func TestConfigErrors(t *testing.T) {
	dir := kust(t)
	if err := os.WriteFile(filepath.Join(dir, "..", "outside"), []byte("#!/bin/sh\nexec cat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	hint := func(_, p string) string { return "declare " + p }
	h := helpers(t, dir, hint)
	cases := map[string]string{
		"container: {image: gcr.io/kpt-fn/set-labels:v0.1}": "containers are not supported; build the function with Bazel and use exec",
		"exec: {path: /bin/cat}":                            "must be relative to the kustomization directory",
		"exec: {path: ../outside}":                          "is not in or below",
		"exec: {path: fn/missing}":                          "declare",
		"exec: {path: fn/not-executable}":                   `exec path "fn/not-executable" is not an executable file`,
		"exec: {path: fn}":                                  "must resolve to a file",
		"exec: {}":                                          "names no exec.path",
		"exec: {path: fn/identity, bogus: 1}":               "unknown field",
	}
	for spec, want := range cases {
		cfg := "apiVersion: example.com/v1\nkind: SetThing\nmetadata:\n  name: c\n  annotations:\n    config.kubernetes.io/function: '" + spec + "'\n"
		wantErr(t, New(krmfn.Runtime{}, nil).Config(h, []byte(cfg)), want)
	}
	// A bare name is a file of the kustomization, never a $PATH lookup.
	cfg := "apiVersion: example.com/v1\nkind: SetThing\nmetadata:\n  name: c\n  annotations:\n    config.kubernetes.io/function: 'exec: {path: sh}'\n"
	wantErr(t, New(krmfn.Runtime{}, nil).Config(h, []byte(cfg)), "sh")
}

func TestStderrPassedOn(t *testing.T) {
	var buf bytes.Buffer
	dir := kust(t)
	if err := os.WriteFile(filepath.Join(dir, "fn", "chatty"), []byte("#!/bin/sh\necho hello >&2\nexec cat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	h := helpers(t, dir, nil)
	p := New(krmfn.Runtime{Stderr: &buf}, nil)
	if err := p.Config(h, []byte(config("chatty", ""))); err != nil {
		t.Fatal(err)
	}
	if err := p.Transform(resMap(t, h)); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "hello\n" {
		t.Errorf("stderr %q", buf.String())
	}
}
