package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/secretdata/secrettest"
)

func TestDiffCommand(t *testing.T) {
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: "
	dir := tree(t, map[string]string{ // main_test.go
		"old.yaml": cm + "a\n", "same.yaml": cm + "a\n", "new.yaml": cm + "b\n", "bad.yaml": "kind: [\n",
	})
	old, same := filepath.Join(dir, "old.yaml"), filepath.Join(dir, "same.yaml")
	changed, bad := filepath.Join(dir, "new.yaml"), filepath.Join(dir, "bad.yaml")

	if code, out, stderr := runCLI("diff", old, same); code != 0 || out != "no differences\n" {
		t.Errorf("equal files: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, _ := runCLI("diff", old, changed)
	if want := "~ ConfigMap c\n-   data.k: \"a\"\n+   data.k: \"b\"\n1 changed in 1 file\n"; code != 1 || out != want {
		t.Errorf("changed: exit %d, stdout %q, want %q", code, out, want)
	}
	if _, out, _ := runCLI("diff", "--color=always", old, changed); !strings.Contains(out, "\x1b[33m~ ConfigMap c\x1b[0m") {
		t.Errorf("--color=always: no colour in %q", out)
	}
	// auto: stdout is no terminal here.
	if _, out, _ := runCLI("diff", old, changed); strings.Contains(out, "\x1b[") {
		t.Errorf("--color=auto coloured a buffer: %q", out)
	}
	code, out, _ = runCLI("diff", "-o", "json", old, changed)
	var r struct {
		Changed int
		Files   []struct {
			Objects []struct{ Fields []struct{ Path string } }
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 || r.Changed != 1 || r.Files[0].Objects[0].Fields[0].Path != "data.k" {
		t.Errorf("json: exit %d, %v, %s", code, err, out)
	}
	if code, out, _ := runCLI("diff", "--output", "markdown", old, changed); code != 1 || !strings.Contains(out, "<details>") {
		t.Errorf("markdown: exit %d, %s", code, out)
	}

	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{old, bad}, bad + ": malformed input"},
		{[]string{old, filepath.Join(dir, "missing.yaml")}, "missing.yaml"},
		{[]string{old, dir}, "two files or two directories"},
		{[]string{old}, "needs OLD and NEW"},
		{[]string{"-o", "yaml", old, changed}, `--output "yaml"`},
		{[]string{"--color", "sometimes", old, changed}, `--color "sometimes"`},
	} {
		code, _, stderr := runCLI(append([]string{"diff"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.msg) {
			t.Errorf("krm diff %q: exit %d, stderr %q, want 2 and %q", c.args, code, stderr, c.msg)
		}
	}
	if code, _, stderr := runCLI("help", "diff"); code != 0 || !strings.Contains(stderr, "Usage: krm diff OLD NEW") || !strings.Contains(stderr, "--max-bytes") {
		t.Errorf("help diff: exit %d, %q", code, stderr)
	}
}

// TestDiffHidesSecrets runs krm diff on the cases of internal/rdiff/testdata/secrets, each as
// two files in every output format, then all as two directories: no Secret value on stdout
// or stderr, and a refused input (exit 2) is named.
func TestDiffHidesSecrets(t *testing.T) {
	archives, err := filepath.Glob("../rdiff/testdata/secrets/*.txtar")
	if err != nil || len(archives) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	dir := t.TempDir()
	trees := [2]string{filepath.Join(dir, "old"), filepath.Join(dir, "new")}
	formats := [][]string{{"-o", "text"}, {"--color", "always"}, {"-o", "markdown"}, {"-o", "json"}}
	for _, a := range archives {
		name := strings.TrimSuffix(filepath.Base(a), ".txtar")
		cd := filepath.Join(dir, "cases", name)
		bazeltest.WriteTxtar(t, a, cd)
		pair := [2]string{filepath.Join(cd, "old.yaml"), filepath.Join(cd, "new.yaml")}
		refused := false
		for _, f := range formats {
			code, out, errOut := runCLI(append(append([]string{"diff"}, f...), pair[0], pair[1])...)
			refused = code == 2
			if (code != 1 && code != 2) || (refused && !strings.Contains(errOut, pair[0])) {
				t.Errorf("krm diff %s (%s): exit %d, stderr %q", f, name, code, errOut)
			}
			secrettest.NoLeak(t, fmt.Sprintf("krm diff %s (%s)", f, name), out+errOut)
		}
		for i := 0; i < 2 && !refused; i++ {
			if err := os.MkdirAll(trees[i], 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(pair[i], filepath.Join(trees[i], name+".yaml")); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, f := range formats {
		code, out, errOut := runCLI(append(append([]string{"diff"}, f...), trees[0], trees[1])...)
		if code != 1 {
			t.Errorf("krm diff %s on two trees: exit %d, stderr %q", f, code, errOut)
		}
		secrettest.NoLeak(t, fmt.Sprintf("krm diff %s on two trees", f), out+errOut)
	}
}
