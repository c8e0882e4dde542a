package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/hydrated"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

// Given renders are the base revision's manifests made by another job, in
// the layout of package hydrated: a checkout of the branch krm publish
// writes, or a directory main's CI kept (--write-base-manifests). They
// serve instead of a build at the base once takeGiven has checked that
// they are the merge base's and cover its targets.

// maxMetadataBytes bounds a hydrator.metadata file (a few lines of JSON).
const maxMetadataBytes = 1 << 20

// renderTree is a tree of given renders.
type renderTree interface {
	// read returns the files at the slash-separated paths: each a regular
	// file of at most limit bytes. A path with nothing there is left out;
	// anything else (a symbolic link, a directory, a larger file) is an
	// error naming it.
	read(paths []string, limit int64) (map[string][]byte, error)
	// String names the tree in messages: "base manifests in DIR".
	String() string
}

// dirTree is a directory of given renders (--base-manifests DIR): no path
// leaves it, through symbolic links or otherwise.
type dirTree struct {
	dir string // as the user gave it, for messages
}

func (d dirTree) String() string { return "base manifests in " + d.dir }

func (d dirTree) read(paths []string, limit int64) (map[string][]byte, error) {
	root, err := os.OpenRoot(d.dir)
	if err != nil {
		return nil, fmt.Errorf("cannot open the directory: %w", errors.Unwrap(err))
	}
	defer root.Close()
	files := map[string][]byte{}
	for _, p := range paths {
		data, err := readRegular(root, filepath.FromSlash(p), limit)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path.Join(filepath.ToSlash(d.dir), p), err)
		}
		files[p] = data
	}
	return files, nil
}

// readRegular reads the regular file at name in root, of at most limit
// bytes.
func readRegular(root *os.Root, name string, limit int64) ([]byte, error) {
	fi, err := root.Lstat(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && !errors.Is(err, fs.ErrNotExist) {
			return nil, pe.Err // "path escapes from parent": a link out of the tree on the way
		}
		return nil, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("a symbolic link, not a regular file")
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("not a regular file")
	case fi.Size() > limit:
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("larger than %d bytes", limit)
	}
	return data, err
}

// takeGiven writes the manifests of targets (krm_kustomization labels of
// the workspace) from t into dir, each by its path below bazel-bin
// (PKG/NAME_manifests.yaml), once it has checked that they are the renders
// of commit: the hydrator.metadata that applies to each (its directory's,
// else the root's) names commit, and every target's manifest.yaml is
// there, but for those that components picks (of the targets with none)
// as having no manifests output. The error says why they cannot serve.
func takeGiven(t renderTree, commit string, targets []string, components func([]string) ([]string, error), dir string) error {
	type target struct{ label, dir, bin string }
	var ts []target
	want := []string{hydrated.MetadataFile}
	for _, l := range targets {
		pkg, name, ok := splitLabel(l)
		if !ok {
			return fmt.Errorf("%s: %s is not a label of the workspace", t, l)
		}
		d := hydrated.DeploymentPath(pkg, name)
		ts = append(ts, target{l, d, path.Join(pkg, name+"_manifests.yaml")})
		want = append(want, path.Join(d, hydrated.MetadataFile))
	}
	meta, err := t.read(want, maxMetadataBytes)
	if err != nil {
		return fmt.Errorf("%s: %w", t, err)
	}
	parsed := map[string]string{} // metadata file → the commit it names
	for p, data := range meta {
		m, err := hydrated.ParseMetadata(data)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", t, p, err)
		}
		parsed[p] = m.DrySha
	}
	manifests := make([]string, len(ts))
	for i, tg := range ts {
		manifests[i] = path.Join(tg.dir, hydrated.ManifestFile)
		file := path.Join(tg.dir, hydrated.MetadataFile)
		named, ok := parsed[file]
		if !ok {
			file = hydrated.MetadataFile
			named, ok = parsed[file]
		}
		switch {
		case !ok:
			return fmt.Errorf("%s: no %s names their commit (none at the root, none in %s)", t, hydrated.MetadataFile, tg.dir)
		case named != commit:
			return fmt.Errorf("%s name commit %.12s (%s), the merge base is %.12s", t, named, file, commit)
		}
	}
	files, err := t.read(manifests, yamlread.MaxFileBytes)
	if err != nil {
		return fmt.Errorf("%s: %w", t, err)
	}
	var absent []string
	for i, tg := range ts {
		if _, ok := files[manifests[i]]; !ok {
			absent = append(absent, tg.label)
		}
	}
	none := map[string]bool{} // the absent ones with no manifests to have
	if len(absent) > 0 && components != nil {
		comps, err := components(absent)
		if err != nil {
			return err
		}
		for _, l := range comps {
			none[l] = true
		}
	}
	var missing []string
	for i, tg := range ts {
		if _, ok := files[manifests[i]]; !ok && !none[tg.label] {
			missing = append(missing, fmt.Sprintf("%s (%s)", tg.label, manifests[i]))
		}
	}
	if len(missing) > 0 {
		more := ""
		if len(missing) > 1 {
			more = fmt.Sprintf(" and %d more", len(missing)-1)
		}
		return fmt.Errorf("%s have no manifests of %s%s", t, missing[0], more)
	}
	for i, tg := range ts {
		if none[tg.label] {
			continue
		}
		to := filepath.Join(dir, filepath.FromSlash(tg.bin))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(to, files[manifests[i]], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// splitLabel splits a label of the main repository (//pkg:name, as bazel
// query prints it) into its package and name.
func splitLabel(l string) (pkg, name string, ok bool) {
	l = strings.TrimPrefix(strings.TrimPrefix(l, "@"), "@")
	rest, ok := strings.CutPrefix(l, "//")
	if !ok {
		return "", "", false
	}
	pkg, name, ok = strings.Cut(rest, ":")
	return pkg, name, ok && name != ""
}
