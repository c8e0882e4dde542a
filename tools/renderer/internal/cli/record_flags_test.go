package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// What krm apply records: the commit from --source-commit or a workspace status file, the
// provenance manifests; record flags without an ApplySet are a usage error.
func TestRecordFlags(t *testing.T) {
	dir := t.TempDir()
	status := writeTemp(t, dir, "stable-status.txt", "BUILD_USER ci\nSTABLE_GIT_COMMIT 0123abc\nSTABLE_OTHER zzz\n")
	empty := writeTemp(t, dir, "empty-status.txt", "BUILD_USER ci\n")
	parse := func(args ...string) *recordFlags {
		o := applyFlags(&bytes.Buffer{})
		if err := o.fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return &o.record
	}
	var warn bytes.Buffer
	r := parse("--source-commit-from", status)
	req, _, err := r.request(true, &warn)
	if err != nil || req.Commit != "0123abc" {
		t.Errorf("--source-commit-from: %+v %v", req, err)
	}
	r = parse("--source-commit-from", status, "--source-commit-key", "STABLE_OTHER")
	if req, _, err = r.request(true, &warn); err != nil || req.Commit != "zzz" {
		t.Errorf("--source-commit-key: %+v %v", req, err)
	}
	r = parse("--source-commit-from", empty)
	if req, _, err = r.request(true, &warn); err != nil || req.Commit != "" {
		t.Fatalf("no key: %+v %v", req, err)
	}
	req.Warn("x") // the warning goes where the request says
	if !strings.HasPrefix(warn.String(), "Warning: --source-commit-from "+empty+": no STABLE_GIT_COMMIT or STABLE_BUILD_SCM_REVISION or BUILD_SCM_REVISION in the workspace status") {
		t.Errorf("warning: %q", warn.String())
	}
	r = parse("--source-commit", "abc")
	if _, _, err = r.request(false, &warn); err == nil || !strings.Contains(err.Error(), "add --applyset NAME (or --no-record)") {
		t.Errorf("without an ApplySet: %v", err)
	}
	r = parse("--source-commit", "abc", "--no-record")
	if req, _, err = r.request(true, &warn); err != nil || req != nil {
		t.Errorf("--no-record: %+v %v", req, err)
	}
	r = parse("--provenance-manifest", filepath.Join(dir, "nope.json"))
	if _, _, err = r.request(true, &warn); err == nil || !strings.Contains(err.Error(), "--provenance-manifest") {
		t.Errorf("a missing manifest: %v", err)
	}
	r = parse("--output-path", "Image")
	if _, _, err = r.request(true, &warn); err == nil || !strings.Contains(err.Error(), "want GROUP/KIND=PATH") {
		t.Errorf("a bad --output-path: %v", err)
	}
	if code, _, errOut := runCLI("apply", "--source-commit", "abc", "m.yaml"); code != 2 || !strings.Contains(errOut, "--applyset") {
		t.Errorf("krm apply --source-commit without --applyset: %d %s", code, errOut)
	}
}
