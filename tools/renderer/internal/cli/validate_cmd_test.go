package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/secretdata/secrettest"
)

func TestValidateCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v}\n")
	bad := write("bad.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v}\ndat: {}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n")
	crd := write("crd.yaml", `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
`)
	alias := write("alias.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: &m {name: a}\n")
	for _, c := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{good}, 0, "1 objects, 0 invalid", ""},
		{[]string{bad}, 1, `bad.yaml:5: ConfigMap/a: dat: unknown field "dat"`, ""},
		{[]string{bad}, 1, "bad.yaml:7: Widget/w: no schema for example.com/v1 Widget", ""},
		{[]string{"--crd", crd, "--allow-kind", "nothing/Else", good}, 0, "1 objects, 0 invalid", ""},
		{[]string{"--crd", crd, bad}, 1, "2 objects, 1 invalid", ""},
		{[]string{"--allow-kind", "example.com/Widget", "-o", "junit", bad}, 1, `<testcase name="Widget/w"`, ""},
		{[]string{"-o", "junit", bad}, 1, `<failure message="1 errors; first: dat: unknown field`, ""},
		{[]string{alias}, 2, "", "alias.yaml: document 1: invalid input: line 3: YAML anchors and aliases"},
		{[]string{"--crd", alias, good}, 2, "", "Error: --crd: " + alias + ": document 1: invalid input"},
		// An unreadable object wins over an unreadable --crd, as when every object was read first.
		{[]string{"--crd", filepath.Join(dir, "missing.yaml"), alias}, 2, "", "Error: " + alias + ": document 1: invalid input"},
		{[]string{"--crd", filepath.Join(dir, "missing.yaml"), good}, 2, "", "Error: --crd: stat " + filepath.Join(dir, "missing.yaml")},
		{[]string{"--kubernetes-version", "v1.2", good}, 2, "", "no schemas for this Kubernetes version: v1.2 (pinned: v1.37)"},
		{[]string{"-o", "xml", good}, 2, "", `--output "xml": want text or junit`},
		{nil, 2, "", "krm validate needs files or directories"},
		{[]string{"--namespace-labels", "prod", good}, 2, "", `Error: --namespace-labels "prod": want NAMESPACE=KEY=VALUE`},
		{[]string{"--policy", alias, good}, 2, "", "Error: --policy: " + alias + ": document 1: invalid input"},
		{[]string{"--policy", "../validate/testdata/policy/replicas.yaml", "--namespace-labels", "dev=env=prod", "../validate/testdata/policy/objects.yaml"}, 1,
			"../validate/testdata/policy/objects.yaml:9: Deployment/prod/web: spec.replicas: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-prod' denied request: replicas must be at most 5, not 7\n8 objects, 1 invalid", ""},
		{[]string{"--policy", "../validate/testdata/policy/broken.yaml", good}, 2, "", "Error: --policy: ../validate/testdata/policy/broken.yaml: the API server refuses the ValidatingAdmissionPolicy broken:\n../validate/testdata/policy/broken.yaml:9: "},
	} {
		var stdout, stderr strings.Builder
		code := run(append([]string{"validate"}, c.args...), streams{stdout: &stdout, stderr: &stderr})
		if code != c.code || !strings.Contains(stdout.String(), c.stdout) || !strings.Contains(stderr.String(), c.stderr) {
			t.Errorf("krm validate %q: exit %d, want %d\nstdout:\n%s\nstderr:\n%s\nwant stdout %q, stderr %q",
				c.args, code, c.code, stdout.String(), stderr.String(), c.stdout, c.stderr)
		}
	}
}

// TestValidateJUnitFile: --junit writes the JUnit report beside the text one.
func TestValidateJUnitFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndat: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	xml := filepath.Join(dir, "test.xml")
	var stdout, stderr strings.Builder
	code := run([]string{"validate", "--junit", xml, bad}, streams{stdout: &stdout, stderr: &stderr})
	got, err := os.ReadFile(xml)
	if code != 1 || err != nil || !strings.Contains(stdout.String(), `unknown field "dat"`) || !strings.Contains(string(got), `<testcase name="ConfigMap/a"`) {
		t.Errorf("krm validate --junit: exit %d, stdout %q, stderr %q; %s: %v\n%s", code, stdout.String(), stderr.String(), xml, err, got)
	}
	code = run([]string{"validate", "--junit", filepath.Join(dir, "no", "such", "dir.xml"), bad}, streams{stdout: &stdout, stderr: &stderr})
	if code != 2 || !strings.Contains(stderr.String(), "Error: --junit:") {
		t.Errorf("krm validate --junit into a missing directory: exit %d, stderr %q", code, stderr.String())
	}
}

