package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/execfn"
)

// fnApp is a kustomization with an exec transformer at ./fn/set-team, which
// does not exist in the tree: the executable is declared with --function.
var fnApp = map[string]string{
	"app/kustomization.yaml": "resources:\n- cm.yaml\ntransformers:\n- team.yaml\n",
	"app/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n",
	"app/team.yaml": `apiVersion: example.com/v1
kind: SetTeam
metadata:
  name: team
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ./fn/set-team
`,
	// Adds labels: {team: a} to the ConfigMap of the ResourceList krm writes.
	"bin/set_team": "#!/bin/sh\nexec sed -e 's/^\\(    \\)name: cm$/\\1name: cm\\n\\1labels: {team: a}/'\n",
}

func TestRenderFunctionFlag(t *testing.T) {
	t.Cleanup(func() { _ = execfn.Declare(nil) })
	dir := tree(t, fnApp)
	if err := os.Chmod(filepath.Join(dir, "bin", "set_team"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	snap := filepath.Join(dir, "app.krmsnap")
	manifests := filepath.Join(dir, "app.yaml")

	// Declared: the executable runs (paths relative to the working directory, as under Bazel).
	code, _, stderr := runCLI("render", "app", "--snapshot", snap, "--manifests", manifests,
		"--hermetic", "--label", "//app:app", "--function", "app/fn/set-team=bin/set_team")
	if code != 0 {
		t.Fatalf("render: exit %d, stderr %q", code, stderr)
	}
	if m, err := os.ReadFile(manifests); err != nil || !strings.Contains(string(m), "team: a") {
		t.Errorf("manifests = %q, %v", m, err)
	}

	// Hermetic and undeclared: an error naming the path and the attribute.
	code, _, stderr = runCLI("render", "app", "--snapshot", snap, "--hermetic", "--label", "//app:app")
	for _, want := range []string{`exec path "./fn/set-team" (app/fn/set-team) is not a declared function`, "functions attribute of //app:app"} {
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("undeclared: exit %d, stderr %q; want %q", code, stderr, want)
		}
	}

	// Not hermetic and undeclared: the path is a file of the kustomization (missing here).
	code, _, stderr = runCLI("render", "app", "--snapshot", snap)
	if code != 1 || !strings.Contains(stderr, "fn/set-team' doesn't exist") {
		t.Errorf("not hermetic: exit %d, stderr %q", code, stderr)
	}

	// Usage errors.
	for _, f := range []string{"app/fn/set-team", "=bin/set_team", "app/fn/set-team="} {
		code, _, stderr = runCLI("render", "app", "--snapshot", snap, "--function", f)
		if code != 2 || !strings.Contains(stderr, "want PATH=EXECUTABLE") {
			t.Errorf("--function %q: exit %d, stderr %q", f, code, stderr)
		}
	}
	code, _, stderr = runCLI("render", "app", "--snapshot", snap, "--function", "a=b", "--function", "a=c")
	if code != 2 || !strings.Contains(stderr, "given twice") {
		t.Errorf("twice: exit %d, stderr %q", code, stderr)
	}
}
