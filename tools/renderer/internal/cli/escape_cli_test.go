package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMessagesEscaped: a command's messages quote its inputs (here a file name) with their
// terminal controls shown as escapes; build's output and errors are kustomize's, untouched.
func TestMessagesEscaped(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "m\x1b]0;owned\x07\x1b[2J.yaml")
	for _, args := range [][]string{
		{"validate", bad},
		{"diff", bad, bad},
		{"trace", "ConfigMap/x", "--provenance-manifest", bad},
		{"apply", bad, "--kubeconfig", bad},
		{"delete", bad, "--kubeconfig", bad},
		{"publish", "prod=" + bad, "--repo", bad, "--branch", "b", "--source-commit", strings.Repeat("a", 40)},
	} {
		code, stdout, stderr := runCLI(args...)
		if code == 0 {
			t.Errorf("%s: exit 0", args[0])
		}
		if strings.ContainsAny(stdout+stderr, "\x1b\x07") {
			t.Errorf("%s: a raw control character:\n%q\n%q", args[0], stdout, stderr)
		}
		if !strings.Contains(stderr, `m\x1b]0;owned\x07\x1b[2J.yaml`) {
			t.Errorf("%s: the name is not shown escaped:\n%s", args[0], stderr)
		}
	}
}
