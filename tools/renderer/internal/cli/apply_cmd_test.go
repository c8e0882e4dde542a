package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// Manifests that cannot be applied (an object without a name, an object
// written twice) are input errors: exit 2, as documented, naming the file,
// before anything is sent (no server is needed to see it).
func TestClusterCommandsInputErrorsExit2(t *testing.T) {
	dir := tree(t, map[string]string{
		"noname.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n",
		"twice.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
	})
	for _, cmd := range [][]string{{"apply"}, {"delete"}, {"diff", "--cluster"}} {
		for file, want := range map[string]string{
			"noname.yaml": "object 1: needs apiVersion, kind and metadata.name",
			"twice.yaml":  "an object can be applied once",
		} {
			path := filepath.Join(dir, file)
			args := append(append([]string{}, cmd...), "--context", "ci", path)
			code, _, stderr := runCLI(args...)
			if code != 2 || !strings.Contains(stderr, path) || !strings.Contains(stderr, want) {
				t.Errorf("krm %s: exit %d, stderr %q; want exit 2 and an error naming the file: %s", strings.Join(args, " "), code, stderr, want)
			}
		}
	}
}
