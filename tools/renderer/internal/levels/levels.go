// Package levels renders a kustomization the way the Bazel rules do: each
// base on its own into a snapshot, the first time a parent asks for it, and
// every parent from its bases' snapshots, never from their sources. Tests
// and the differential fuzzer compare that path with a one-shot build.
package levels

import (
	"errors"
	"fmt"
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/build"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/snapshot"
)

// Chain renders bases into snapshots on demand; it is the Prebuilt of
// every render it runs.
type Chain struct {
	FS filesys.FileSystem
	// Options are those of every render; Prebuilt, Hermetic, Label,
	// SnapshotOnly and Origins are set per render.
	Options build.Options
	// Label returns the Bazel label of a directory (default "//" + dir).
	Label func(dir string) string
	// Origins renders the bases' snapshots with origins, as the rules do
	// for a kustomization whose buildMetadata asks (build_metadata = True).
	Origins bool
	// Order lists the bases in the order their renders finished: each
	// after the bases it includes.
	Order []string

	done     map[string][]byte
	inFlight map[string]bool
}

// Render renders dir from its bases' snapshots (rendered first) and writes
// its snapshot too. When dir's buildMetadata needs origins, the bases are
// rendered again with them, as the rules' build_metadata attribute asks.
func (c *Chain) Render(dir string) (*build.Result, error) {
	res, err := c.render(dir, false)
	if errors.Is(err, accumulate.ErrNoOrigins) && !c.Origins {
		c.Origins, c.done, c.Order = true, nil, nil
		res, err = c.render(dir, false)
	}
	return res, err
}

func (c *Chain) render(dir string, base bool) (*build.Result, error) {
	opts := c.Options
	opts.Prebuilt, opts.Hermetic, opts.Label = c, true, c.label(dir)
	// A base renders as the rule's snapshot action: only its snapshot.
	opts.SnapshotOnly, opts.Origins = base, base && c.Origins
	return build.Render(c.FS, dir, opts, true)
}

func (c *Chain) label(dir string) string {
	if c.Label != nil {
		return c.Label(dir)
	}
	return "//" + dir
}

// Lookup renders the base in dir, unless done already, and decodes its
// snapshot.
func (c *Chain) Lookup(dir string) (*accumulate.Accumulation, string, bool, error) {
	dir = filepath.Clean(dir)
	if c.done == nil {
		c.done, c.inFlight = map[string][]byte{}, map[string]bool{}
	}
	data, ok := c.done[dir]
	if !ok {
		if c.inFlight[dir] {
			return nil, "", false, fmt.Errorf("cycle detected at %s", dir)
		}
		c.inFlight[dir] = true
		res, err := c.render(dir, true)
		delete(c.inFlight, dir)
		if err != nil {
			return nil, "", false, err
		}
		data = res.Snapshot
		c.done[dir] = data
		c.Order = append(c.Order, dir)
	}
	return Fixed{dir: data}.Lookup(dir)
}

// Fixed serves snapshots rendered before, by directory.
type Fixed map[string][]byte

// Lookup decodes the snapshot of dir, if there is one.
func (f Fixed) Lookup(dir string) (*accumulate.Accumulation, string, bool, error) {
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
