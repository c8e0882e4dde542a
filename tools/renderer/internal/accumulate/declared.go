package accumulate

import (
	"fmt"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// Owner is the label of the build target that declares the kustomization
// in the absolute directory dir: a component's, read from its snapshot, or
// the target being built.
func (e *Env) Owner(dir string) string {
	if l, ok := e.Owners[filepath.Clean(dir)]; ok {
		return l
	}
	if e.Label != "" {
		return e.Label
	}
	return "the target"
}

// MissingFileHint is the load.MissingHint of a hermetic build: the file
// named path from the kustomization in root is to be declared in srcs.
func (e *Env) MissingFileHint(root, path string) string {
	return fmt.Sprintf("add %s to srcs of %s", load.Rel(filepath.Join(root, path)), e.Owner(root))
}

// undeclared is the error for an entry of field (resources or components)
// naming path, which resolves to the absolute dir and is neither a
// declared file nor a declared base or component. Without a sandbox's
// view of the source tree, a file and a directory are told apart by the
// name: an entry with a YAML or JSON extension is a file.
func (t *Target) undeclared(field, path, dir string) error {
	owner := t.env.Owner(t.ldr.Root())
	ws := load.Rel(dir)
	var fix string
	switch {
	case field == "resources" && looksLikeFile(path):
		fix = fmt.Sprintf("add %s to srcs of %s", ws, owner)
	case field == "resources":
		fix = fmt.Sprintf("add the krm_kustomization target of %s to deps of %s (or, if it is a file, add it to srcs of %s)", ws, owner, owner)
	default:
		fix = fmt.Sprintf("add the krm_kustomization target of %s to deps of %s", ws, owner)
	}
	return fmt.Errorf("'%s' (%s of %s) %w: %s", path, field, t.kustPath(), load.ErrUndeclared, fix)
}

func looksLikeFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// checkDeclaredComponent fails unless the components entry path names a
// declared component: its files are declared inputs (from its snapshot).
func (t *Target) checkDeclaredComponent(path string) error {
	dir, err := t.ldr.DirPath(path)
	if err != nil || t.ldr.FS().Exists(dir) {
		return nil // the loader reports bad paths; the directory is there
	}
	if t.env.Prebuilt != nil {
		if _, kind, ok, err := t.env.Prebuilt.Lookup(dir); err != nil {
			return err
		} else if ok {
			return fmt.Errorf("expected kind '%s' for path '%s' but got '%s'", types.ComponentKind, dir, kind)
		}
	}
	return t.undeclared("components", path, dir)
}
