// Package bazeltest drives Bazel from Go tests: it finds the repository and the Bazel the
// tests run (dev/scripts/install-bazel.sh: on machines without a registry, Bazel 7.7.1 in a
// chroot through dev/offline/bazel7/bin/bazel), makes scratch workspaces (a copy of the
// repository, a consumer module, files from a txtar archive), runs Bazel commands in them
// with the output base the caller chooses, capturing stdout, stderr and the exit code, and
// reads Bazel's execution log (--execution_log_json_file) to count the actions that ran or
// came from a cache.
//
// The integration tests of rules_krm (dev/testing/integration, build tag bazel) use it;
// they run with `go test -tags bazel`, outside `bazel test` (they start Bazel themselves).
package bazeltest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// T is what the helpers need of a test (testing.TB has it). The package does not import
// testing, so that commands such as dev/execlog can use its log reader.
type T interface {
	Helper()
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Cleanup(func())
}

const module = "module github.com/rules-krm/rules_krm\n"

// Root is the checkout of rules_krm holding the working directory (the directory of the
// go.mod of module github.com/rules-krm/rules_krm, found upwards).
func Root(t T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("bazeltest: %v", err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(b, []byte(module)) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("bazeltest: no go.mod of github.com/rules-krm/rules_krm above the working directory")
		}
		dir = parent
	}
}

// Offline reports whether the tests run the offline Bazel of dev/offline/bazel7
// (KRM_OFFLINE unset or 1, as in dev/scripts/bazel-lib.sh) rather than `bazel` from PATH.
func Offline() bool {
	v := os.Getenv("KRM_OFFLINE")
	return v == "" || v == "1"
}

// Binary is the Bazel to run: dev/offline/bazel7/bin/bazel of root when Offline, else
// `bazel` (from PATH).
func Binary(root string) string {
	if Offline() {
		return filepath.Join(root, "dev", "offline", "bazel7", "bin", "bazel")
	}
	return "bazel"
}

// DiskCache is the disk cache the Bazel tests share (created if missing): $KRM_DISK_CACHE,
// else rules_krm/disk-cache under the user's cache directory, as in dev/scripts/bazel-lib.sh.
func DiskCache(t T) string {
	t.Helper()
	dir := os.Getenv("KRM_DISK_CACHE")
	if dir == "" {
		dir = filepath.Join(cacheHome(), "rules_krm", "disk-cache")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("bazeltest: disk cache: %v", err)
	}
	return dir
}

func cacheHome() string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache")
}

// TestDir is the directory where a test keeps its workspace copies and output bases
// between runs (output bases keep their fetched external repositories, which makes reruns
// fast): $KRM_TEST_DIR/NAME, default /tmp/rules_krm-tests/NAME (created if missing).
func TestDir(t T, name string) string {
	t.Helper()
	base := os.Getenv("KRM_TEST_DIR")
	if base == "" {
		base = filepath.Join(os.TempDir(), "rules_krm-tests")
	}
	dir := filepath.Join(base, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("bazeltest: %v", err)
	}
	return dir
}

// Flags splits a space-separated list of flags from an environment variable (empty: none).
func Flags(env string) []string {
	return strings.Fields(os.Getenv(env))
}

// tail is the last n lines of s, for failure messages.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("[... %d lines]", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// ReadFile is the text of the file at path; the test fails if it cannot be read.
func ReadFile(t T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return string(b)
}

// FirstDifference shows the first line where got differs from want (for messages about
// outputs that must be byte-identical).
func FirstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  want: %q\n  got:  %q", i+1, wl, gl)
		}
	}
	return "(same lines)"
}
