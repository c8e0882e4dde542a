package bazeltest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A build's log as Bazel 7 writes it (fields cut down): a, b's snapshot and c ran, b's
// manifests and d's snapshot with origins came from a cache, plus a Go action.
const execLog = `{"listedOutputs": ["bazel-out/k8-fastbuild/bin/p/a.krmsnap"], "mnemonic": "KrmRender", "commandArgs": ["bin/krm", "render"]}
{"listedOutputs": ["bazel-out/k8-fastbuild/bin/p/a_manifests.yaml"], "mnemonic": "KrmManifests"}
{"listedOutputs": ["bazel-out/k8-fastbuild/bin/p/b.krmsnap"], "mnemonic": "KrmRender"}
{"listedOutputs": ["bazel-out/k8-fastbuild/bin/p/b_manifests.yaml"], "mnemonic": "KrmManifests", "cacheHit": true}
{"listedOutputs": ["bazel-out/k8-fastbuild/bin/p/c_manifests.yaml", "bazel-out/k8-fastbuild/bin/p/c.txt"], "mnemonic": "KrmManifests"}
{"listedOutputs": ["bazel-out/k8-fastbuild/bin/p/d.origins.krmsnap"], "mnemonic": "KrmRenderOrigins", "remoteCacheHit": true}
{"listedOutputs": ["bazel-out/k8-fastbuild/bin/p/e.a"], "mnemonic": "GoCompilePkg"}
`

func TestRendersAndCount(t *testing.T) {
	spawns, err := ParseExecLog(strings.NewReader(execLog))
	if err != nil {
		t.Fatal(err)
	}
	p := "bazel-out/k8-fastbuild/bin/p/"
	if got, want := Renders(spawns, false), []string{p + "a", p + "b", p + "c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Renders(executed) = %q, want %q", got, want)
	}
	if got, want := Renders(spawns, true), []string{p + "b", p + "d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Renders(cached) = %q, want %q", got, want)
	}
	if got := spawns[0].Args; !reflect.DeepEqual(got, []string{"bin/krm", "render"}) {
		t.Errorf("the first spawn's Args = %q", got)
	}
	if n := Count(spawns, "KrmManifests", false); n != 2 {
		t.Errorf("Count(KrmManifests, executed) = %d, want 2", n)
	}
	if n := Count(spawns, "KrmManifests", true); n != 1 {
		t.Errorf("Count(KrmManifests, cached) = %d, want 1", n)
	}
	if _, err := ParseExecLog(strings.NewReader(`{"mnemonic": `)); err == nil {
		t.Error("a truncated log: no error")
	}
}

func TestWriteTxtar(t *testing.T) {
	dir := t.TempDir()
	archive := filepath.Join(dir, "a.txtar")
	WriteFile(t, archive, "a comment\n-- x/a.yaml --\nvalue: NONCE\n-- run.sh --\necho NONCE\n")
	out := filepath.Join(dir, "out")
	WriteTxtar(t, archive, out, "NONCE", "42")
	if b, _ := os.ReadFile(filepath.Join(out, "x/a.yaml")); string(b) != "value: 42\n" {
		t.Errorf("x/a.yaml = %q", b)
	}
	info, err := os.Stat(filepath.Join(out, "run.sh"))
	if err != nil || info.Mode().Perm()&0o100 == 0 {
		t.Errorf("run.sh: not executable (%v)", err)
	}
	if _, err := parseTxtar("-- ../escape --\nx\n"); err == nil {
		t.Error("a name leaving the directory: no error")
	}
}

func TestCopyTreeSkips(t *testing.T) {
	src := t.TempDir()
	for _, f := range []string{"keep/a.txt", "e2e/b.txt", "bazel-out/c", "deep/e2e/d.txt"} {
		WriteFile(t, filepath.Join(src, f), f)
	}
	if err := os.Symlink("keep/a.txt", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "copy")
	if err := CopyTree(src, dest, func(rel string) bool { return rel == "e2e" || strings.HasPrefix(rel, "bazel-") }, 0o027); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{"keep/a.txt": true, "deep/e2e/d.txt": true, "link": true, "e2e/b.txt": false, "bazel-out/c": false} {
		if _, err := os.Stat(filepath.Join(dest, f)); (err == nil) != want {
			t.Errorf("%s copied: %v, want %v", f, err == nil, want)
		}
	}
	if info, err := os.Stat(filepath.Join(dest, "keep/a.txt")); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("keep/a.txt: mode %v (%v), want 0640 (0644 under the umask 027)", info.Mode().Perm(), err)
	}
	if l, err := os.Readlink(filepath.Join(dest, "link")); err != nil || l != "keep/a.txt" {
		t.Errorf("link = %q, %v: want the link copied as a link", l, err)
	}
}
