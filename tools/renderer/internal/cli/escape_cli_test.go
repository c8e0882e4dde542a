package cli

import (
	"bytes"
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

// TestValidateStdin: krm validate - reads stdin, as apply and trace do, and names it stdin.
func TestValidateStdin(t *testing.T) {
	var out, errs bytes.Buffer
	in := strings.NewReader("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: [1]}\n")
	code := run([]string{"validate", "-"}, streams{stdin: in, stdout: &out, stderr: &errs})
	if code != 1 || !strings.Contains(out.String(), "stdin:4: ConfigMap/c: data[k]: Invalid value") {
		t.Errorf("exit %d, want 1 and the error at stdin:4:\n%s%s", code, out.String(), errs.String())
	}
}
