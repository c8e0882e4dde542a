package render

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

var updateFunctions = flag.Bool("update-functions", false, "rewrite testdata/functions/*/expected.yaml from krm's output")

// TestFunctions builds the kustomizations of testdata/functions: Starlark
// and exec functions, and selectors, end to end. Each case has tree/ (its
// files under fn/ become executables) and expected.yaml or error_contains
// (one substring per line).
func TestFunctions(t *testing.T) {
	cases, err := filepath.Glob("testdata/functions/*")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, dir := range cases {
		dir := dir
		t.Run(filepath.Base(dir), func(t *testing.T) {
			tree := copyTree(t, filepath.Join(dir, "tree"))
			out, err := Build(filesys.MakeFsOnDisk(), tree, Options{Functions: Functions{Alpha: true, Exec: true}})
			if subs, rerr := os.ReadFile(filepath.Join(dir, "error_contains")); rerr == nil {
				if err == nil {
					t.Fatalf("no error; output:\n%s", out)
				}
				for _, s := range strings.Split(strings.TrimSpace(string(subs)), "\n") {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q\ndoes not contain %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join(dir, "expected.yaml")
			if *updateFunctions {
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", out, want)
			}
		})
	}
}

// copyTree copies a case tree into a temporary directory, making the
// files under fn/ directories executable.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "tree")
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if filepath.Base(filepath.Dir(p)) == "fn" {
			mode = 0o755
		}
		return os.WriteFile(out, b, mode)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
