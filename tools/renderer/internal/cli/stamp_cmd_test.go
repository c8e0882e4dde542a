package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStampCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string { return writeTemp(t, dir, name, content) }
	in := write("in.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    commit: '{STABLE_GIT_COMMIT}'\n  name: c\n")
	stable := write("stable-status.txt", "STABLE_GIT_COMMIT abc123\nBUILD_HOST h\n")
	volatile := write("volatile-status.txt", "BUILD_TIMESTAMP 1700000000\n")
	out := filepath.Join(dir, "out.yaml")

	code, _, stderr := runCLI("stamp", in, "-o", out, "--status", stable, "--status", volatile)
	if code != 0 {
		t.Fatalf("krm stamp: exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    commit: abc123\n  name: c\n"; string(got) != want {
		t.Errorf("stamped:\n%s\nwant:\n%s", got, want)
	}

	// A key the status lacks: exit 1, no output file.
	missing := filepath.Join(dir, "missing.yaml")
	code, _, stderr = runCLI("stamp", in, "-o", missing, "--status", volatile)
	if code != 1 || !strings.Contains(stderr, "metadata.labels.commit: {STABLE_GIT_COMMIT} is not a key of the workspace status") {
		t.Errorf("krm stamp without the key: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("krm stamp left %s after an error", missing)
	}

	if code, _, _ := runCLI("stamp", in); code != 2 {
		t.Errorf("krm stamp without -o: exit %d, want 2", code)
	}
}

// writeTemp writes a test file into dir and returns its path.
func writeTemp(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