// TestTestArgs: a test whose executable is krm (krm_validate_test) gives it its arguments
// in `<executable>.krmargs`, where ${NAME} is an environment variable.
func TestTestArgs(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "prod_validate_test")
	if err := os.WriteFile(exe+testArgsSuffix, []byte("validate\n--junit=${XML_OUTPUT_FILE}\n--crd=${UNSET_KRM_TEST_VAR}x\n$HOME\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XML_OUTPUT_FILE", "/out/test.xml")
	got, err := testArgs(exe, []string{"--allow-kind=A"})
	want := []string{"validate", "--junit=/out/test.xml", "--crd=x", "$HOME", "--allow-kind=A"}
	if err != nil || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("testArgs: %q, %v; want %q", got, err, want)
	}
	for _, exe := range []string{filepath.Join(dir, "other"), "prod_validate_test"} {
		if got, err := testArgs(exe, []string{"build", "."}); err != nil || len(got) != 2 {
			t.Errorf("testArgs(%q) without an arguments file: %q, %v", exe, got, err)
		}
	}
}

// kuberayDir is the vendored kuberay tree (dev/bench/real), seen from this package.
const kuberayDir = "../../../../dev/bench/real/kuberay"

// TestValidateSourceLines renders a copy of the kuberay tree with mutant fields, with
// provenance, and checks that krm validate -m names the source file and line of each: the
// object's source document, or the patch that set the field.
func TestValidateSourceLines(t *testing.T) {
	ws := t.TempDir()
	if err := bazeltest.CopyResolved(kuberayDir, filepath.Join(ws, "kuberay")); err != nil {
		t.Fatal(err)
	}
	manager := "kuberay/config/manager/manager.yaml"
	patch := "kuberay/config/default-with-webhooks/manager_webhook_patch.yaml"
	// mutate replaces old (once) in the workspace file and returns FILE:LINE of where new
	// starts, FILE:LINE-END when the field spans n > 1 lines.
	mutate := func(file, old, new string, n int) string {
		t.Helper()
		p := filepath.Join(ws, file)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(data), old)
		if i < 0 {
			t.Fatalf("%s: no %q", file, old)
		}
		if err := os.WriteFile(p, []byte(string(data[:i])+new+string(data[i+len(old):])), 0o644); err != nil {
			t.Fatal(err)
		}
		start := strings.Count(string(data[:i]), "\n") + 1
		if n > 1 {
			return fmt.Sprintf("%s:%d-%d", file, start, start+n-1)
		}
		return fmt.Sprintf("%s:%d", file, start)
	}
	want := []string{
		mutate(manager, "imagePullPolicy: IfNotPresent", "imagePullPolcy: IfNotPresent", 1) +
			": Deployment/ray-system/kuberay-operator: spec.template.spec.containers[0].imagePullPolcy: unknown field",
		mutate(manager, "strategy:\n    type: Recreate", "stratgy:\n    type: Recreate", 2) +
			": Deployment/ray-system/kuberay-operator: spec.stratgy: unknown field",
		mutate(manager, "initialDelaySeconds: 10\n          periodSeconds: 5", "initialDelaySeconds: soon\n          periodSeconds: 5", 1) +
			": Deployment/ray-system/kuberay-operator: spec.template.spec.containers[0].livenessProbe.initialDelaySeconds: Invalid value: must be of type integer, not string",
		mutate(patch, "containerPort: 9443", "containerPort: webhook", 1) +
			": Deployment/ray-system/kuberay-operator: spec.template.spec.containers[0].ports[0].containerPort: Invalid value: must be of type integer, not string",
	}
	setBy := "set by PatchTransformer configured in kuberay/config/default-with-webhooks/kustomization.yaml)"
	man := filepath.Join(ws, "provenance.json")
	code, out, errOut := runCLI("build", filepath.Join(ws, "kuberay/config/default-with-webhooks"),
		"--provenance", "--provenance-manifest", man, "--workspace-root", ws)
	if code != 0 {
		t.Fatalf("krm build: exit %d: %s", code, errOut)
	}
	rendered := filepath.Join(ws, "manifests.yaml")
	if err := os.WriteFile(rendered, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	// From the workspace root, the default --workspace-root: paths in the report are relative.
	t.Chdir(ws)
	code, report, errOut := runCLI("validate", "manifests.yaml", "-m", "provenance.json", "--allow-kind", "cert-manager.io/*")
	if code != 1 {
		t.Fatalf("krm validate: exit %d, want 1: %s%s", code, report, errOut)
	}
	lines := strings.Split(strings.TrimSpace(report), "\n")
	if len(lines) != len(want)+1 || lines[len(lines)-1] != "16 objects, 1 invalid" {
		t.Fatalf("want %d errors and the summary, got:\n%s", len(want), report)
	}
	for _, w := range want {
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, w) {
				found = true
				if strings.Contains(w, patch) != strings.HasSuffix(l, setBy) {
					t.Errorf("%s: want %q only for the patch's field", l, setBy)
				}
			}
		}
		if !found {
			t.Errorf("no error starting %q in:\n%s", w, report)
		}
	}
	if strings.Contains(report, ws) || !strings.Contains(report, "(rendered at manifests.yaml:") {
		t.Errorf("the report names the rendered file by another path than the one given:\n%s", report)
	}
}

