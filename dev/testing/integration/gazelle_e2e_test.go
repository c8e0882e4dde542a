//go:build bazel

package integration

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

// TestGazelleE2E checks the contract of the krm Gazelle language (docs/gazelle.md) on trees
// of kustomizations: copy a tree into a copy of the e2e/bzlmod module, `bazel run
// //:gazelle`, `bazel build --keep_going //...`; then for every directory D with a
// kustomization file that `kustomize build D` (v5.8.2) renders, exactly one
// bazel-bin/D/*_manifests.yaml must exist and be byte-identical to it. A second gazelle run
// must change nothing (`gazelle -mode=diff`, the CI check for missing or unused deps).
//
// The trees: KRM_GAZELLE_TREES (directories separated by ':'), default every
// e2e/gazelle/testdata/*. Extra flags for bazel build: KRM_BAZEL_FLAGS.
func TestGazelleE2E(t *testing.T) { testGazelleE2E(t, fromSource(t)) }

func testGazelleE2E(t *testing.T, c consumer) {
	root := c.root
	flags := append(slices.Clone(c.flags), "--symlink_prefix=/")
	var trees []string
	if env := os.Getenv("KRM_GAZELLE_TREES"); env != "" {
		trees = filepath.SplitList(env)
	} else {
		entries, err := os.ReadDir(filepath.Join(root, "e2e", "gazelle", "testdata"))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				trees = append(trees, filepath.Join(root, "e2e", "gazelle", "testdata", e.Name()))
			}
		}
		if len(trees) == 0 {
			t.Fatal("no tree in e2e/gazelle/testdata")
		}
	}
	// One workspace directory, so one output base whose external repositories stay fetched:
	// the consumer module e2e/bzlmod (MODULE.bazel and the //:gazelle target) without its app.
	dir := bazeltest.TestDir(t, "gazelle-e2e")
	ws := filepath.Join(dir, "ws")
	bz := bazeltest.New(t, ws, "") // the default output base of ws, kept between runs
	for _, tree := range trees {
		tree, err := filepath.Abs(tree)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(tree), func(t *testing.T) {
			bazeltest.ConsumerModule(t, root, filepath.Join(root, "e2e", "bzlmod"), ws, c.rulesKrm, c.renderer)
			if err := os.RemoveAll(filepath.Join(ws, "app")); err != nil {
				t.Fatal(err)
			}
			copyTreeInto(t, tree, ws)

			start := time.Now()
			r := bz.Must(t, append(append([]string{"run"}, flags...), "//:gazelle")...)
			warnings := 0
			for _, line := range strings.Split(r.Stderr, "\n") {
				if strings.HasPrefix(line, "gazelle: ") {
					warnings++
				}
			}
			t.Logf("gazelle: %.1f s (with Bazel's startup and build of gazelle), %d warnings (remote bases, missing files)", time.Since(start).Seconds(), warnings)

			// Idempotent: a second run has nothing to change.
			if r := bz.Run(t, append(append([]string{"run"}, flags...), "//:gazelle", "--", "-mode=diff")...); r.ExitCode != 0 {
				t.Errorf("a second gazelle run would change BUILD files:\n%s", r.Output())
			}

			build := bz.Run(t, append(append(append([]string{"build"}, flags...), bazeltest.Flags("KRM_BAZEL_FLAGS")...), "--keep_going", "--", "//...")...)
			bin := bz.Info(t, "bazel-bin", flags...)
			dirs, renderable, identical := 0, 0, 0
			for _, d := range kustomizationDirs(t, ws) {
				dirs++
				want, _, ok := tryKustomizeBuild(t, root, ws, d)
				if !ok {
					continue
				}
				renderable++
				outs, _ := filepath.Glob(filepath.Join(bin, d, "*_manifests.yaml"))
				switch {
				case len(outs) != 1:
					t.Errorf("%s: %d files bazel-bin/%s/*_manifests.yaml, want 1", d, len(outs), d)
				case readFile(t, outs[0]) != want:
					rel, _ := filepath.Rel(bin, outs[0])
					t.Errorf("%s: %s differs from kustomize build %s: %s", d, rel, d, lineDiff(want, readFile(t, outs[0])))
				default:
					identical++
				}
			}
			t.Logf("kustomization directories: %d; kustomize build renders %d; bazel-bin byte-identical: %d (bazel build --keep_going exit %d)", dirs, renderable, identical, build.ExitCode)
			if t.Failed() {
				for _, line := range strings.Split(build.Stderr, "\n") {
					if strings.HasPrefix(line, "ERROR: ") {
						t.Log(line)
					}
				}
			}
		})
	}
}

// copyTreeInto copies tree into ws but for its workspace files at the top (WORKSPACE,
// WORKSPACE.bzlmod, MODULE.bazel, BUILD.bazel): the consumer module's stay.
func copyTreeInto(t *testing.T, tree, ws string) {
	t.Helper()
	top := map[string]bool{"WORKSPACE": true, "WORKSPACE.bzlmod": true, "MODULE.bazel": true, "BUILD.bazel": true}
	err := filepath.WalkDir(tree, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(tree, path)
		switch {
		case rel == ".":
			return nil
		case top[rel]:
			return nil
		case d.IsDir():
			return os.MkdirAll(filepath.Join(ws, rel), 0o755)
		case d.Type().IsRegular():
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(ws, rel), b, info.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// kustomizationDirs is every directory of ws (relative, sorted) holding a kustomization
// file, outside bazel-* symlinks.
func kustomizationDirs(t *testing.T, ws string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(ws, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), "bazel-") {
			return filepath.SkipDir
		}
		switch d.Name() {
		case "kustomization.yaml", "kustomization.yml", "Kustomization":
			rel, _ := filepath.Rel(ws, filepath.Dir(path))
			dirs = append(dirs, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}
