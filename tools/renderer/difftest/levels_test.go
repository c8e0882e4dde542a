package difftest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/build"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/levels"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/snapshot"
	"github.com/rules-krm/rules_krm/tools/textdiff"
)

// usesOpenAPI reports whether a kustomization file under tree has an
// openapi field.
func usesOpenAPI(t *testing.T, tree string) bool {
	found := false
	err := filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(strings.ToLower(d.Name()), "kustomization") {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte("openapi:")) {
			found = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestSnapshotLevels proves that rendering level by level through snapshots
// prints exactly what a one-shot build prints, for every differential case.
func TestSnapshotLevels(t *testing.T) {
	for _, tc := range loadCases(t) {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			fs := filesys.MakeFsOnDisk()
			dir := filepath.Join(tc.tree, tc.target)
			chain := &levels.Chain{FS: fs, Options: tc.opts}
			res, err := chain.Render(dir)
			if want, ok, rerr := readOptional(filepath.Join(tc.dir, fileLevelsError)); rerr != nil {
				t.Fatal(rerr)
			} else if ok {
				// kustomize succeeds but rendering bases on their own cannot.
				if err == nil || !strings.Contains(err.Error(), strings.TrimSpace(string(want))) {
					t.Fatalf("snapshot chain: got error %v, want one containing %q (%s)", err, want, fileLevelsError)
				}
				return
			}
			if tc.wantErr != nil {
				if err == nil {
					t.Fatalf("kustomize fails on this case but the snapshot chain rendered:\n%s", res.Manifests)
				}
				return
			}
			if err != nil {
				t.Fatalf("snapshot chain failed: %v", err)
			}
			if !bytes.Equal(res.Manifests, tc.wantOut) {
				t.Errorf("snapshot chain output differs from kustomize's (%d bases rendered separately)\n%s",
					len(chain.Order), textdiff.Unified(string(tc.wantOut), string(res.Manifests), 3, 200))
			}
			// Again as Bazel runs it: each kustomization in a process of its
			// own, bases first. The one state renders in a process share is
			// kyaml's OpenAPI schema, so only trees that set one need it.
			if !usesOpenAPI(t, tc.tree) {
				return
			}
			separate := levels.Fixed{}
			opts := tc.opts
			opts.Hermetic, opts.Prebuilt = true, separate
			for _, base := range chain.Order {
				opts := opts
				opts.Label, opts.SnapshotOnly, opts.Origins = "//"+base, true, chain.Origins
				r, err := build.Render(fs, base, opts, true)
				if err != nil {
					t.Fatalf("rendering %s on its own: %v", base, err)
				}
				separate[base] = r.Snapshot
			}
			opts.Label = "//" + dir
			if res, err = build.Render(fs, dir, opts, true); err != nil {
				t.Fatalf("rendering the top on its own: %v", err)
			}
			if !bytes.Equal(res.Manifests, tc.wantOut) {
				t.Errorf("output of separate renders differs from kustomize's\n%s",
					textdiff.Unified(string(tc.wantOut), string(res.Manifests), 3, 200))
			}
			// The snapshot of the top must itself be stable and decodable.
			if _, err := snapshot.Decode(res.Snapshot); err != nil {
				t.Errorf("top snapshot does not decode: %v", err)
			}
		})
	}
}
