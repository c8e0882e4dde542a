//go:build bazel

package integration

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	return bazeltest.ReadFile(t, path)
}

// kustomizeBuild is `kustomize build DIR` of kustomize v5.8.2; the test fails if it does.
func kustomizeBuild(t *testing.T, root, dir string) string {
	t.Helper()
	out, err, ok := tryKustomizeBuild(t, root, "", dir)
	if !ok {
		t.Fatalf("kustomize build %s: %s", dir, err)
	}
	return out
}

// tryKustomizeBuild is `kustomize build DIR` run in cwd (empty: the test's): its output,
// or its error and false.
func tryKustomizeBuild(t *testing.T, root, cwd, dir string) (string, string, bool) {
	t.Helper()
	cmd := exec.Command(bazeltest.Kustomize(t, root), "build", dir)
	cmd.Dir = cwd
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Sprintf("%v: %s", err, stderr.String()), false
	}
	return string(out), "", true
}

// lineDiff shows the first lines where got differs from want.
func lineDiff(want, got string) string { return bazeltest.FirstDifference(want, got) }

// scratchCopy makes a copy of the repository (the source tree is never edited) in the
// test directory name, kept between runs with its output bases: the repository root, the
// test directory, the copy, and a value new on every run (so that no cache holds the
// actions of what the test writes with it).
func scratchCopy(t *testing.T, name string) (root, dir, ws, nonce string) {
	t.Helper()
	root = bazeltest.Root(t)
	dir = bazeltest.TestDir(t, name)
	ws = filepath.Join(dir, "ws")
	bazeltest.CopyRepo(t, root, ws)
	return root, dir, ws, strconv.FormatInt(time.Now().UnixNano(), 10)
}
