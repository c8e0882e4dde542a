// Package testtree gives tests their testdata trees as regular files. Under
// `bazel test` every runfile is a symbolic link out of its tree, which the
// loader's root check refuses (it resolves links first, as kustomize does),
// so there the tree is copied.
package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// UnderBazel reports whether the test runs under `bazel test`.
func UnderBazel() bool { return os.Getenv("TEST_SRCDIR") != "" }

// Real returns dir, or under Bazel a copy of it (links followed) in a
// temporary directory that t removes.
func Real(t testing.TB, dir string) string {
	t.Helper()
	if !UnderBazel() {
		return dir
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(dir))
	if err := copyFollowing(dir, dst); err != nil {
		t.Fatalf("copying %s: %v", dir, err)
	}
	return dst
}

func copyFollowing(src, dst string) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, st.Mode().Perm())
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := copyFollowing(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