// TestValidateHidesSecrets runs krm validate on internal/validate/testdata/secrets in each
// report format, to stdout and to a --junit file: the errors say a value is hidden, and no
// Secret value is printed.
func TestValidateHidesSecrets(t *testing.T) {
	const cases = "../validate/testdata/secrets"
	xml := filepath.Join(t.TempDir(), "test.xml")
	for _, args := range [][]string{{"-o", "text"}, {"-o", "junit"}, {"--junit", xml}} {
		code, out, errOut := runCLI(append(append([]string{"validate"}, args...), cases)...)
		if code != 1 || !strings.Contains(out, "(Secret value hidden)") {
			t.Errorf("krm validate %s: exit %d, stdout:\n%s\nstderr:\n%s", args, code, out, errOut)
		}
		secrettest.NoLeak(t, fmt.Sprintf("krm validate %s", args), out+errOut)
	}
	got, err := os.ReadFile(xml)
	if err != nil || !strings.Contains(string(got), "(Secret value hidden)") {
		t.Errorf("--junit %s: %v\n%s", xml, err, got)
	}
	secrettest.NoLeak(t, "krm validate --junit", string(got))
}

// TestValidateCRDRules renders a CRD with CEL rules and a custom resource an overlay patches
// to break two, with provenance: krm validate -m names the source line of each field the
// server's message is about (the patch's), the rules' messages, and notes the transition
// rules at their lines in the CRD's source, once each.
func TestValidateCRDRules(t *testing.T) {
	ws := t.TempDir()
	crd, err := os.ReadFile("../crdcheck/testdata/gizmo-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	renderWithManifest(t, ws, map[string]string{
		"base/kustomization.yaml":    "resources: [crd.yaml, gizmo.yaml]\n",
		"base/crd.yaml":              string(crd),
		"base/gizmo.yaml":            "apiVersion: example.com/v1\nkind: Gizmo\nmetadata: {name: g}\nspec:\n  size: 3\n",
		"overlay/kustomization.yaml": "resources: [../base]\npatches: [{path: patch.yaml}]\n",
		"overlay/patch.yaml":         "apiVersion: example.com/v1\nkind: Gizmo\nmetadata: {name: g}\nspec:\n  owner: bob\n  minReplicas: 5\n",
	}, "overlay")
	code, report, errOut := runCLI("validate", "manifests.yaml", "-m", "p.json")
	if code != 1 {
		t.Fatalf("krm validate: exit %d, want 1: %s%s", code, report, errOut)
	}
	const rules = "CustomResourceDefinition/gizmos.example.com: spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations"
	want := []string{
		"overlay/patch.yaml:4-6: Gizmo/g: spec: Forbidden: owner bob must start with team- (rendered at manifests.yaml:",
		"overlay/patch.yaml:6: Gizmo/g: spec.minReplicas: Invalid value: minReplicas must not exceed maxReplicas (rendered at manifests.yaml:",
		"note: base/crd.yaml:31-32: " + rules + "[2]: not checked offline: transition rule (needs the old object): self.size == oldSelf.size (rendered at manifests.yaml:",
		"note: base/crd.yaml:33-35: " + rules + "[3]: checked as on create only (oldSelf absent): transition rule (needs the old object): ",
		"2 objects, 1 invalid",
	}
	lines := strings.Split(strings.TrimSpace(report), "\n")
	if len(lines) != len(want) {
		t.Fatalf("want %d lines, got:\n%s", len(want), report)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d:\n%s\nwant it to start:\n%s", i+1, lines[i], w)
		}
	}
}

