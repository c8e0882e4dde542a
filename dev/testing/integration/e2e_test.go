//go:build bazel

package integration

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

// consumer is the rules_krm and renderer the consumer tests use: rulesKrm, this checkout
// (whose version has no release: the renderer is built from source, renderer "source") or
// a released copy (TestPrebuilt: renderer "prebuilt"), and the Bazel flags of every command
// (the disk cache; for a release, the downloader config of the loopback server).
type consumer struct {
	root, rulesKrm, renderer string
	flags                    []string
}

func fromSource(t *testing.T) consumer {
	root := bazeltest.Root(t)
	return consumer{root: root, rulesKrm: root, renderer: "source", flags: []string{"--disk_cache=" + bazeltest.DiskCache(t)}}
}

// TestE2E builds and tests e2e/bzlmod, a module that uses rules_krm as the README tells
// users (bazel_dep and Gazelle's usual lines), in a scratch copy: its BUILD files are what
// `bazel run //:gazelle` writes, its golden tests pass (one on a kustomization of rules_krm
// itself), <name>_manifests is the golden, and the golden update targets work.
func TestE2E(t *testing.T) { testE2E(t, fromSource(t)) }

func testE2E(t *testing.T, c consumer) {
	root, flags := c.root, c.flags
	dir := bazeltest.TestDir(t, "e2e-bzlmod")
	ws := filepath.Join(dir, "ws")
	bazeltest.ConsumerModule(t, root, filepath.Join(root, "e2e", "bzlmod"), ws, c.rulesKrm, c.renderer)
	bz := bazeltest.New(t, ws, "") // the default output base of ws, kept between runs
	with := func(args ...string) []string { return append(append([]string{args[0]}, flags...), args[1:]...) }

	bz.Must(t, with("run", "//:gazelle", "--", "-mode=diff")...)
	bz.Must(t, with("test", "--", "//...")...)

	bz.Must(t, with("build", "//app/prod:prod_manifests")...)
	got := readFile(t, filepath.Join(bz.Info(t, "bazel-bin", flags...), "app/prod/prod_manifests.yaml"))
	if want := readFile(t, filepath.Join(ws, "app/prod/prod_manifests.golden.yaml")); got != want {
		t.Errorf("//app/prod:prod_manifests is not the golden:\n%s", lineDiff(want, got))
	}

	// The golden is up to date: the update target leaves it as it is.
	r := bz.Must(t, with("run", "//app/prod:prod_golden_test.update")...)
	if !strings.Contains(r.Output(), "app/prod/prod_manifests.golden.yaml is up to date") {
		t.Errorf("bazel run //app/prod:prod_golden_test.update does not say the golden is up to date:\n%s", r.Output())
	}

	// A golden of another module cannot be updated.
	r = bz.Run(t, with("run", "//:rules_krm_prod_golden_test.update")...)
	if r.ExitCode == 0 || !strings.Contains(r.Output(), "not a source file of the main repository") {
		t.Errorf("bazel run //:rules_krm_prod_golden_test.update exited %d, want a failure saying the golden is not a source file of the main repository:\n%s", r.ExitCode, r.Output())
	}
}
