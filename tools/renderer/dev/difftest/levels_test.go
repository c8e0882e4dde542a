package difftest

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/internal/textdiff"
	"github.com/rules-krm/rules_krm/tools/renderer/dev/levels"
)

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
		})
	}
}
