package difftest

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/build"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/snapshot"
	"github.com/rules-krm/rules_krm/tools/textdiff"
)

// snapshotChain renders every base on its own into a snapshot, decodes it
// and hands the decoded accumulation to the parent, the way Bazel actions
// chain: no base is ever read from its sources by its parent.
type snapshotChain struct {
	fs       filesys.FileSystem
	opts     build.Options
	done     map[string][]byte
	inFlight map[string]bool
	rendered int
}

func (c *snapshotChain) Lookup(dir string) (*accumulate.Accumulation, string, bool, error) {
	dir = filepath.Clean(dir)
	data, ok := c.done[dir]
	if !ok {
		if c.inFlight[dir] {
			return nil, "", false, fmt.Errorf("cycle detected at %s", dir)
		}
		c.inFlight[dir] = true
		opts := c.opts
		opts.Prebuilt, opts.Hermetic, opts.Label = c, true, "//"+dir
		res, err := build.Render(c.fs, dir, opts, true)
		delete(c.inFlight, dir)
		if err != nil {
			return nil, "", false, err
		}
		data = res.Snapshot
		c.done[dir] = data
		c.rendered++
	}
	s, err := snapshot.Decode(data)
	if err != nil {
		return nil, "", false, err
	}
	return s.Accumulation, s.KustomizationKind, true, nil
}

// TestSnapshotLevels proves that rendering level by level through snapshots
// prints exactly what a one-shot build prints, for every differential case.
func TestSnapshotLevels(t *testing.T) {
	for _, tc := range loadCases(t) {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			fs := filesys.MakeFsOnDisk()
			dir := filepath.Join(tc.tree, tc.target)
			chain := &snapshotChain{fs: fs, opts: tc.opts, done: map[string][]byte{}, inFlight: map[string]bool{}}
			opts := tc.opts
			opts.Prebuilt, opts.Hermetic, opts.Label = chain, true, "//top"
			res, err := build.Render(fs, dir, opts, true)
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
					chain.rendered, textdiff.Unified(string(tc.wantOut), string(res.Manifests), 3, 200))
			}
			// The snapshot of the top must itself be stable and decodable.
			if _, err := snapshot.Decode(res.Snapshot); err != nil {
				t.Errorf("top snapshot does not decode: %v", err)
			}
		})
	}
}
