package handoff

import (
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// The helper is KRM_HELM when set, else beside the executable, else on PATH; when none is
// there, the error says what to install, for this krm's version.
func TestFind(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	exe, beside, named, onPath := filepath.Join(dir, "krm"), filepath.Join(dir, HelperName), filepath.Join(other, "helper"), filepath.Join(other, HelperName)
	for _, f := range []string{exe, named, onPath} {
		if err := os.WriteFile(f, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := func(name string) (string, error) {
		if name != HelperName {
			t.Errorf("looked up %q on PATH", name)
		}
		return onPath, nil
	}
	noPath := func(string) (string, error) { return "", errors.New("not found") }
	checkout := &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v0.0.0-20261201000000-0123456789ab+dirty"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789ab"}}}
	proxy := &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v1.4.0"}}
	release := &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}}

	if got, err := find(named, exe, path, nil); got != named || err != nil {
		t.Errorf("named: %q, %v", got, err)
	}
	if _, err := find(filepath.Join(other, "none"), exe, path, nil); err == nil || !strings.Contains(err.Error(), "which is not at "+filepath.Join(other, "none")+" (KRM_HELM)") {
		t.Errorf("named, missing: %v", err)
	}
	if got, err := find("", exe, path, nil); got != onPath || err != nil {
		t.Errorf("on PATH: %q, %v", got, err)
	}
	for bi, want := range map[*debug.BuildInfo]string{
		proxy:    "install it beside krm with go install github.com/rules-krm/rules_krm/tools/renderer/krm_helm@v1.4.0, or name it in KRM_HELM",
		checkout: "copy it there from the release archive, or build it there in rules_krm with go build -o " + beside + " ./tools/renderer/krm_helm, or name it in KRM_HELM",
		release:  "copy it there from the release archive, or build it there in rules_krm with go build -o " + beside + " ./tools/renderer/krm_helm, or name it in KRM_HELM",
		nil:      "copy it there from the release archive",
	} {
		_, err := find("", exe, noPath, bi)
		if err == nil || !strings.Contains(err.Error(), "which is neither at "+beside+" nor on PATH: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("built as %v, none found: %v\nwant %q", bi, err, want)
		}
	}
	if err := os.WriteFile(beside, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := find("", exe, path, nil); got != beside || err != nil {
		t.Errorf("beside: %q, %v", got, err)
	}
}
