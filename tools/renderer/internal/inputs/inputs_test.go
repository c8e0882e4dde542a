package inputs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tree writes files under a temporary directory, which it makes the
// working directory, and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir
}

func TestServesOnlyDeclaredFiles(t *testing.T) {
	root := tree(t, map[string]string{
		"app/kustomization.yaml":                   "resources: [cm.yaml]\n",
		"app/undeclared.yaml":                      "secret",
		"bazel-out/bin/app/cm.yaml":                "kind: ConfigMap\n",
		"bazel-out/bin/other/pkg/generated.yaml":   "generated",
		"base/kustomization.yaml":                  "undeclared base",
		"external/repo/pkg/kustomization.yaml":     "external",
		"bazel-out/bin/external/repo/pkg/gen.yaml": "external generated",
	})
	f, err := New(".", []File{
		{Path: "app/kustomization.yaml", Src: "app/kustomization.yaml"},
		{Path: "app/cm.yaml", Src: "bazel-out/bin/app/cm.yaml"},
		{Path: "app/sub/generated.yaml", Src: "bazel-out/bin/other/pkg/generated.yaml"},
		{Path: "external/repo/pkg/kustomization.yaml", Src: "external/repo/pkg/kustomization.yaml"},
		{Path: "external/repo/pkg/gen.yaml", Src: "bazel-out/bin/external/repo/pkg/gen.yaml"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"app/cm.yaml":                                 "kind: ConfigMap\n",
		filepath.Join(root, "app/cm.yaml"):            "kind: ConfigMap\n",
		"app/./sub/../sub/generated.yaml":             "generated",
		"external/repo/pkg/gen.yaml":                  "external generated",
		filepath.Join(root, "app/kustomization.yaml"): "resources: [cm.yaml]\n",
	} {
		got, err := f.ReadFile(name)
		if err != nil || string(got) != want {
			t.Errorf("ReadFile(%s) = %q, %v; want %q", name, got, err, want)
		}
	}
	// On disk but not declared: absent, whatever the path.
	for _, name := range []string{
		"app/undeclared.yaml", filepath.Join(root, "app/undeclared.yaml"), "base/kustomization.yaml",
		"bazel-out/bin/app/cm.yaml", "../outside.yaml", "/etc/passwd",
	} {
		if f.Exists(name) || f.IsDir(name) {
			t.Errorf("%s exists", name)
		}
		_, err := f.ReadFile(name)
		if !errors.Is(err, ErrUndeclared) || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadFile(%s) error = %v, want ErrUndeclared", name, err)
		}
		if err != nil && strings.Contains(err.Error(), root) {
			t.Errorf("ReadFile(%s) error names the root: %v", name, err)
		}
		if _, err := f.Open(name); !errors.Is(err, ErrUndeclared) {
			t.Errorf("Open(%s) error = %v", name, err)
		}
	}
	if f.Exists("base") {
		t.Error("an undeclared directory exists")
	}
	// Directories are the parents of declared files.
	for _, d := range []string{".", "app", "app/sub", "external", "external/repo/pkg", root} {
		if !f.IsDir(d) || !f.Exists(d) {
			t.Errorf("%s is not a directory", d)
		}
	}
	if f.IsDir("app/cm.yaml") || !f.Exists("app/cm.yaml") {
		t.Error("app/cm.yaml: want a file")
	}
	names, err := f.ReadDir("app")
	if err != nil || !reflect.DeepEqual(names, []string{"cm.yaml", "kustomization.yaml", "sub"}) {
		t.Errorf("ReadDir(app) = %q, %v", names, err)
	}
	if _, err := f.ReadDir("base"); !errors.Is(err, ErrUndeclared) {
		t.Errorf("ReadDir(base) error = %v", err)
	}
	if _, err := f.ReadFile("app"); err == nil {
		t.Error("ReadFile of a directory succeeded")
	}
}

func TestOpenWalkGlobCleanedAbs(t *testing.T) {
	root := tree(t, map[string]string{"src/a.yaml": "a", "src/b.yaml": "b"})
	f, err := New(".", []File{{Path: "d/a.yaml", Src: "src/a.yaml"}, {Path: "d/e/b.yaml", Src: "src/b.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Add(File{Path: "d/mem.yaml", Data: []byte("mem")}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"d/a.yaml": "a", "d/mem.yaml": "mem"} {
		r, err := f.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r)
		st, err := r.Stat()
		r.Close()
		if string(b) != want || err != nil || st.Size() != int64(len(want)) {
			t.Errorf("Open(%s): %q, %v, %v", name, b, st, err)
		}
	}
	var walked []string
	err = f.Walk("d", func(p string, info fs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		walked = append(walked, p+map[bool]string{true: "/", false: ""}[info.IsDir()])
		return nil
	})
	want := []string{"d/", "d/a.yaml", "d/e/", "d/e/b.yaml", "d/mem.yaml"}
	if err != nil || !reflect.DeepEqual(walked, want) {
		t.Errorf("Walk = %q, %v; want %q", walked, err, want)
	}
	if err := f.Walk("nope", func(string, fs.FileInfo, error) error { return io.EOF }); err != io.EOF {
		t.Errorf("Walk(nope) = %v, want the callback's error", err)
	}
	got, err := f.Glob(filepath.Join(root, "d", "*.yaml"))
	if err != nil || !reflect.DeepEqual(got, []string{filepath.Join(root, "d/a.yaml"), filepath.Join(root, "d/mem.yaml")}) {
		t.Errorf("Glob = %q, %v", got, err)
	}
	dir, file, err := f.CleanedAbs("d/e/b.yaml")
	if err != nil || string(dir) != filepath.Join(root, "d/e") || file != "b.yaml" {
		t.Errorf("CleanedAbs(file) = %s %s %v", dir, file, err)
	}
	dir, file, err = f.CleanedAbs("d/e")
	if err != nil || string(dir) != filepath.Join(root, "d/e") || file != "" {
		t.Errorf("CleanedAbs(dir) = %s %s %v", dir, file, err)
	}
	if _, _, err := f.CleanedAbs("src/a.yaml"); !errors.Is(err, ErrUndeclared) {
		t.Errorf("CleanedAbs(undeclared) error = %v", err)
	}
}

func TestReadOnly(t *testing.T) {
	tree(t, map[string]string{"a.yaml": "a"})
	f, err := New(".", []File{{Path: "a.yaml", Src: "a.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"WriteFile": f.WriteFile("a.yaml", []byte("x")),
		"Mkdir":     f.Mkdir("d"),
		"MkdirAll":  f.MkdirAll("d/e"),
		"RemoveAll": f.RemoveAll("a.yaml"),
	} {
		if !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s error = %v", name, err)
		}
	}
	if _, err := f.Create("b.yaml"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Create error = %v", err)
	}
	if b, _ := os.ReadFile("a.yaml"); string(b) != "a" {
		t.Errorf("a.yaml changed: %q", b)
	}
}

func TestBadDeclarations(t *testing.T) {
	tree(t, nil)
	for _, tc := range []struct {
		files []File
		want  string
	}{
		{[]File{{Path: "/abs.yaml", Src: "x"}}, "want a path relative to the workspace"},
		{[]File{{Path: "../up.yaml", Src: "x"}}, "want a path relative to the workspace"},
		{[]File{{Path: "a.yaml", Src: "x"}, {Path: "./a.yaml", Src: "y"}}, "a.yaml is declared twice, from x and y"},
		{[]File{{Path: "d/a.yaml", Src: "x"}, {Path: "d", Src: "y"}}, "d is also a directory"},
		{[]File{{Path: "d", Src: "y"}, {Path: "d/a.yaml", Src: "x"}}, "d/a.yaml is below d, also a declared file"},
	} {
		if _, err := New(".", tc.files); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%v) error = %v, want %q", tc.files, err, tc.want)
		}
	}
	// The same file declared twice is fine.
	f, err := New(".", []File{{Path: "a.yaml", Src: "x"}, {Path: "a.yaml", Src: "x"}})
	if err != nil || len(f.Declared()) != 1 {
		t.Errorf("duplicate declaration: %v, %v", err, f)
	}
}

func TestLoadManifest(t *testing.T) {
	tree(t, map[string]string{
		"inputs.params":              "app/kustomization.yaml\napp/gen.yaml\tbazel-out/bin/app/gen.yaml\n\n",
		"app/kustomization.yaml":     "k",
		"bazel-out/bin/app/gen.yaml": "g",
		"bazel-out/bin/base.krmsnap": "s",
	})
	f, err := Load("inputs.params", nil, "bazel-out/bin/base.krmsnap")
	if err != nil {
		t.Fatal(err)
	}
	want := []File{
		{Path: "app/gen.yaml", Src: "bazel-out/bin/app/gen.yaml"},
		{Path: "app/kustomization.yaml", Src: "app/kustomization.yaml"},
	}
	if got := f.Declared(); !reflect.DeepEqual(got, want) {
		t.Errorf("Declared = %+v, want %+v (sorted, without the snapshots)", got, want)
	}
	for name, want := range map[string]string{"app/gen.yaml": "g", "bazel-out/bin/base.krmsnap": "s"} {
		if b, err := f.ReadFile(name); err != nil || string(b) != want {
			t.Errorf("ReadFile(%s) = %q, %v", name, b, err)
		}
	}
	if err := os.WriteFile("bad.params", []byte("a.yaml\t\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load("bad.params", nil); err == nil || !strings.Contains(err.Error(), "bad.params:1: want PATH<tab>SOURCE") {
		t.Errorf("bad manifest: %v", err)
	}
	if _, err := Load("none.params", nil); err == nil {
		t.Error("missing manifest: no error")
	}
	// The same declarations as --input lines, alone and with a manifest.
	lines := []string{"app/kustomization.yaml", "app/gen.yaml\tbazel-out/bin/app/gen.yaml"}
	for _, manifest := range []string{"", "inputs.params"} {
		f, err := Load(manifest, lines)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Declared(); !reflect.DeepEqual(got, want) {
			t.Errorf("Declared from lines (manifest %q) = %+v, want %+v", manifest, got, want)
		}
	}
	if _, err := Load("", []string{"ok.yaml", "\tx"}); err == nil || !strings.Contains(err.Error(), `--input "\tx": want PATH<tab>SOURCE`) {
		t.Errorf("bad line: %v", err)
	}
}

func TestRel(t *testing.T) {
	root := tree(t, nil)
	f, err := New(".", nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Root() != root {
		t.Errorf("Root = %s, want %s", f.Root(), root)
	}
	for in, want := range map[string]string{
		filepath.Join(root, "a/b.yaml"): "a/b.yaml",
		"/elsewhere/x":                  "/elsewhere/x",
	} {
		if got := f.Rel(in); got != want {
			t.Errorf("Rel(%s) = %s, want %s", in, got, want)
		}
	}
}

// A declared input, a manifest or a snapshot that is not a regular file (a
// named pipe; /dev/stdin, a worker's protocol) is refused, naming it,
// before it is opened: reading it would block.
func TestNonRegularFilesRefused(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := New(dir, []File{{Path: "app/kustomization.yaml", Src: pipe}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan []error, 1)
	go func() {
		_, readErr := f.ReadFile(filepath.Join(dir, "app/kustomization.yaml"))
		_, openErr := f.Open(filepath.Join(dir, "app/kustomization.yaml"))
		_, manifestErr := ReadManifest(pipe)
		done <- []error{readErr, openErr, manifestErr}
	}()
	select {
	case errs := <-done:
		for i, err := range errs {
			if err == nil || !strings.Contains(err.Error(), pipe+": not a regular file") {
				t.Errorf("read %d: got %v, want an error naming the pipe", i, err)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still reading the pipe after 10s")
	}
}
