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
			text, junit := outputs(t, f)
			secrettest.NoLeak(t, "text", text)
			secrettest.NoLeak(t, "JUnit", junit)
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(string(data), "\n") {
				if w, ok := strings.CutPrefix(l, "# want: "); ok && !strings.Contains(text, w+"\n") {
					t.Errorf("no line %q in:\n%s", w, text)
				}
			}
		})
	}
}
