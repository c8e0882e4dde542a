package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
)

func TestSameGraph(t *testing.T) {
	edit := Changes{Files: []string{"//app/base:kustomization.yaml"}}
	for _, tc := range []struct {
		name       string
		base, head Changes
		want       bool
	}{
		{"files edited on both sides", edit, edit, true},
		{"nothing in the graph", Changes{Ignored: []string{"README.md"}}, Changes{Ignored: []string{"README.md"}}, true},
		{"a new file", edit, Changes{Files: []string{"//app/base:kustomization.yaml", "//app/base:new.yaml"}}, false},
		{"a deleted file", Changes{Files: []string{"//app/base:gone.yaml"}}, Changes{}, false},
		{"a BUILD file", Changes{Packages: []string{"//app:*"}}, Changes{Packages: []string{"//app:*"}}, false},
		{"a .bzl file", Changes{Bzl: []string{"m.bzl"}}, Changes{Bzl: []string{"m.bzl"}}, false},
		{"MODULE.bazel", Changes{All: true}, Changes{All: true}, false},
		{"a file that left its package", edit, Changes{Files: []string{"//app:base/kustomization.yaml"}}, false},
	} {
		if got := sameGraph(tc.base, tc.head); got != tc.want {
			t.Errorf("%s: sameGraph = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestMarkdownLabelsEscaped: a target name (Bazel allows `<`, `>`, `|` and more in one)
// stays inside its code span in the comment's list: it cannot close the <details>.
func TestMarkdownLabelsEscaped(t *testing.T) {
	labels := []string{"//a:x`</details><script>alert(1)</script>", "//b:y\x1b]0;t\x07"}
	r := &Result{Affected: labels, HeadTargets: labels, Diff: &rdiff.Report{}}
	var b strings.Builder
	if err := r.WriteMarkdown(&b, 60000); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "- ") && !strings.HasPrefix(l, "- `") {
			t.Errorf("list line %q does not start with a code span", l)
		}
	}
	if strings.ContainsAny(md, "\x1b\x07") {
		t.Errorf("a raw control character in the comment:\n%q", md)
	}
	if !strings.Contains(md, "- ``//a:x`</details><script>alert(1)</script>`` (new)\n- `//b:y\\x1b]0;t\\x07` (new)\n") {
		t.Errorf("the label is not one code span:\n%s", md)
	}
}

// TestLogEscapesFileNames: a changed file's name (git allows any byte but NUL and '/') is
// logged with its terminal controls shown as escapes.
func TestLogEscapesFileNames(t *testing.T) {
	top := scratchRepo(t, map[string]string{"MODULE.bazel": "module(name = \"ws\")\n"})
	writeFiles(t, top, map[string]string{"x\x1b]0;owned\x07.txt": "x"})
	commit(t, top, "change")
	var log strings.Builder
	// Bazel is not needed to get there (and none runs: the log is what is checked).
	_, _ = Run(Options{Base: "HEAD~1", Workspace: top, Bazel: filepath.Join(t.TempDir(), "no-bazel")}, &log)
	if strings.ContainsAny(log.String(), "\x1b\x07") || !strings.Contains(log.String(), `x\x1b]0;owned\x07.txt is in no package`) {
		t.Errorf("the log:\n%q", log.String())
	}
}
