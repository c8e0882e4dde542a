package rdiff

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
)

// hostile are names and values that try to leave the structure around them: Markdown and
// HTML that would close the comment's code, table or <details>, and terminal controls.
var hostile = []string{
	"</details><script>alert(1)</script>",
	"a|b|c",
	"x```\n# heading\n```",
	"`code`",
	"esc\x1b[2J\x1b]0;title\x07",
	"line\n\n<details><summary>fake</summary>",
	"csi\u009b31m",
	"bidi\u202eevil",
	"cr\rover",
}

// TestHostileNamesEscaped: names of files and objects and values from the cases above reach
// no output raw: text has no control character but its own colours and newlines, and the
// Markdown keeps its structure (every line outside a code block is one of the lines
// WriteMarkdown writes; no code block is closed early: CommonMark closes one by a line of at least as many
// backticks, indented by at most three spaces).
func TestHostileNamesEscaped(t *testing.T) {
	old, new := t.TempDir(), t.TempDir()
	for i, h := range hostile {
		name := strings.NewReplacer("/", "_", "\n", "_").Replace(h)
		if i%2 == 0 {
			name = h // file names may hold anything but '/' and NUL
			if strings.Contains(h, "/") {
				name = strings.ReplaceAll(h, "/", "_")
			}
		}
		file := filepath.Base(name) + ".yaml"
		obj := func(v string) string {
			return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + krmtest.Quote(h) + "\ndata:\n  " + krmtest.Quote(h) + ": " + krmtest.Quote(v) + "\n  multi: " + krmtest.Quote(h+"\n"+v+"\n") + "\n"
		}
		if err := os.WriteFile(filepath.Join(old, file), []byte(obj("old")), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(new, file), []byte(obj(h)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Paths(old, new)
	if err != nil {
		t.Fatal(err)
	}
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		if err := r.WriteText(&b, color); err != nil {
			t.Fatal(err)
		}
		out := regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllString(b.String(), "")
		if strings.ContainsAny(out, "\x1b\r\x07\u009b\u202e") {
			t.Errorf("text (colour %v) has a raw control character:\n%q", color, out)
		}
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if l == "" || !strings.ContainsAny(l[:1], "=+-~ 0123456789") {
				t.Errorf("text (colour %v): line %q starts as no line of the report does", color, l)
			}
		}
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md, 1<<20); err != nil {
		t.Fatal(err)
	}
	checkMarkdown(t, md.String())
}

// checkMarkdown fails unless every line of md outside fenced code is a line of the comment's
// structure, with no HTML but its own tags and no more table cells than the table has.
func checkMarkdown(t *testing.T, md string) {
	t.Helper()
	if strings.ContainsAny(md, "\x1b\r\x07\u009b\u202e") {
		t.Errorf("Markdown has a raw control character:\n%s", md)
	}
	ownTags := regexp.MustCompile(`</?(details|summary|code)>`)
	fence := ""
	for i, l := range strings.Split(md, "\n") {
		if fence != "" {
			if l == fence {
				fence = ""
			} else if tl := strings.TrimLeft(l, " "); len(l)-len(tl) <= 3 && strings.HasPrefix(tl, fence) && strings.Trim(tl, "` ") == "" {
				t.Errorf("line %d: %q closes the code block (fence %s)", i+1, l, fence)
			}
			continue
		}
		switch {
		case l == "", strings.HasPrefix(l, "### krm diff: "), l == "</details>", strings.HasPrefix(l, "> The diff is longer"):
		case strings.HasPrefix(l, "```") && strings.HasSuffix(l, "diff"):
			fence = strings.TrimSuffix(l, "diff")
		case strings.HasPrefix(l, "|"):
			if n := len(regexp.MustCompile(`(^|[^\\])\|`).FindAllString(l, -1)); n != 5 {
				t.Errorf("line %d: table row %q has %d cell separators, want 5", i+1, l, n)
			}
		case strings.HasPrefix(l, "<details><summary>") && strings.HasSuffix(l, "</summary>"):
			if rest := ownTags.ReplaceAllString(l, ""); strings.ContainsAny(rest, "<>`") {
				t.Errorf("line %d: summary %q holds markup besides its own", i+1, l)
			}
		default:
			t.Errorf("line %d: %q is no line of the comment's structure", i+1, l)
		}
	}
	if fence != "" {
		t.Errorf("a code block is not closed:\n%s", md)
	}
}
