package cli

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// kustomizeBuildFlagNames are the flags `kustomize build --help` (v5.8.2)
// lists, its hidden deprecated ones and the global --stack-trace, without
// --enable-helm and --helm-command (they come with Helm support).
var kustomizeBuildFlagNames = []string{
	"as-current-user", "enable-alpha-plugins", "enable-exec", "enable-managedby-label", "env",
	"helm-api-versions", "helm-debug", "helm-kube-version", "load-restrictor", "mount",
	"network", "network-name", "output", "reorder", "stack-trace",
}

func TestBuildTakesKustomizeFlags(t *testing.T) {
	fs := buildFlags(new(strings.Builder)).fs
	for _, name := range kustomizeBuildFlagNames {
		if fs.Lookup(name) == nil {
			t.Errorf("krm build has no --%s", name)
		}
	}
	if f := fs.ShorthandLookup("e"); f == nil || f.Name != "env" {
		t.Errorf("-e is not --env: %v", f)
	}
	dir := tree(t, app)
	code, out, stderr := runCLI("build", "--stack-trace", "--network", "--network-name", "n", "--mount", "type=bind,src=.,dst=/x",
		"--as-current-user", "--helm-debug", "--helm-kube-version", "1.30", "--helm-api-versions", "v1",
		"--load-restrictor", "LoadRestrictionsNone", filepath.Join(dir, "app"))
	if code != 0 || out != wantApp {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
}

// setFooApp has a transformer and a generator that are exec functions writing
// the FOO variable into the objects they see and make.
var setFooApp = map[string]string{
	"kustomization.yaml": "resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n",
	"cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n",
	"fn.yaml": "apiVersion: example.com/v1\nkind: SetFoo\nmetadata:\n  name: f\n  annotations:\n" +
		"    config.kubernetes.io/function: |\n      exec:\n        path: ./fn.sh\n",
	"fn.sh": "#!/bin/sh\nsed \"s/name: cm/name: cm-$FOO/\"\n",
}

func TestBuildGatesFunctionsAsKustomize(t *testing.T) {
	dir := tree(t, setFooApp)
	if err := os.Chmod(filepath.Join(dir, "fn.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("build", dir)
	if want := "external plugins disabled; unable to load external plugin 'SetFoo'"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("without --enable-alpha-plugins: exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	code, _, stderr = runCLI("build", "--enable-exec", dir)
	if code != 1 || !strings.Contains(stderr, "external plugins disabled") {
		t.Errorf("--enable-exec alone: exit %d, stderr %q; want the function refused", code, stderr)
	}
	code, out, stderr := runCLI("build", "--enable-alpha-plugins", dir)
	if want := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"; code != 0 || out != want {
		t.Errorf("--enable-alpha-plugins without --enable-exec: exit %d, stdout %q, stderr %q; want the function skipped: %q", code, out, stderr, want)
	}
	code, out, stderr = runCLI("build", "--enable-alpha-plugins", "--enable-exec", "-e", "FOO=bar", "--env", "IGNORED", dir)
	if !strings.Contains(out, "name: cm-bar\n") || code != 0 {
		t.Errorf("with both flags and -e FOO=bar: exit %d, stdout %q, stderr %q; want the function run with FOO=bar", code, out, stderr)
	}
}

func TestBuildOutputDirectory(t *testing.T) {
	dir := tree(t, map[string]string{
		"kustomization.yaml": "resources:\n- r.yaml\n",
		"r.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: Web\n  namespace: a\n---\n" +
			"apiVersion: v1\nkind: Service\nmetadata:\n  name: svc\n---\n" +
			"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\n" +
			"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: b\ndata:\n  z: \"1\"\n  a: x\n",
	})
	out := t.TempDir()
	if code, _, stderr := runCLI("build", "-o", out, dir); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	// The names kustomize build -o DIR writes for these objects.
	want := []string{"a_apps_v1_deployment_web.yaml", "b_v1_configmap_cm.yaml", "default_v1_service_svc.yaml", "v1_namespace_a.yaml"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("files %v, want %v", names, want)
	}
	cm, err := os.ReadFile(filepath.Join(out, "b_v1_configmap_cm.yaml"))
	if want := "apiVersion: v1\ndata:\n  a: x\n  z: \"1\"\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: b\n"; err != nil || string(cm) != want {
		t.Errorf("b_v1_configmap_cm.yaml = %q (%v), want %q", cm, err, want)
	}
}

func TestBuildDeprecatedFlags(t *testing.T) {
	dir := tree(t, map[string]string{
		"kustomization.yaml": "resources:\n- r.yaml\n",
		"r.yaml":             "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: n\n",
	})
	code, out, stderr := runCLI("build", "--reorder", "none", dir)
	if code != 0 || !strings.HasPrefix(out, "apiVersion: v1\nkind: Service") || !strings.Contains(stderr, "Flag --reorder has been deprecated") {
		t.Errorf("--reorder none: exit %d, stdout %q, stderr %q; want input order and a deprecation note", code, out, stderr)
	}
	if code, out, _ := runCLI("build", "--reorder", "legacy", dir); code != 0 || !strings.HasPrefix(out, "apiVersion: v1\nkind: Namespace") {
		t.Errorf("--reorder legacy: exit %d, stdout %q; want the Namespace first", code, out)
	}
	if code, _, stderr := runCLI("build", "--reorder", "bad", dir); code != 2 || !strings.Contains(stderr, "illegal flag value --reorder bad; legal values: [legacy none]") {
		t.Errorf("--reorder bad: exit %d, stderr %q", code, stderr)
	}
	label := "app.kubernetes.io/managed-by: kustomize-v5.8.2"
	if code, out, _ := runCLI("build", "--enable-managedby-label", dir); code != 0 || strings.Count(out, label) != 2 {
		t.Errorf("--enable-managedby-label: exit %d, stdout %q", code, out)
	}
	t.Setenv(managedByEnv, "on")
	if code, out, _ := runCLI("build", dir); code != 0 || strings.Count(out, label) != 2 {
		t.Errorf("%s=on: exit %d, stdout %q", managedByEnv, code, out)
	}
}

// The line of a CI script that calls kustomize works with krm substituted.
func TestBuildCIScriptLine(t *testing.T) {
	dir := tree(t, app)
	out := filepath.Join(t.TempDir(), "out.yaml")
	code, _, stderr := runCLI("build", "--enable-alpha-plugins", "--load-restrictor", "LoadRestrictionsNone", "-o", out, filepath.Join(dir, "outside"))
	got, err := os.ReadFile(out)
	if want := "apiVersion: v1\ndata:\n  a: \"1\"\nkind: ConfigMap\nmetadata:\n  name: cm\n"; code != 0 || err != nil || string(got) != want {
		t.Errorf("exit %d, stderr %q, out.yaml %q (%v), want %q", code, stderr, got, err, want)
	}
}
