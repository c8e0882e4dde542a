package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// TestRenderFunctionProvenance checks that under provenance a declared
// executable counts as the exec path's content: rebuilding the function
// changes the inputs digest of the object it changed, and the manifest
// lists the executable with its hash.
func TestRenderFunctionProvenance(t *testing.T) {
	dir := tree(t, fnApp)
	exe := filepath.Join(dir, "bin", "set_team")
	if err := os.Chmod(exe, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	render := func() (manifests, provenance string) {
		t.Helper()
		out, man := filepath.Join(dir, "app.yaml"), filepath.Join(dir, "app.provenance.json")
		code, _, stderr := runCLI("render", "app", "--snapshot", filepath.Join(dir, "app.krmsnap"), "--manifests", out,
			"--hermetic", "--label", "//app:app", "--function", "app/fn/set-team=bin/set_team", "--provenance-manifest", man)
		if code != 0 {
			t.Fatalf("render: exit %d, stderr %q", code, stderr)
		}
		m, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		p, err := os.ReadFile(man)
		if err != nil {
			t.Fatal(err)
		}
		return string(m), string(p)
	}
	digest := func(manifests string) string {
		for _, line := range strings.Split(manifests, "\n") {
			if strings.Contains(line, "inputs-digest:") {
				return line
			}
		}
		t.Fatalf("no inputs-digest annotation in\n%s", manifests)
		return ""
	}
	before, man := render()
	if !strings.Contains(man, `"bin/set_team"`) {
		t.Errorf("the provenance manifest does not list the executable bin/set_team:\n%s", man)
	}
	// The same behaviour, other bytes: a rebuilt function.
	f, err := os.OpenFile(exe, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("# rebuilt\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	after, _ := render()
	if digest(before) == digest(after) {
		t.Errorf("the inputs digest did not change when the declared executable did: %s", digest(after))
	}
}
