package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFunctionExamples renders examples/functions without Bazel: the goldens
// that Bazel's krm_golden_test targets check (one render action per
// kustomization, bases from snapshots) must also be what krm prints in one
// go, and the :latest fixture must fail with the validator's message.
func TestFunctionExamples(t *testing.T) {
	examplesDir := exampleCopy(t, "functions")
	for _, name := range []string{"sidecar", "generator"} {
		code, out, stderr := runCLI("build", "--enable-alpha-plugins", filepath.Join(examplesDir, name))
		if code != 0 {
			t.Errorf("krm build %s: exit %d: %s", name, code, stderr)
			continue
		}
		golden(t, examplesDir, name, out)
	}

	code, _, stderr := runCLI("build", "--enable-alpha-plugins", filepath.Join(examplesDir, "latest"))
	want := "images must be pinned to a version (not :latest, not untagged): " +
		"Deployment shop/debug, container shell: busybox:latest; Deployment shop/debug, container setup: alpine"
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("krm build latest: exit %d, stderr %q; want exit 1 and %q", code, stderr, want)
	}
}

// TestExecFunctionExample renders examples/functions/exec with the set_team
// function declared with --function, as Bazel does.
func TestExecFunctionExample(t *testing.T) {
	examplesDir := exampleCopy(t, "functions")
	tmp := t.TempDir()
	exe := setTeam(t, tmp)
	dir := filepath.Join(examplesDir, "exec")
	manifests := filepath.Join(tmp, "exec.yaml")
	code, _, stderr := runCLI("render", dir, "--snapshot", filepath.Join(tmp, "exec.krmsnap"), "--manifests", manifests,
		"--hermetic", "--label", "//examples/functions:exec", "--dep", filepath.Join(dir, "..", "base")+"="+baseSnapshot(t, examplesDir, tmp),
		"--function", filepath.Join(dir, "fn", "set-team")+"="+exe)
	if code != 0 {
		t.Fatalf("krm render exec: exit %d: %s", code, stderr)
	}
	out, err := os.ReadFile(manifests)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, examplesDir, "exec", string(out))
}

// setTeam is the set_team function of examples/functions: under Bazel the
// go_binary, data of cli_test ($CLI_TEST_SET_TEAM, its path from the root of
// the runfiles, four levels up), else built by go build into dir.
func setTeam(t *testing.T, dir string) string {
	t.Helper()
	if rel := os.Getenv("CLI_TEST_SET_TEAM"); rel != "" {
		exe, err := filepath.Abs(filepath.Join("..", "..", "..", "..", rel))
		if err != nil {
			t.Fatal(err)
		}
		return exe
	}
	exe := filepath.Join(dir, "set_team")
	build := exec.Command("go", "build", "-o", exe, "./examples/functions/set_team")
	build.Dir = "../../../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build set_team: %v\n%s", err, out)
	}
	return exe
}

// baseSnapshot renders the base of examplesDir (a copy of examples/functions)
// into a snapshot under tmp, with origins: exec asks for them (buildMetadata).
func baseSnapshot(t *testing.T, examplesDir, tmp string) string {
	t.Helper()
	snap := filepath.Join(tmp, "base.krmsnap")
	if code, _, stderr := runCLI("render", filepath.Join(examplesDir, "base"), "--snapshot", snap, "--origins"); code != 0 {
		t.Fatalf("krm render base: exit %d: %s", code, stderr)
	}
	return snap
}

// golden compares got with examplesDir's NAME_manifests.golden.yaml.
func golden(t *testing.T, examplesDir, name, got string) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(examplesDir, name+"_manifests.golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s: krm's output differs from %s_manifests.golden.yaml:\n%s", name, name, got)
	}
}
