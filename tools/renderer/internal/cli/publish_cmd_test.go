package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPublishCommand runs krm publish as `bazel run` would (relative --repo
// against BUILD_WORKING_DIRECTORY, the source checkout from
// BUILD_WORKSPACE_DIRECTORY): a publish, the same again, a dirty checkout.
func TestPublishCommand(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("the test needs git on PATH: %v", err) // never a skip: bazel test would count it passed
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"NAME", "EMAIL"} {
		for _, role := range []string{"GIT_AUTHOR_", "GIT_COMMITTER_"} {
			t.Setenv(role+k, "") // restored after the test
			os.Unsetenv(role + k)
		}
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	work := t.TempDir()
	src := filepath.Join(work, "src")
	git("init", "-q", src)
	manifests := filepath.Join(src, "prod.yaml")
	os.WriteFile(manifests, []byte("kind: A\n"), 0o644)
	git("-C", src, "add", ".")
	git("-C", src, "commit", "-q", "-m", "src")
	head := git("-C", src, "rev-parse", "HEAD")
	git("init", "-q", "--bare", filepath.Join(work, "remote.git"))
	t.Setenv("BUILD_WORKING_DIRECTORY", work)
	t.Setenv("BUILD_WORKSPACE_DIRECTORY", src)

	args := []string{"publish", "deploy/prod=" + manifests, "--repo", "remote.git", "--branch", "env/prod",
		"--author-name", "CI", "--author-email", "ci@example.com", "--command", "bazel build //deploy:prod"}
	code, stdout, stderr := runCLI(args...)
	tip := git("--git-dir="+filepath.Join(work, "remote.git"), "rev-parse", "env/prod")
	want := "source commit " + head + " (HEAD of " + src + ")\n" +
		"env/prod does not exist in " + filepath.Join(work, "remote.git") + ": creating it (no parent commit)\n" +
		"pushed env/prod: commit " + tip + "\n" +
		"  A deploy/prod/manifest.yaml\n" +
		"  A hydrator.metadata\n"
	if code != 0 || stdout != want {
		t.Fatalf("first publish: exit %d\n%s\nstdout:\n%s\nwant:\n%s", code, stderr, stdout, want)
	}
	if who := git("--git-dir="+filepath.Join(work, "remote.git"), "log", "-1", "--format=%an <%ae> %cn <%ce>", "env/prod"); who != "CI <ci@example.com> CI <ci@example.com>" {
		t.Errorf("author and committer: %s", who)
	}

	code, stdout, stderr = runCLI(args...)
	if want := "no change: env/prod (commit " + tip + ") holds these manifests\n"; code != 0 || !strings.HasSuffix(stdout, want) {
		t.Fatalf("second publish: exit %d\n%s\nstdout:\n%s\nwant it to end with %q", code, stderr, stdout, want)
	}

	os.WriteFile(manifests, []byte("kind: B\n"), 0o644)
	code, _, stderr = runCLI(args...)
	if code != 1 || !strings.Contains(stderr, "source checkout "+src+" has uncommitted changes (M prod.yaml ...)") {
		t.Fatalf("dirty checkout: exit %d, stderr:\n%s", code, stderr)
	}
	if now := git("--git-dir="+filepath.Join(work, "remote.git"), "rev-parse", "env/prod"); now != tip {
		t.Errorf("a refused publish moved the branch to %s", now)
	}
}

func TestPublishCommandUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"publish"}, "krm publish needs PATH=MANIFESTS arguments, --repo and --branch"},
		{[]string{"publish", "a=b.yaml", "--repo", "r"}, "krm publish needs PATH=MANIFESTS arguments, --repo and --branch"},
		{[]string{"publish", "prod", "--repo", "r", "--branch", "b"}, `"prod": want PATH=MANIFESTS`},
		{[]string{"publish", "--no-such-flag"}, "unknown flag: --no-such-flag"},
	} {
		code, _, stderr := runCLI(tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("krm %v: exit %d, stderr:\n%s\nwant exit 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestPublishInterrupted: SIGTERM (or SIGINT) during the push stops git and all it started,
// removes the temporary repository (the manifests, Secrets included), and exits 1 saying so;
// the branch does not move. Before, krm died at once: the temporary repository stayed in
// $TMPDIR, and the push went on without it.
func TestPublishInterrupted(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("the test needs git on PATH: %v", err)
	}
	work := t.TempDir()
	remote := filepath.Join(work, "remote.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", remote).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	started, marker := filepath.Join(work, "hook-started"), filepath.Join(work, "hook-finished")
	if err := os.WriteFile(filepath.Join(remote, "hooks", "pre-receive"), []byte("#!/bin/sh\ntouch "+started+"\nsleep 3\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	manifests := filepath.Join(work, "prod.yaml")
	if err := os.WriteFile(manifests, []byte("kind: Secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "publish", "prod="+manifests, "--repo", "file://"+remote, "--branch", "env/prod",
		"--source-commit", strings.Repeat("a", 40))
	cmd.Env = append(os.Environ(), childEnv+"="+work, "TMPDIR="+tmp, "HOME="+work, "GIT_CONFIG_NOSYSTEM=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 400; i++ { // until the push is under way
		if _, err := os.Stat(started); err == nil {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), "krm publish got SIGTERM") {
		t.Errorf("exit %v, want 1 and the signal named:\n%s", err, stderr.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind in $TMPDIR: %v", left)
	}
	time.Sleep(4 * time.Second) // past the hook's sleep
	if _, err := os.Stat(marker); err == nil {
		t.Error("the remote's hook ran on after krm was stopped")
	}
	if out, _ := exec.Command("git", "--git-dir="+remote, "rev-parse", "--verify", "-q", "refs/heads/env/prod").Output(); len(out) > 0 {
		t.Errorf("the branch moved to %s", out)
	}
}
