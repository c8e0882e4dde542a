package difftest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
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
	// order lists the bases in the order their renders finished: each
	// after the bases it includes.
	order []string
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
		c.order = append(c.order, dir)
	}
	s, err := snapshot.Decode(data)
	if err != nil {
		return nil, "", false, err
	}
	return s.Accumulation, s.KustomizationKind, true, nil
}

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

// fixedSnapshots hands out the snapshots rendered so far.
type fixedSnapshots map[string][]byte

func (f fixedSnapshots) Lookup(dir string) (*accumulate.Accumulation, string, bool, error) {
	data, ok := f[filepath.Clean(dir)]
	if !ok {
		return nil, "", false, nil
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
			// Again as Bazel runs it: each kustomization in a process of its
			// own, bases first. The one state renders in a process share is
			// kyaml's OpenAPI schema, so only trees that set one need it.
			if !usesOpenAPI(t, tc.tree) {
				return
			}
			separate := fixedSnapshots{}
			for _, base := range chain.order {
				opts := tc.opts
				opts.Prebuilt, opts.Hermetic, opts.Label = separate, true, "//"+base
				r, err := build.Render(fs, base, opts, true)
				if err != nil {
					t.Fatalf("rendering %s on its own: %v", base, err)
				}
				separate[base] = r.Snapshot
			}
			opts.Prebuilt = separate
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
