package repocheck

// The walk over every file git tracks needs the checkout: the whole repository and its
// .git, which no Bazel sandbox has (a test's data is the files its target names, and no
// target can name every file of the repository). So this file is left out of
// :repocheck_test (gazelle:exclude in BUILD.bazel) and runs under go test only:
// dev/scripts/test.sh runs it in its `go test ./...`. It fails, never skips, without git or
// outside a checkout.

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoBuildOutputsTracked checks every file git tracks (check).
func TestNoBuildOutputsTracked(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("the test needs git on PATH: %v", err)
	}
	root, err := exec.Command(git, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("not in a git checkout (run go test ./dev/repocheck in a clone): %v", err)
	}
	dir := strings.TrimSpace(string(root))
	out, err := exec.Command(git, "-C", dir, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	files := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(files) < 100 {
		t.Fatalf("git ls-files listed %d files: not the rules_krm tree?", len(files))
	}
	for _, f := range files {
		problem := check(filepath.Join(dir, f), f)
		if problem != "" {
			t.Errorf("%s: %s", f, problem)
		}
	}
}
