package cli

import (
	"path/filepath"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

// exampleCopy copies examples/NAME of the repository into a new temporary
// directory and returns the copy. Under Bazel the example is data of cli_test
// (//examples/NAME:files), its files links out of the runfiles tree, which
// krm build, as kustomize, refuses to follow; the copy holds the files
// themselves. Without the example the test fails: it never skips.
func exampleCopy(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := bazeltest.CopyResolved(filepath.Join("..", "..", "..", "..", "examples", name), dir); err != nil {
		t.Fatalf("examples/%s: %v (under Bazel: //examples/%s:files in data of cli_test)", name, err, name)
	}
	return dir
}
