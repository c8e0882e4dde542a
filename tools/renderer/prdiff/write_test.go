package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteBaseRefuses: what WriteBase checks before it runs Bazel (the
// e2e test writes and reads a real one).
func TestWriteBaseRefuses(t *testing.T) {
	top := scratchRepo(t, map[string]string{"ws/MODULE.bazel": "", "ws/a/BUILD.bazel": "", "ws/a/kustomization.yaml": "a\n"})
	ws := filepath.Join(top, "ws")
	used := filepath.Join(t.TempDir(), "used")
	writeFiles(t, used, map[string]string{"x": ""})
	for _, tc := range []struct {
		name  string
		dir   string
		dirty bool
		want  string
	}{
		{"a directory with files", used, false, "--write-base-manifests " + used + ": the directory is not empty: give a new one"},
		{"uncommitted changes", filepath.Join(t.TempDir(), "new"), true, "--write-base-manifests: the workspace " + ws + " has uncommitted changes (ws/a/kustomization.yaml ...): the renders would not be HEAD's"},
	} {
		if tc.dirty {
			writeFiles(t, ws, map[string]string{"a/kustomization.yaml": "changed\n"})
		}
		err := WriteBase(Options{WriteBase: tc.dir, Workspace: ws, Bazel: "/nonexistent/bazel"}, &strings.Builder{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant %q", tc.name, err, tc.want)
		}
	}
}
