package publish

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookOutputEscaped: what a remote's hook prints (relayed by git as "remote: ...") reaches
// krm's error with its terminal controls shown as escapes, not run.
func TestHookOutputEscaped(t *testing.T) {
	needGit(t)
	repo := newBare(t)
	hook := filepath.Join(repo, "hooks", "pre-receive")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nprintf 'refused \\033]0;owned\\007\\033[2J\\r done\\n' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	o := options(t, "file://"+repo, sha1)
	o.TempDir = t.TempDir()
	_, err := Publish(context.Background(), o, manifests(t, map[string]string{"prod": "kind: A\n"}))
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("got %v, want the hook's refusal", err)
	}
	if strings.ContainsAny(err.Error(), "\x1b\x07\r") {
		t.Errorf("the hook's controls reach the error raw: %q", err)
	}
}

// TestLimitedBufferHoldsUnderCopy: io.Copy, as os/exec copies a command's output, cannot
// fill the buffer past its bound.
func TestLimitedBufferHoldsUnderCopy(t *testing.T) {
	b := &limitedBuffer{max: 1 << 10}
	if _, err := io.Copy(b, strings.NewReader(strings.Repeat("x", 1<<20))); err != nil {
		t.Fatal(err)
	}
	if n := len(b.String()); n != 1<<10 || !b.over {
		t.Errorf("%d bytes kept (over %v), want 1024 and the overflow noted", n, b.over)
	}
}
