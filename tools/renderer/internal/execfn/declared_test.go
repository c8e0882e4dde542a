package execfn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/krmfn"
)

// declare resolves d.
func declare(t *testing.T, d *Declarations) *Registry {
	t.Helper()
	r, err := Declare(d)
	if err != nil {
		t.Fatalf("Declare: %v", err)
	}
	return r
}

// outside copies fn/NAME of the kustomization dir to a directory of its own
// (as Bazel's bazel-out/.../bin) and returns its path.
func outside(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "fn", name))
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(t.TempDir(), "bin", name+"_fn")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return exe
}

func TestDeclaredRunsInsteadOfPath(t *testing.T) {
	dir := kust(t)
	exe := outside(t, dir, "replicas")
	// The declared path need not exist; the file at a declared path is not run.
	reg := declare(t, &Declarations{Functions: map[string]string{
		filepath.Join(dir, "fn", "set-replicas"): exe,
		filepath.Join(dir, "fn", "identity"):     exe,
	}, Only: true, Label: "//app:app"})
	h := helpers(t, dir, nil)
	for _, path := range []string{"./fn/set-replicas", "fn/set-replicas", "fn/../fn/identity"} {
		m := resMap(t, h)
		cfg := strings.Replace(config("x", ""), "./fn/x", path, 1)
		if err := configureDeclared(t, h, cfg, reg).Transform(m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if got := yamlOf(t, m); !strings.Contains(got, "replicas: 3") {
			t.Errorf("%s: the declared executable did not run:\n%s", path, got)
		}
	}
}

func TestDeclaredRelativeToWorkingDirectory(t *testing.T) {
	dir := kust(t)
	exe := outside(t, dir, "fail")
	t.Chdir(filepath.Dir(dir))
	rel, err := filepath.Rel(filepath.Dir(dir), exe)
	if err != nil || strings.HasPrefix(rel, "..") {
		// The temporary directories are siblings: name the executable as is.
		rel = exe
	}
	reg := declare(t, &Declarations{Functions: map[string]string{"kust/fn/set-replicas": rel}, Only: true})
	h := helpers(t, dir, nil)
	err = configureDeclared(t, h, strings.Replace(config("x", ""), "./fn/x", "./fn/set-replicas", 1), reg).Transform(resMap(t, h))
	// Errors name the executable as declared.
	wantErr(t, err, `SetThing "x": function `+rel+` failed: exit status 3`)
}

func TestUndeclared(t *testing.T) {
	dir := kust(t)
	exe := outside(t, dir, "replicas")
	h := helpers(t, dir, nil)

	// Only declared executables: an undeclared path is an error naming the path and the attribute.
	reg := declare(t, &Declarations{Functions: map[string]string{filepath.Join(dir, "fn", "other"): exe}, Only: true, Label: "//app:app"})
	err := New(krmfn.Runtime{}, reg).Config(h, []byte(config("identity", "")))
	wantErr(t, err, `SetThing "identity": exec path "./fn/identity"`, "is not a declared function",
		"add it to the functions attribute of //app:app", `functions = {"./fn/identity": ":my_function"}`,
		"krm_function", "(declared: "+filepath.ToSlash(filepath.Join(dir, "fn", "other"))+")")

	// Otherwise the file at the path runs.
	reg = declare(t, &Declarations{Functions: map[string]string{filepath.Join(dir, "fn", "other"): exe}})
	m := resMap(t, h)
	if err := configureDeclared(t, h, config("replicas", ""), reg).Transform(m); err != nil {
		t.Fatal(err)
	}
	if got := yamlOf(t, m); !strings.Contains(got, "replicas: 3") {
		t.Errorf("fn/replicas did not run:\n%s", got)
	}

	// Only, no declarations at all, no label.
	reg = declare(t, &Declarations{Only: true})
	wantErr(t, New(krmfn.Runtime{}, reg).Config(h, []byte(config("identity", ""))), "add it to the functions attribute of the krm_kustomization target")
}

func TestDeclarationErrors(t *testing.T) {
	dir := kust(t)
	h := helpers(t, dir, nil)
	path := filepath.Join(dir, "fn", "x")

	reg := declare(t, &Declarations{Functions: map[string]string{path: filepath.Join(dir, "missing")}})
	wantErr(t, New(krmfn.Runtime{}, reg).Config(h, []byte(config("x", ""))), `exec path "./fn/x": declared executable:`, "no such file")

	reg = declare(t, &Declarations{Functions: map[string]string{path: filepath.Join(dir, "fn", "not-executable")}})
	wantErr(t, New(krmfn.Runtime{}, reg).Config(h, []byte(config("x", ""))), "is not an executable file")

	if _, err := Declare(&Declarations{Functions: map[string]string{"": "x"}}); err == nil {
		t.Error("empty path accepted")
	}
	if _, err := Declare(&Declarations{Functions: map[string]string{
		path: "/bin/a", dir + "/fn/./x": "/bin/b",
	}}); err == nil || !strings.Contains(err.Error(), "declared twice") {
		t.Errorf("conflict: %v", err)
	}
}
