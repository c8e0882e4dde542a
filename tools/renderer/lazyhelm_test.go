package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
	"github.com/rules-krm/rules_krm/dev/testing/hostile"
	"github.com/rules-krm/rules_krm/dev/testing/kubeconfig"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/handoff"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/worker"
)

// The helper's file name and the variable naming another path: documented names.
const helperPathEnv = "KRM_HELM"

// The documented names are the ones package handoff uses.
func TestHelperNames(t *testing.T) {
	if handoff.HelperName != helperFile || handoff.HelperEnv != helperPathEnv {
		t.Errorf("handoff looks for %s and %s, documented: %s and %s", handoff.HelperName, handoff.HelperEnv, helperFile, helperPathEnv)
	}
}

// helmExample is a copy of examples/helm, the chart example, and its golden (kustomize's
// output): a copy, because under Bazel the files are links out of the tree, which the load
// restrictor refuses.
func helmExample(t *testing.T) (dir, golden string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "helm")
	if err := bazeltest.CopyResolved("../../examples/helm", dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "helm_manifests.golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, string(data)
}

// Installed in one step, the default build renders a chart in krm_helm, byte-identical to
// what krm_helm prints alone and to the checked-in golden (kustomize's output), and so does a
// persistent worker asked for it; a build without a chart needs no helper.
func TestDefaultRendersChartsInHelper(t *testing.T) {
	dir := installed(t)
	krm, full := filepath.Join(dir, defaultFile), filepath.Join(dir, helperFile)
	example, golden := helmExample(t)
	for _, bin := range []string{krm, full} {
		stdout, stderr, code := runKRM(t, nil, bin, "build", "--enable-helm", example)
		if code != 0 || stdout != golden || stderr != "" {
			t.Errorf("%s build --enable-helm examples/helm: exit %d, stderr %q, stdout equals the golden: %v", filepath.Base(bin), code, stderr, stdout == golden)
		}
	}

	var stdin bytes.Buffer
	if err := worker.WriteRequest(&stdin, 7, "build", "--enable-helm", example); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(krm, worker.Flag)
	cmd.Stdin = &stdin
	var werr bytes.Buffer
	cmd.Stderr = &werr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("worker: %v\n%s", err, werr.String())
	}
	resp, err := worker.ReadResponse(bufio.NewReader(bytes.NewReader(out)))
	if err != nil && err != io.EOF {
		t.Fatal(err)
	}
	if resp.ID != 7 || resp.ExitCode != 0 || resp.Output != golden {
		t.Errorf("worker response %d, exit %d, output equals the golden: %v\n%s", resp.ID, resp.ExitCode, resp.Output == golden, resp.Output)
	}
}

