//go:build !bazel

package main

import (
	"os"
	"testing"
)

// TestMain keeps what prdiff keeps between runs (stateRoot: the base's worktree, the render
// cache) in a directory of the tests', not in the user's cache directory. Not for the
// end-to-end tests (build tag bazel): their base worktree keeps one path between runs, so
// that its Bazel output base is reused, as a user's is.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "prdiff-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
