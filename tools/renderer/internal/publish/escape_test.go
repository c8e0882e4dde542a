package publish

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// TestCancelledPushStopsGitAndItsChildren: when the context ends during the push (krm got
// SIGINT or SIGTERM, or its timeout passed), git and every process it started (here the
// remote's pre-receive hook, run by git-receive-pack below git push) are killed, the
// temporary repository is removed, and the branch does not move. Before, only git was
// killed: the hook ran on, and the push completed without krm.
func TestCancelledPushStopsGitAndItsChildren(t *testing.T) {
	needGit(t)
	repo := newBare(t)
	marks := t.TempDir()
	started, marker := filepath.Join(marks, "hook-started"), filepath.Join(marks, "hook-finished")
	hook := filepath.Join(repo, "hooks", "pre-receive")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch "+started+"\nsleep 3\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	o := options(t, "file://"+repo, sha1)
	o.TempDir = t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancel once the hook runs (the push is under way).
		for i := 0; i < 400; i++ {
			if _, err := os.Stat(started); err == nil {
				break
			}
			time.Sleep(25 * time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	_, err := Publish(ctx, o, manifests(t, map[string]string{"prod": "kind: A\n"}))
	if err == nil {
		t.Fatal("the push completed")
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("Publish returned after %.1f s", d.Seconds())
	}
	time.Sleep(4 * time.Second) // past the hook's sleep
	if _, err := os.Stat(marker); err == nil {
		t.Error("the hook ran on after the push was cancelled")
	}
	if out, _ := exec.Command("git", "--git-dir="+repo, "rev-parse", "--verify", "-q", "refs/heads/env/prod").Output(); len(out) > 0 {
		t.Errorf("the branch moved to %s", out)
	}
	if left, _ := os.ReadDir(o.TempDir); len(left) != 0 {
		t.Errorf("left behind in the temporary directory: %v", left)
	}
}
