//go:build bazel

package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

// TestOfflineChroot: the offline Bazel's chroot (dev/offline/bazel7) sees a directory
// that was deleted and made again at the same path since it was bound, as a CI machine's
// checkout is between two runs. A bind of the deleted directory counted as bound failed
// CI with getcwd() in `bazel mod graph`.
func TestOfflineChroot(t *testing.T) {
	if !bazeltest.Offline() {
		t.Skip("KRM_OFFLINE=0: Bazel from PATH, no chroot")
	}
	root := bazeltest.Root(t)
	scripts := filepath.Join(root, "dev", "offline", "bazel7")
	// Outside /tmp and the checkout, which are bound whole: this path gets a bind of its own.
	parent, err := os.MkdirTemp("/var/tmp", "krm-chroot-test-")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "checkout")
	chrootRoot := strings.TrimSpace(script(t, "bash", "-c", `. "$0"/env.sh && echo "$B7_ROOT"`, scripts))
	t.Cleanup(func() {
		_ = exec.Command("umount", "-l", chrootRoot+dir).Run()
		_ = os.RemoveAll(parent)
	})

	inChroot := func(marker string) string {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		bazeltest.WriteFile(t, filepath.Join(dir, "marker"), marker)
		script(t, filepath.Join(scripts, "mount.sh"), dir)
		return script(t, filepath.Join(scripts, "inchroot.sh"), dir, "sh", "-c", `pwd && cat marker`)
	}
	if got, want := inChroot("first\n"), dir+"\nfirst\n"; got != want {
		t.Fatalf("in the chroot, %s holds %q, want %q", dir, got, want)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if got, want := inChroot("second\n"), dir+"\nsecond\n"; got != want {
		t.Errorf("after deleting and making %s again, the chroot shows %q, want %q", dir, got, want)
	}
}

// script runs a command and returns its stdout, failing the test with its output otherwise.
func script(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}
