//go:build bazel

package integration

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

// TestDiskCache checks that render actions are shared through a disk cache: two output
// bases build //examples/... with the same --disk_cache; the first runs every render
// action, the second runs none (all are cache hits) and gets the same manifests and
// snapshots. It runs in a copy of the repository whose kustomization files get a comment
// that is new on every run, so that the first build cannot find its render actions in the
// cache; the output bases are kept between runs.
func TestDiskCache(t *testing.T) {
	_, dir, ws, nonce := scratchCopy(t, "cache")
	err := filepath.WalkDir(filepath.Join(ws, "examples"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() != "kustomization.yaml" {
			return err
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		_, err = f.WriteString("# cache test run " + nonce + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	a := bazeltest.New(t, ws, filepath.Join(dir, "output_base_a"))
	b := bazeltest.New(t, ws, filepath.Join(dir, "output_base_b"))
	cache := "--disk_cache=" + bazeltest.DiskCache(t)

	// Every krm_kustomization that `bazel build //examples/...` builds or needs (those
	// tagged manual only when another target depends on them) renders.
	q := a.Must(t, "query", `kind(krm_kustomization_rule, deps(//examples/... except attr(tags, "manual", //examples/...)))`)
	kustomizations := len(strings.Fields(q.Stdout))
	if kustomizations == 0 {
		t.Fatalf("no krm_kustomization in //examples/...")
	}
	for i, bz := range []*bazeltest.Bazel{a, b} {
		log := filepath.Join(dir, "exec_"+"ab"[i:i+1]+".json")
		// --remote_download_outputs=all: Bazel 7 leaves cache hits that are not top-level
		// outputs (the snapshots) in the cache; the comparison below reads them.
		bz.Must(t, "build", cache, "--remote_download_outputs=all", "--execution_log_json_file="+log, "//examples/...")
		spawns := bazeltest.ExecLog(t, log)
		executed, cached := len(bazeltest.Renders(spawns, false)), len(bazeltest.Renders(spawns, true))
		wantExecuted, wantCached := kustomizations, 0
		if i == 1 {
			wantExecuted, wantCached = 0, kustomizations
		}
		t.Logf("output base %d: targets rendered %d, from the cache %d (%d kustomizations)", i+1, executed, cached, kustomizations)
		if executed != wantExecuted || cached != wantCached {
			t.Errorf("output base %d: %d targets rendered and %d from the cache, want %d and %d", i+1, executed, cached, wantExecuted, wantCached)
		}
	}

	binA, binB := a.Info(t, "bazel-bin"), b.Info(t, "bazel-bin")
	n := 0
	err = filepath.WalkDir(filepath.Join(binA, "examples"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasSuffix(d.Name(), ".runfiles") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(d.Name(), "_manifests.yaml") || strings.HasSuffix(d.Name(), ".krmsnap")) {
			return nil
		}
		rel, _ := filepath.Rel(binA, path)
		n++
		if got, want := readFileOrEmpty(filepath.Join(binB, rel)), readFile(t, path); got != want {
			t.Errorf("%s differs between the output bases", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("compared %d manifests and snapshots between the output bases", n)
	if n == 0 {
		t.Error("no outputs to compare")
	}
}

func readFileOrEmpty(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}