// TestValidatePolicySourceLine renders a Deployment an overlay patches to 7 replicas, with
// provenance: krm validate -m --policy names the patch's line of the field the policy's
// failed rule reads, then the object, the policy and binding and the server's message.
func TestValidatePolicySourceLine(t *testing.T) {
	ws := t.TempDir()
	policy, err := os.ReadFile("../validate/testdata/policy/replicas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	renderWithManifest(t, ws, map[string]string{
		"policies/replicas.yaml":  string(policy),
		"base/kustomization.yaml": "resources: [deployment.yaml]\n",
		"base/deployment.yaml":    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: registry.example.com/web:1}]\n",
		"prod/kustomization.yaml": "namespace: prod\nresources: [../base, namespace.yaml]\npatches: [{path: replicas.yaml}]\n",
		"prod/namespace.yaml":     "apiVersion: v1\nkind: Namespace\nmetadata: {name: prod, labels: {env: prod}}\n",
		"prod/replicas.yaml":      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 7\n",
	}, "prod")
	code, report, errOut := runCLI("validate", "manifests.yaml", "-m", "p.json", "--policy", "policies")
	want := "prod/replicas.yaml:5: Deployment/prod/web: spec.replicas: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-prod' denied request: replicas must be at most 5, not 7 (rendered at manifests.yaml:"
	if code != 1 || !strings.HasPrefix(report, want) || !strings.HasSuffix(report, "\n2 objects, 1 invalid\n") {
		t.Errorf("krm validate: exit %d, want 1:\n%s%s\nwant it to start:\n%s", code, report, errOut, want)
	}
}

// renderWithManifest writes files into the workspace ws, renders its kustomization dir with
// provenance into ws/manifests.yaml and ws/p.json, and makes ws the working directory.
func renderWithManifest(t *testing.T, ws string, files map[string]string, dir string) {
	t.Helper()
	for name, data := range files {
		bazeltest.WriteFile(t, filepath.Join(ws, name), data)
	}
	code, out, errOut := runCLI("build", filepath.Join(ws, dir), "--provenance", "--provenance-manifest", filepath.Join(ws, "p.json"), "--workspace-root", ws)
	if code != 0 {
		t.Fatalf("krm build: exit %d: %s", code, errOut)
	}
	bazeltest.WriteFile(t, filepath.Join(ws, "manifests.yaml"), out)
	t.Chdir(ws)
}

// TestValidateNativeSourceLine renders a Deployment whose overlay patches its template's
// labels away from its selector and adds a container of a taken name: krm validate -m names
// the patch's lines, then the object, the field and the API server's message.
func TestValidateNativeSourceLine(t *testing.T) {
	ws := t.TempDir()
	renderWithManifest(t, ws, map[string]string{
		"base/kustomization.yaml": "resources: [deployment.yaml]\n",
		"base/deployment.yaml":    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: web:1}]\n",
		"prod/kustomization.yaml": "resources: [../base]\npatches: [{path: patch.yaml}]\n",
		"prod/patch.yaml":         "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    metadata:\n      labels: {app: api}\n    spec:\n      initContainers:\n      - name: web\n        image: init:1\n",
	}, "prod")
	code, report, errOut := runCLI("validate", "manifests.yaml", "-m", "p.json")
	want := []string{
		"prod/patch.yaml:7: Deployment/web: spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels` (rendered at manifests.yaml:",
		"prod/patch.yaml:10: Deployment/web: spec.template.spec.initContainers[0].name: Duplicate value: \"web\" (rendered at manifests.yaml:",
		"1 objects, 1 invalid",
	}
	lines := strings.Split(strings.TrimSpace(report), "\n")
	if code != 1 || len(lines) != len(want) {
		t.Fatalf("krm validate: exit %d, want 1 and %d lines:\n%s%s", code, len(want), report, errOut)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d:\n%s\nwant it to start:\n%s", i+1, lines[i], w)
		}
	}
}
