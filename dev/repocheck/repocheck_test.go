// Package repocheck holds checks on what the repository tracks: no build outputs, nothing
// that every clone and every release archive would carry without need. check, the rule for
// one file, is tested here under go test and bazel test (:repocheck_test); the walk over the
// tracked files is tree_test.go's, under go test only.
package repocheck

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxSize is the largest file the tree may track outside testdata directories (real trees
// of CRDs run to about 1.4 MB; a compiled krm is tens of MB).
const maxSize = 5 << 20

// executableMagic are the first bytes of compiled programs (ELF, Mach-O, PE).
var executableMagic = [][]byte{
	{0x7f, 'E', 'L', 'F'},
	{0xcf, 0xfa, 0xed, 0xfe}, {0xce, 0xfa, 0xed, 0xfe}, {0xca, 0xfe, 0xba, 0xbe},
	{'M', 'Z'},
}

// check says what is wrong with the tracked file at path (rel in the tree), or "".
func check(path, rel string) string {
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return "" // deleted in the work tree, or a link
	}
	if info.Size() > maxSize && !strings.Contains("/"+rel, "/testdata/") {
		return "over 5 MB outside testdata: a build output, or data to keep out of the tree"
	}
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	head := make([]byte, 4)
	n, _ := f.Read(head)
	for _, m := range executableMagic {
		if n >= len(m) && bytes.Equal(head[:len(m)], m) && (len(m) > 2 || info.Size() > 1<<20) {
			return "a compiled program: build outputs never go into git (.gitignore)"
		}
	}
	return ""
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if got := check(write("elf", append([]byte{0x7f, 'E', 'L', 'F'}, make([]byte, 100)...)), "renderer"); got == "" {
		t.Error("an ELF file passed")
	}
	if got := check(write("big", make([]byte, maxSize+1)), "dev/bench/x.yaml"); got == "" {
		t.Error("a file over 5 MB outside testdata passed")
	}
	if got := check(write("big2", make([]byte, maxSize+1)), "a/testdata/x.yaml"); got != "" {
		t.Errorf("a large testdata file failed: %s", got)
	}
	if got := check(write("yaml", []byte("apiVersion: v1\n")), "x.yaml"); got != "" {
		t.Errorf("a YAML file failed: %s", got)
	}
}
