//go:build apiserver

package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/apiserver"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/cluster"
)

// The commands end to end against a server of the test's own: the context guard, apply with
// an ApplySet, diff --cluster, prune, delete, and their exit statuses.
func TestClusterCommands(t *testing.T) {
	s := apiserver.Start(t)
	if err := s.CreateNamespace(t.Context(), "cli"); err != nil {
		t.Fatal(err)
	}
	t.Setenv(cluster.AllowedContextsEnv, "")
	dir := t.TempDir()
	write := func(name, content string) string { return writeTemp(t, dir, name, content) }
	cm := func(name, value string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  namespace: cli\ndata:\n  k: " + value + "\n---\n"
	}
	v1 := write("v1.yaml", cm("a", "one")+cm("b", "one"))
	v2 := write("v2.yaml", cm("a", "two"))
	kc := "--kubeconfig=" + s.Kubeconfig
	krm := func(want int, args ...string) (string, string) {
		t.Helper()
		code, stdout, stderr := runCLI(args...)
		if code != want {
			t.Fatalf("krm %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, stdout, stderr)
		}
		return stdout, stderr
	}

	_, errOut := krm(2, "apply", kc, "--applyset", "cli-set", "--applyset-namespace", "cli", v1)
	if !strings.Contains(errOut, `name the cluster with --context (the kubeconfig's current context is "admin")`) {
		t.Errorf("apply without --context: %s", errOut)
	}
	_, errOut = krm(2, "apply", kc, "--allowed-context", "staging", "--context", "admin", v1)
	if !strings.Contains(errOut, `context "admin" is not in the allowed contexts (staging)`) {
		t.Errorf("apply outside the allow-list: %s", errOut)
	}
	out, _ := krm(0, "apply", kc, "--context", "admin", "--applyset", "cli-set", "--applyset-namespace", "cli", v1)
	if out != "ConfigMap cli/a created\nConfigMap cli/b created\n" {
		t.Errorf("apply:\n%s", out)
	}
	t.Setenv(cluster.AllowedContextsEnv, "admin")
	out, _ = krm(1, "diff", "--cluster", kc, "--applyset", "cli-set", "--applyset-namespace", "cli", "--color", "never", v2)
	want := `~ ConfigMap cli/a
-   data.k: "one"
+   data.k: "two"
- ConfigMap cli/b
`
	if !strings.Contains(out, want) {
		t.Errorf("diff --cluster:\n%s\nwant it to hold:\n%s", out, want)
	}
	out, _ = krm(0, "apply", kc, "--prune", "--applyset", "cli-set", "--applyset-namespace", "cli", v2)
	if out != "ConfigMap cli/a configured\nConfigMap cli/b pruned\n" {
		t.Errorf("apply --prune:\n%s", out)
	}
	krm(0, "diff", "--cluster", kc, "--applyset", "cli-set", "--applyset-namespace", "cli", v2)
	_, errOut = krm(1, "apply", kc, "--context", apiserver.LimitedContext, "--allowed-context", apiserver.LimitedContext, v1)
	if !strings.Contains(errOut, `may not patch "configmaps" in namespace "cli"`) || !strings.Contains(errOut, "0 of 2 objects applied, 2 failed") {
		t.Errorf("apply as the limited user: %s", errOut)
	}
	out, _ = krm(0, "delete", kc, "--applyset", "cli-set", "--applyset-namespace", "cli", v1)
	if out != "ConfigMap cli/b not found\nConfigMap cli/a deleted\nSecret cli/cli-set deleted\n" { // ConfigMaps have no generation: no record
		t.Errorf("delete:\n%s", out)
	}
	_, errOut = krm(2, "apply", kc, "--prune", v1)
	if !strings.Contains(errOut, "--prune needs --applyset") {
		t.Errorf("--prune alone: %s", errOut)
	}
}

// A real tree: kuberay's default config (four large CRDs, RBAC, the operator's Deployment),
// rendered by krm build, with a custom resource of one of its CRDs. Apply creates all of it
// (server-side: the CRDs are far over client-side apply's 262144-byte annotation limit),
// diff --cluster then finds every object as rendered, and a second apply changes nothing.
func TestClusterCommandsRealTree(t *testing.T) {
	s := apiserver.Start(t)
	if err := s.CreateNamespace(t.Context(), "ray-system"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rendered := filepath.Join(dir, "kuberay.yaml")
	if code, _, errOut := runCLI("build", "../../../../dev/bench/real/kuberay/config/default", "-o", rendered); code != 0 {
		t.Fatalf("krm build kuberay: exit %d\n%s", code, errOut)
	}
	cr := writeTemp(t, dir, "raycluster.yaml", `apiVersion: ray.io/v1
kind: RayCluster
metadata:
  name: mini
  namespace: ray-system
spec:
  headGroupSpec:
    rayStartParams: {}
    template:
      spec:
        containers:
        - name: ray-head
          image: rayproject/ray:2.9.0
`)
	kc := "--kubeconfig=" + s.Kubeconfig
	set := []string{kc, "--context", "admin", "--applyset", "kuberay", "--applyset-namespace", "ray-system"}
	krm := func(want int, args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(args...)
		if code != want {
			t.Fatalf("krm %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, stdout, stderr)
		}
		return stdout
	}
	out := krm(0, append(append([]string{"apply"}, set...), rendered, cr)...)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 12 {
		t.Errorf("apply reported %d objects, want 11 rendered and the RayCluster:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if !strings.HasSuffix(l, " created") {
			t.Errorf("first apply: %q, want created", l)
		}
	}
	if !strings.HasPrefix(lines[0], "CustomResourceDefinition.apiextensions.k8s.io ") || !strings.HasPrefix(lines[len(lines)-1], "RayCluster.ray.io ray-system/mini ") {
		t.Errorf("CRDs first, their custom resource after them:\n%s", out)
	}
	krm(0, append(append([]string{"diff", "--cluster", "--color", "never"}, set...), rendered, cr)...)
	out = krm(0, append(append([]string{"apply"}, set...), rendered, cr)...)
	if strings.Count(out, " unchanged\n") != len(lines) {
		t.Errorf("second apply changed something:\n%s", out)
	}
}
