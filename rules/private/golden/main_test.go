package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// setup writes a runfiles tree with manifests and golden files, and the configuration
// next to a fake executable, as Bazel lays them out.
func setup(t *testing.T, mode, manifests, golden string) (exe string, ws string) {
	t.Helper()
	dir := t.TempDir()
	exe = filepath.Join(dir, "bin", "pkg", "check")
	rf := exe + ".runfiles"
	for path, content := range map[string]string{
		"repo/pkg/out_manifests.yaml": manifests,
		"repo/pkg/golden.yaml":        golden,
	} {
		p := filepath.Join(rf, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := "mode=" + mode + "\nmanifests=repo/pkg/out_manifests.yaml\ngolden=repo/pkg/golden.yaml\n" +
		"golden_source=pkg/golden.yaml\nkustomization=//pkg:out\nupdate=//pkg:check.update\n"
	if err := os.WriteFile(exe+".krmgolden", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"RUNFILES_DIR", "TEST_SRCDIR", "RUNFILES_MANIFEST_FILE", "TEST_BINARY"} {
		t.Setenv(v, "")
	}
	ws = filepath.Join(dir, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	return exe, ws
}

func TestRunTest(t *testing.T) {
	exe, _ := setup(t, "test", "kind: A\n", "kind: A\n")
	var stdout, stderr bytes.Buffer
	if code := run([]string{exe}, &stdout, &stderr); code != 0 {
		t.Fatalf("equal files: exit %d, stderr:\n%s", code, stderr.String())
	}

	exe, _ = setup(t, "test", "kind: B\n", "kind: A\n")
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{exe}, &stdout, &stderr); code != 1 {
		t.Fatalf("different files: exit %d, want 1", code)
	}
	for _, want := range []string{"-kind: A", "+kind: B", "bazel run //pkg:check.update", "//pkg:out"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

func TestRunUpdate(t *testing.T) {
	exe, ws := setup(t, "update", "kind: B\n", "kind: A\n")
	var stdout, stderr bytes.Buffer
	t.Setenv("BUILD_WORKSPACE_DIRECTORY", "")
	if code := run([]string{exe}, &stdout, &stderr); code != 2 {
		t.Fatalf("without BUILD_WORKSPACE_DIRECTORY: exit %d, want 2", code)
	}
	t.Setenv("BUILD_WORKSPACE_DIRECTORY", ws)
	if code := run([]string{exe}, &stdout, &stderr); code != 0 {
		t.Fatalf("update: exit %d, stderr:\n%s", code, stderr.String())
	}
	got, err := os.ReadFile(filepath.Join(ws, "pkg", "golden.yaml"))
	if err != nil || string(got) != "kind: B\n" {
		t.Fatalf("golden after update = %q, %v", got, err)
	}
	stdout.Reset()
	if code := run([]string{exe}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "up to date") {
		t.Fatalf("second update: exit %d, stdout %q", code, stdout.String())
	}
}

func TestRunfilesManifest(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.yaml")
	if err := os.WriteFile(target, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "MANIFEST")
	if err := os.WriteFile(manifest, []byte("repo/a.yaml "+target+"\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RUNFILES_DIR", "")
	t.Setenv("TEST_SRCDIR", "")
	t.Setenv("RUNFILES_MANIFEST_FILE", manifest)
	r := newRunfiles(filepath.Join(dir, "exe"))
	if data, err := r.read("repo/a.yaml"); err != nil || string(data) != "x" {
		t.Fatalf("read through manifest = %q, %v", data, err)
	}
	if _, err := r.read("repo/b.yaml"); err == nil {
		t.Fatal("missing runfile: no error")
	}
}

func TestRunUpdateAll(t *testing.T) {
	exe, ws := setup(t, "update-all", "kind: B\n", "kind: A\n")
	rf := exe + ".runfiles"
	if err := os.WriteFile(filepath.Join(rf, "repo/pkg/same_manifests.yaml"), []byte("kind: S\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "pkg", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "pkg/sub/same.yaml"), []byte("kind: S\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := "mode=update-all\nupdate=//pkg:update_goldens\n" +
		"entry=repo/pkg/out_manifests.yaml\tpkg/golden.yaml\t//pkg:out\n" +
		"entry=repo/pkg/same_manifests.yaml\tpkg/sub/same.yaml\t//pkg/sub:same\n"
	if err := os.WriteFile(exe+".krmgolden", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BUILD_WORKSPACE_DIRECTORY", ws)
	var stdout, stderr bytes.Buffer
	if code := run([]string{exe}, &stdout, &stderr); code != 0 {
		t.Fatalf("update-all: exit %d, stderr:\n%s", code, stderr.String())
	}
	if got, err := os.ReadFile(filepath.Join(ws, "pkg", "golden.yaml")); err != nil || string(got) != "kind: B\n" {
		t.Errorf("pkg/golden.yaml = %q, %v", got, err)
	}
	for _, want := range []string{"updated pkg/golden.yaml from the manifests of //pkg:out", "pkg/sub/same.yaml is up to date"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	// A missing manifests file fails the run, after the others.
	cfg += "entry=repo/pkg/none.yaml\tpkg/none.yaml\t//pkg:none\n"
	if err := os.WriteFile(exe+".krmgolden", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := run([]string{exe}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "//pkg:none") {
		t.Errorf("missing manifests: exit %d, stderr %s", code, stderr.String())
	}
	if err := os.WriteFile(exe+".krmgolden", []byte("mode=update-all\nentry=a\tb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := run([]string{exe}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "want MANIFESTS<tab>GOLDEN_SOURCE<tab>LABEL") {
		t.Errorf("bad entry: exit %d, stderr %s", code, stderr.String())
	}
}
