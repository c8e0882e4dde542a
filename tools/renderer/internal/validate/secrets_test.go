package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/secretdata/secrettest"
)

// TestSecretValuesHidden: the errors about the objects of testdata/secrets, in text and
// JUnit, name each Secret value's field and what was expected, never the value; each file
// says the lines it wants ("# want: ...").
func TestSecretValuesHidden(t *testing.T) {
	files, err := filepath.Glob("testdata/secrets/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in testdata/secrets: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			v, err := New(Options{})
			if err != nil {
				t.Fatal(err)
			}
			results, err := v.ValidateFiles([]string{f}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var text, junit strings.Builder
			if err := WriteText(&text, results, nil); err != nil {
				t.Fatal(err)
			}
			if err := WriteJUnit(&junit, results, nil); err != nil {
				t.Fatal(err)
			}
			secrettest.NoLeak(t, "text", text.String())
			secrettest.NoLeak(t, "JUnit", junit.String())
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(string(data), "\n") {
				if w, ok := strings.CutPrefix(l, "# want: "); ok && !strings.Contains(text.String(), w+"\n") {
					t.Errorf("no line %q in:\n%s", w, text.String())
				}
			}
		})
	}
}
