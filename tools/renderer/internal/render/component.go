package render

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"

	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/inputs"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/snapshot"
)

// checkKind fails when the kustomization's kind is not the one the build
// system expects (opts.Kind): the kind is the file's to say.
func checkKind(t *accumulate.Target, opts Options) error {
	kind := t.Kustomization().Kind
	if kind == "" {
		kind = types.KustomizationKind
	}
	if opts.Kind == "" || opts.Kind == kind {
		return nil
	}
	if standalone(t, opts) {
		return nil
	}
	file := load.Rel(t.Loader().Root() + "/" + t.Kustomization().FileName)
	target := opts.Label
	if target == "" {
		target = "the target"
	}
	return fmt.Errorf("%s has kind %s, but %s says kind = %q: set kind: %s in the file, or drop the kind attribute (the file decides)",
		file, kind, target, opts.Kind, opts.Kind)
}

// standalone reports whether a Component is to be rendered alone, as
// `kustomize build` renders a component directory: its target says kind =
// "Kustomization" (Gazelle's <name>_standalone targets).
func standalone(t *accumulate.Target, opts Options) bool {
	return opts.Kind == types.KustomizationKind && t.Kustomization().Kind == types.ComponentKind
}

// renderComponent checks the Component in t and returns its snapshot (and
// empty manifests: a component has none of its own): its
// declared files, and those of the components and bases it names (so a
// parent needs only this file, whatever the kind of its dep). A component
// acts on the resources of the kustomization that names it, so it is
// applied here to nothing: that reads its files as far as its steps get
// without its parent's resources, and only a read of an undeclared file
// (or a base or component missing from deps) fails.
func renderComponent(t *accumulate.Target, in *inputs.FS, opts Options) (*Result, error) {
	if _, err := t.Accumulate(); err != nil && errors.Is(err, load.ErrUndeclared) {
		return nil, err
	}
	h := snapshot.Header{
		Label:      opts.Label,
		Components: []snapshot.Component{{Dir: in.Rel(t.Loader().Root()), Label: opts.Label}},
	}
	for _, f := range in.Declared() {
		data, err := in.ReadFile(f.Path)
		if err != nil {
			return nil, err
		}
		h.Files = append(h.Files, snapshot.NewFile(f.Path, data))
	}
	dirs := make([]string, 0, len(opts.Deps))
	for dir := range opts.Deps {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		data, err := in.ReadFile(opts.Deps[dir])
		if err != nil {
			return nil, fmt.Errorf("reading snapshot of %s: %w", dir, err)
		}
		dh, err := snapshot.DecodeHeader(data)
		if err != nil {
			return nil, fmt.Errorf("snapshot %s (of %s): %w", opts.Deps[dir], dir, err)
		}
		if dh.KustomizationKind == types.ComponentKind && len(dh.Files) > 0 {
			h.Files = append(h.Files, dh.Files...)
			h.Components = append(h.Components, dh.Components...)
			h.Bases = append(h.Bases, dh.Bases...)
			continue
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		h.Bases = append(h.Bases, snapshot.Base{Dir: in.Rel(abs), Snapshot: string(data)})
	}
	data, err := snapshot.EncodeComponent(h)
	if err != nil {
		return nil, err
	}
	return &Result{Snapshot: data, Manifests: []byte{}, Component: true}, nil
}
