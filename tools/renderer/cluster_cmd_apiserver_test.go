//go:build apiserver

package main

import (
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/cluster"
	"github.com/rules-krm/rules_krm/tools/testing/apiserver"
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
	if out != "ConfigMap cli/b not found\nConfigMap cli/a deleted\nSecret cli/cli-set deleted\n" {
		t.Errorf("delete:\n%s", out)
	}
	_, errOut = krm(2, "apply", kc, "--prune", v1)
	if !strings.Contains(errOut, "--prune needs --applyset") {
		t.Errorf("--prune alone: %s", errOut)
	}
}
