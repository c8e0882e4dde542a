package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.yaml")
	if err := WriteFile(path, []byte("first\n")); err != nil {
		t.Fatal(err)
	}
	assertFile(t, path, "first\n")
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v, %v; want 0644", fi.Mode(), err)
	}
	// Replacing: a reader holding the old file keeps the old content (the
	// new content arrives by rename, not by rewriting in place).
	old, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := WriteFile(path, []byte("second, longer\n")); err != nil {
		t.Fatal(err)
	}
	assertFile(t, path, "second, longer\n")
	buf := make([]byte, 64)
	n, _ := old.Read(buf)
	if string(buf[:n]) != "first\n" {
		t.Errorf("old handle reads %q: the file was rewritten in place", buf[:n])
	}
	assertOnly(t, dir, "out.yaml")

	// Empty data is a valid (empty) file.
	if err := WriteFile(path, nil); err != nil {
		t.Fatal(err)
	}
	assertFile(t, path, "")

	// Missing directory: an error and nothing created.
	missing := filepath.Join(dir, "nope", "out.yaml")
	if err := WriteFile(missing, []byte("x")); err == nil {
		t.Errorf("writing into a missing directory succeeded")
	}
	if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
		t.Errorf("missing directory was created")
	}

	// Target is a directory: an error, the directory intact, no temp file left.
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "keep"), []byte("k"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(sub, []byte("x")); err == nil {
		t.Errorf("replacing a non-empty directory succeeded")
	}
	assertFile(t, filepath.Join(sub, "keep"), "k")
	assertOnly(t, dir, "out.yaml", "sub")
}

func assertFile(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Errorf("%s = %q, want %q", path, b, want)
	}
}

// assertOnly checks dir holds exactly names (no temporary files left).
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %q, want %q", dir, got, names)
	}
}

// WriteFiles writes a set all or nothing, through symbolic links, and
// names the paths as given in errors.
func TestWriteFilesSet(t *testing.T) {
	dir := t.TempDir()
	kept := filepath.Join(dir, "kept.yaml")
	if err := os.WriteFile(kept, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "missing", "out.yaml")
	err := WriteFiles([]File{{Path: kept, Data: []byte("new\n")}, {Path: bad, Data: []byte("x")}})
	if err == nil || !strings.Contains(err.Error(), "writing "+bad+": ") || strings.Contains(err.Error(), ".tmp-") {
		t.Errorf("error = %v; want one naming %s and no temporary file", err, bad)
	}
	if b, _ := os.ReadFile(kept); string(b) != "old\n" {
		t.Errorf("%s = %q after a failed set; want it untouched", kept, b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}

	real := filepath.Join(dir, "real.yaml")
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink("real.yaml", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles([]File{{Path: link, Data: []byte("through\n")}}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(real); string(b) != "through\n" {
		t.Errorf("%s = %q; want what was written through the link", real, b)
	}
}
