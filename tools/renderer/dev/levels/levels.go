// Package levels renders a kustomization the way the Bazel rules do: each
// base on its own into a snapshot, before the parent that names it, and
// every parent from its bases' snapshots, never from their sources (unless
// its tree sets openapi or a base's helm chart inherits the namespace, as
// the rules' openapi and helm_inherits_namespace attributes say). Each
// render is a build of its own, as each action is a process of its own.
// Tests and the differential fuzzer compare that path with a one-shot build.
package levels

import (
	"errors"
	"fmt"
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/snapshot"
)

// Chain renders bases into snapshots on demand; it is the Prebuilt of
// every render it runs.
type Chain struct {
	FS filesys.FileSystem
	// Options are those of every render; Prebuilt, Hermetic, Label,
	// Snapshot, SnapshotOnly and Origins are set per render.
	Options render.Options
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
	// need is the base the last Lookup found without a snapshot.
	need string
}

// Render renders dir from its bases' snapshots (rendered first) and writes
// its snapshot too. When dir's buildMetadata needs origins, the bases are
// rendered again with them, as the rules' build_metadata attribute asks.
func (c *Chain) Render(dir string) (*render.Result, error) {
	c.init()
	res, err := c.render(dir, false)
	if errors.Is(err, accumulate.ErrNoOrigins) && !c.Origins {
		c.Origins, c.done, c.Order = true, nil, nil
		c.init()
		res, err = c.render(dir, false)
	}
	return res, err
}

// render renders dir, first rendering each base it names that has no
// snapshot yet (kyaml's schema is process-wide: a base's render must not
// run nested in its parent's).
func (c *Chain) render(dir string, base bool) (*render.Result, error) {
	opts := c.Options
	opts.Prebuilt, opts.Hermetic, opts.Label = c, true, c.label(dir)
	// A base renders as the rule's snapshot action: only its snapshot.
	opts.Snapshot, opts.SnapshotOnly, opts.Origins = true, base, base && c.Origins
	fromSources, err := render.NeedsBaseSources(c.FS, dir)
	if err != nil {
		return nil, err
	}
	opts.BasesFromSources = fromSources
	for {
		c.need = ""
		res, err := render.Render(c.FS, dir, opts)
		need := c.need
		if err == nil || need == "" {
			return res, err
		}
		if c.inFlight[need] {
			return nil, fmt.Errorf("cycle detected at %s", need)
		}
		c.inFlight[need] = true
		res, err = c.render(need, true)
		delete(c.inFlight, need)
		if err != nil {
			return nil, err
		}
		c.done[need] = res.Snapshot
		c.Order = append(c.Order, need)
	}
}

// errNeedBase stops a render that names a base without a snapshot yet
// (Chain.need says which; errors on the way up may not wrap it).
var errNeedBase = errors.New("no snapshot yet for this base")

func (c *Chain) init() {
	if c.done == nil {
		c.done, c.inFlight = map[string][]byte{}, map[string]bool{}
	}
}

func (c *Chain) label(dir string) string {
	if c.Label != nil {
		return c.Label(dir)
	}
	return "//" + dir
}

// Lookup serves the snapshot of the base in dir, or stops the render
// asking for it (errNeedBase).
func (c *Chain) Lookup(dir string) (*accumulate.Accumulation, string, bool, error) {
	dir = filepath.Clean(dir)
	data, ok := c.done[dir]
	if !ok {
		c.need = dir
		return nil, "", false, errNeedBase
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
