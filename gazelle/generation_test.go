package gazelle

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bazelbuild/bazel-gazelle/testtools"
)

var gazelleBinary = flag.String("gazelle_binary", "", "gazelle binary holding the krm language (default: build one from bazel-gazelle's cmd/gazelle with the krm and Go languages)")

// TestGeneration runs gazelle on every testdata/<case>: BUILD.in files are the BUILD files
// before, BUILD.out after, expectedStderr.txt what gazelle logs (arguments.txt: its
// arguments). Update them with `UPDATE_SNAPSHOTS=1 go test ./gazelle -run TestGeneration`.
func TestGeneration(t *testing.T) {
	bin := *gazelleBinary
	if bin == "" {
		bin = buildGazelle(t)
	}
	abs, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := os.ReadDir(abs)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("UPDATE_SNAPSHOTS") != "" && os.Getenv("BUILD_WORKSPACE_DIRECTORY") == "" {
		// testtools writes the updates relative to the workspace: the repository root.
		root, _ := filepath.Abs("..")
		t.Setenv("BUILD_WORKSPACE_DIRECTORY", root)
	}
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		testtools.TestGazelleGenerationOnPath(t, &testtools.TestGazelleGenerationArgs{
			Name:                 c.Name(),
			TestDataPathAbsolute: filepath.Join(abs, c.Name()),
			TestDataPathRelative: "gazelle/testdata/" + c.Name(),
			GazelleBinaryPath:    bin,
		})
	}
}

// buildGazelle builds bazel-gazelle's cmd/gazelle with its langs.go listing the krm and Go
// languages, as gazelle_binary does under Bazel (//gazelle:gazelle_bin): from a copy of the
// module, which an alternate go.mod (a copy of ours plus a replace) builds.
func buildGazelle(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/bazelbuild/bazel-gazelle").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/bazelbuild/bazel-gazelle: %v", err)
	}
	// A fixed directory, so that the Go build cache serves later runs.
	tmp := filepath.Join(os.TempDir(), "rules_krm-gazelle-test")
	module := filepath.Join(tmp, "bazel-gazelle")
	if err := os.RemoveAll(tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-R", strings.TrimSpace(string(out)), module).CombinedOutput(); err != nil {
		t.Fatalf("copying bazel-gazelle: %v\n%s", err, out)
	}
	if out, err := exec.Command("chmod", "-R", "u+w", module).CombinedOutput(); err != nil {
		t.Fatalf("chmod: %v\n%s", err, out)
	}
	langs := `package main

import (
	"github.com/bazelbuild/bazel-gazelle/language"
	golang "github.com/bazelbuild/bazel-gazelle/language/go"
	krm "github.com/rules-krm/rules_krm/gazelle"
)

var languages = []language.Language{golang.NewLanguage(), krm.NewLanguage()}
`
	write(t, filepath.Join(module, "cmd", "gazelle", "langs.go"), []byte(langs))
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	gosum, err := os.ReadFile("../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	modfile := filepath.Join(tmp, "go.mod")
	write(t, modfile, append(gomod, []byte("\nreplace github.com/bazelbuild/bazel-gazelle => "+module+"\n")...))
	write(t, filepath.Join(tmp, "go.sum"), gosum)
	bin := filepath.Join(tmp, "gazelle")
	cmd := exec.Command("go", "build", "-modfile", modfile, "-o", bin, "github.com/bazelbuild/bazel-gazelle/cmd/gazelle")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building gazelle with the krm language: %v\n%s", err, out)
	}
	return bin
}

func write(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