// Installed in one step, the default build runs a command talking to a cluster in krm_helm:
// it reaches the API server and prints what krm_helm prints.
func TestDefaultRunsClusterCommandsInHelper(t *testing.T) {
	dir := installed(t)
	api := hostile.KubeAPI(hostile.New(t), "ConfigMap", "configmaps", "default", "cm")
	work := t.TempDir()
	kc, manifests := filepath.Join(work, "kubeconfig"), filepath.Join(work, "m.yaml")
	if err := kubeconfig.Write(kc, "test", kubeconfig.Context{Name: "test", Server: api.URL, User: kubeconfig.User{Token: "t"}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifests, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: default\ndata:\n  k: v\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"diff", "--cluster", manifests, "--kubeconfig", kc, "--context", "test"}
	wantOut, wantErr, wantCode := runKRM(t, nil, filepath.Join(dir, helperFile), args...)
	if n := len(api.Requests()); n == 0 || wantCode == 2 {
		t.Fatalf("krm_helm diff --cluster: exit %d, %d requests\n%s%s", wantCode, n, wantOut, wantErr)
	}
	before := len(api.Requests())
	stdout, stderr, code := runKRM(t, nil, filepath.Join(dir, defaultFile), args...)
	if stdout != wantOut || stderr != wantErr || code != wantCode || len(api.Requests()) != 2*before {
		t.Errorf("krm diff --cluster: exit %d (krm_helm: %d), %d requests (krm_helm: %d)\nstdout:\n%s\nstderr:\n%s\nkrm_helm's stdout:\n%s\nstderr:\n%s",
			code, wantCode, len(api.Requests())-before, before, stdout, stderr, wantOut, wantErr)
	}
}

// Without krm_helm beside it nor on PATH, a build without a chart works; one with a chart
// fails saying where the helper should be and how to build it, and so does a worker; on PATH,
// the helper is found there; a krm without Helm named as the helper fails instead of running
// itself again and again.
func TestDefaultWithoutHelper(t *testing.T) {
	dir := installed(t)
	alone := filepath.Join(t.TempDir(), defaultFile)
	if err := copyFile(filepath.Join(dir, defaultFile), alone); err != nil {
		t.Fatal(err)
	}
	noPath := []string{"PATH=" + t.TempDir()}
	tree := t.TempDir()
	for name, data := range map[string]string{
		"kustomization.yaml": "resources:\n- cm.yaml\n",
		"cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n",
	} {
		if err := os.WriteFile(filepath.Join(tree, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if stdout, stderr, code := runKRM(t, noPath, alone, "build", tree); code != 0 || !strings.Contains(stdout, "name: cm") {
		t.Errorf("build without a chart: exit %d\n%s%s", code, stdout, stderr)
	}
	example, golden := helmExample(t)
	missing := filepath.Join(filepath.Dir(alone), helperFile)
	for _, args := range [][]string{{"build", "--enable-helm", example}, {worker.Flag}} {
		_, stderr, code := runKRM(t, noPath, alone, args...)
		if code != 1 || !strings.Contains(stderr, "which is neither at "+missing+" nor on PATH: ") ||
			!strings.Contains(stderr, "go build -o "+missing+" ./tools/renderer/krm_helm") {
			t.Errorf("krm %s without %s: exit %d, stderr:\n%s", args[0], helperFile, code, stderr)
		}
	}
	if stdout, stderr, code := runKRM(t, []string{"PATH=" + dir}, alone, "build", "--enable-helm", example); code != 0 || stdout != golden {
		t.Errorf("with %s on PATH: exit %d, stdout equals the golden: %v\n%s", helperFile, code, stdout == golden, stderr)
	}
	other := filepath.Join(dir, defaultFile)
	_, stderr, code := runKRM(t, []string{helperPathEnv + "=" + other}, alone, "build", "--enable-helm", example)
	if code != 1 || !strings.Contains(stderr, "a helm chart needs Helm, and "+other+", run for it, has none") {
		t.Errorf("with %s naming a krm without Helm: exit %d, stderr:\n%s", helperPathEnv, code, stderr)
	}
}

// Installed in one step, the default build validates CRDs and their custom resources in
// krm_helm (the API server's code is linked there only): a file, and a pipe, which it hands
// over before reading it; the lean renderer checks them without the rules and says so.
func TestDefaultValidatesCRDsInHelper(t *testing.T) {
	dir := installed(t)
	crd, err := os.ReadFile("internal/crdcheck/testdata/gizmo-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crdWithRule := string(crd) + "---\napiVersion: example.com/v1\nkind: Gizmo\nmetadata: {name: g}\nspec: {size: 3, owner: bob}\n"
	f := filepath.Join(t.TempDir(), "gizmo.yaml")
	if err := os.WriteFile(f, []byte(crdWithRule), 0o644); err != nil {
		t.Fatal(err)
	}
	const rule = "Gizmo/g: spec: Forbidden: owner bob must start with team-"
	wantOut, wantErr, wantCode := runKRM(t, nil, filepath.Join(dir, helperFile), "validate", f)
	if wantCode != 1 || !strings.Contains(wantOut, rule) {
		t.Fatalf("krm_helm validate: exit %d\n%s%s", wantCode, wantOut, wantErr)
	}
	stdout, stderr, code := runKRM(t, nil, filepath.Join(dir, defaultFile), "validate", f)
	if stdout != wantOut || stderr != wantErr || code != wantCode {
		t.Errorf("krm validate: exit %d (krm_helm: %d)\nstdout:\n%s\nstderr:\n%s\nkrm_helm's stdout:\n%s", code, wantCode, stdout, stderr, wantOut)
	}
	cmd := exec.Command(filepath.Join(dir, defaultFile), "validate", "/dev/stdin")
	cmd.Stdin = strings.NewReader(crdWithRule)
	out, _ := cmd.Output()
	if want := strings.ReplaceAll(wantOut, f, "/dev/stdin"); string(out) != want {
		t.Errorf("krm validate of a pipe:\n%s\nwant:\n%s", out, want)
	}
	stdout, _, code = runKRM(t, nil, filepath.Join(dir, leanFile), "validate", f)
	if code != 0 || strings.Contains(stdout, rule) || !strings.Contains(stdout, "note: CustomResourceDefinitions: value validations and CEL rules (x-kubernetes-validations) are not checked") {
		t.Errorf("krm_nohelm validate: exit %d\n%s", code, stdout)
	}
	// Without the helper: the error says what to install.
	alone := filepath.Join(t.TempDir(), defaultFile)
	if err := copyFile(filepath.Join(dir, defaultFile), alone); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runKRM(t, []string{"PATH=" + t.TempDir()}, alone, "validate", f)
	if code != 2 || !strings.Contains(stderr, "checking CustomResourceDefinitions and their custom resources needs krm_helm, the full renderer") {
		t.Errorf("krm validate without %s: exit %d, stderr:\n%s", helperFile, code, stderr)
	}
}

// Installed in one step, the default build evaluates ValidatingAdmissionPolicies in krm_helm,
// given with --policy (handed over before anything is read) or among the objects; the lean
// renderer refuses --policy and notes the others as not evaluated.
func TestDefaultEvaluatesPoliciesInHelper(t *testing.T) {
	dir := installed(t)
	const (
		policy  = "internal/validate/testdata/policy/replicas.yaml"
		objects = "internal/validate/testdata/policy/objects.yaml"
		denied  = "Deployment/prod/web: spec.replicas: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-prod' denied request: replicas must be at most 5, not 7"
	)
	for _, args := range [][]string{{"validate", "--policy", policy, objects}, {"validate", policy, objects}} {
		wantOut, wantErr, wantCode := runKRM(t, nil, filepath.Join(dir, helperFile), args...)
		if wantCode != 1 || !strings.Contains(wantOut, denied) {
			t.Fatalf("krm_helm %s: exit %d\n%s%s", strings.Join(args, " "), wantCode, wantOut, wantErr)
		}
		stdout, stderr, code := runKRM(t, nil, filepath.Join(dir, defaultFile), args...)
		if stdout != wantOut || stderr != wantErr || code != wantCode {
			t.Errorf("krm %s: exit %d (krm_helm: %d)\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, wantCode, stdout, stderr)
		}
	}
	_, stderr, code := runKRM(t, nil, filepath.Join(dir, leanFile), "validate", "--policy", policy, objects)
	if code != 2 || !strings.Contains(stderr, "Error: --policy: ValidatingAdmissionPolicies are not evaluated: this krm links no API server code") {
		t.Errorf("krm_nohelm validate --policy: exit %d\n%s", code, stderr)
	}
	stdout, _, code := runKRM(t, nil, filepath.Join(dir, leanFile), "validate", policy, objects)
	if code != 0 || !strings.Contains(stdout, "note: ValidatingAdmissionPolicies: ValidatingAdmissionPolicies are not evaluated") {
		t.Errorf("krm_nohelm validate: exit %d\n%s", code, stdout)
	}
}
