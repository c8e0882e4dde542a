package rdiff

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/secretdata/secrettest"
)

// secretCase is a case of testdata/secrets: a txtar archive of old.yaml and new.yaml whose
// comment says what the text output must show ("want: LINE"), must not ("absent: TEXT"),
// or that comparing them fails ("error: TEXT").
type secretCase struct {
	name, old, new       string
	want, absent, errors []string
}

// secretCases writes the cases of testdata/secrets below t's temporary directory.
func secretCases(t *testing.T) []secretCase {
	t.Helper()
	files, err := filepath.Glob("testdata/secrets/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in testdata/secrets: %v", err)
	}
	var cases []secretCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(f), ".txtar"))
		bazeltest.WriteTxtar(t, f, dir)
		c := secretCase{name: filepath.Base(dir), old: filepath.Join(dir, "old.yaml"), new: filepath.Join(dir, "new.yaml")}
		comment, _, _ := strings.Cut(string(b), "\n-- ")
		for _, l := range strings.Split(comment, "\n") {
			key, val, _ := strings.Cut(l, ": ")
			switch key {
			case "want":
				c.want = append(c.want, val)
			case "absent":
				c.absent = append(c.absent, val)
			case "error":
				c.errors = append(c.errors, val)
			}
		}
		cases = append(cases, c)
	}
	return cases
}

// TestSecretValuesHidden: in no case does any output (text with and without colour,
// Markdown, JSON; from files and from streams in memory, as krm diff --cluster compares)
// print a Secret value, and the text shows what each case wants.
func TestSecretValuesHidden(t *testing.T) {
	for _, c := range secretCases(t) {
		t.Run(c.name, func(t *testing.T) {
			r, err := Paths(c.old, c.new)
			if len(c.errors) > 0 {
				if err == nil {
					t.Fatalf("no error, want %q", c.errors)
				}
				for _, e := range c.errors {
					if !strings.Contains(err.Error(), e) {
						t.Errorf("error %q, want %q", err, e)
					}
				}
				secrettest.NoLeak(t, "the error", err.Error())
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var text bytes.Buffer
			if err := r.WriteText(&text, false); err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(text.String(), w+"\n") {
					t.Errorf("the text lacks the line %q:\n%s", w, text.String())
				}
			}
			for _, a := range c.absent {
				if strings.Contains(text.String(), a) {
					t.Errorf("the text has %q:\n%s", a, text.String())
				}
			}
			secrettest.NoLeak(t, "text", text.String())
			outs := outputs(t, r)
			for format, out := range outs {
				secrettest.NoLeak(t, format, out)
			}
			if strings.Contains(text.String(), "(Secret value hidden)") && !strings.Contains(outs["JSON"], `"redacted": true`) {
				t.Errorf("the JSON marks nothing redacted:\n%s", outs["JSON"])
			}
			oldData, _ := os.ReadFile(c.old)
			newData, _ := os.ReadFile(c.new)
			s, err := Streams("old", "new", oldData, newData)
			if err != nil {
				t.Fatal(err)
			}
			for format, out := range outputs(t, s) {
				secrettest.NoLeak(t, "Streams: "+format, out)
			}
		})
	}
}

// outputs is the report in each format krm diff writes.
func outputs(t *testing.T, r *Report) map[string]string {
	t.Helper()
	var text, color, md, js bytes.Buffer
	if err := r.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteText(&color, true); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdown(&md, 60000); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"text": text.String(), "colour text": color.String(), "Markdown": md.String(), "JSON": js.String()}
}
