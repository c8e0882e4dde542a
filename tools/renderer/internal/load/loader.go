// Package load reads a kustomization's files: it resolves paths against the
// kustomization root, enforces the load restrictor, refuses remote content
// (builds are hermetic) and detects base cycles.
package load

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/api/ifc"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/internal/kustref"
)

// Restrictor says which files a kustomization may read.
type Restrictor int

const (
	// RootOnly allows only files in or below the kustomization root (kustomize's default).
	RootOnly Restrictor = iota
	// None allows any file.
	None
)

// ParseRestrictor accepts kustomize's flag spellings; "" means RootOnly.
func ParseRestrictor(s string) (Restrictor, error) {
	switch s {
	case "", "LoadRestrictionsRootOnly", "rootOnly":
		return RootOnly, nil
	case "LoadRestrictionsNone", "none":
		return None, nil
	}
	return RootOnly, fmt.Errorf("unknown load restrictor %q: want LoadRestrictionsRootOnly or LoadRestrictionsNone", s)
}

// ErrRemote marks a reference to content outside the file system.
var ErrRemote = errors.New("remote content is not supported")

// MissingHint, when set, is appended to "file not found" errors so that a
// build system can tell the user which declaration to add. It gets the
// root of the kustomization that names the file and the path as written.
type MissingHint func(root, path string) string

// ErrUndeclared marks a file, base or component that the build system did
// not declare as an input (an error with a MissingHint wraps it).
var ErrUndeclared = errors.New("is not a declared input")

// Links says how the RootOnly restrictor treats symbolic links.
type Links int

const (
	// ResolveLinks judges the file a path leads to after following every
	// symbolic link, as kustomize does: a link (or a directory link on the
	// way) that leads out of the root is refused. The default.
	ResolveLinks Links = iota
	// KeepLinks judges the path as written. Under Bazel (krm render
	// --hermetic) every input is a symbolic link into the source tree, and
	// the declared inputs confine what a build reads instead.
	KeepLinks
)

// Loader reads files relative to one kustomization root. It implements
// kustomize's ifc.Loader so kustomize's generator helpers can use it.
type Loader struct {
	fs         filesys.FileSystem
	root       filesys.ConfirmedDir
	restrictor Restrictor
	links      Links
	referrer   *Loader
	hint       MissingHint
	// realRoot is root with its symbolic links resolved (with ResolveLinks).
	realRoot filesys.ConfirmedDir
}

var _ ifc.Loader = (*Loader)(nil)

// confirmDir returns the absolute, lexically cleaned form of dir after
// checking it is a directory. Unlike kustomize it does not resolve symlinks:
// Bazel presents every input as a symlink into the source tree, and the
// root-only restriction must judge the paths the kustomization names.
func confirmDir(fs filesys.FileSystem, dir string) (filesys.ConfirmedDir, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if !fs.IsDir(abs) {
		if !fs.Exists(abs) {
			return "", fmt.Errorf("'%s' doesn't exist", abs)
		}
		return "", fmt.Errorf("'%s' is not a directory", abs)
	}
	return filesys.ConfirmedDir(filepath.Clean(abs)), nil
}

// NewLoader returns a loader rooted at dir.
func NewLoader(fs filesys.FileSystem, dir string, r Restrictor, hint MissingHint) (*Loader, error) {
	root, err := confirmDir(fs, dir)
	if err != nil {
		return nil, fmt.Errorf("must build at directory: %w", err)
	}
	l := &Loader{fs: fs, root: root, restrictor: r, hint: hint}
	return l, l.resolveRoot()
}

// SetLinks sets how this loader and the loaders New makes from it treat
// symbolic links (ResolveLinks unless set).
func (l *Loader) SetLinks(k Links) error {
	l.links = k
	return l.resolveRoot()
}

// resolveRoot records the root with its links resolved, which the root
// check and the cycle check compare resolved paths against.
func (l *Loader) resolveRoot() error {
	l.realRoot = l.root
	if l.links == KeepLinks {
		return nil
	}
	d, f, err := l.fs.CleanedAbs(string(l.root))
	if err != nil {
		return fmt.Errorf("must build at directory: %w", err)
	}
	if f != "" {
		return fmt.Errorf("must build at directory: '%s' is not a directory", l.root)
	}
	l.realRoot = d
	return nil
}

// realFile resolves the symbolic links of the existing file path, as the
// root check sees it.
func (l *Loader) realFile(path string) (dir filesys.ConfirmedDir, real string, err error) {
	if l.links == KeepLinks {
		return filesys.ConfirmedDir(filepath.Dir(path)), path, nil
	}
	d, f, err := l.fs.CleanedAbs(path)
	if err != nil {
		return "", "", err
	}
	if f == "" {
		return "", "", fmt.Errorf("'%s' must resolve to a file", path)
	}
	return d, d.Join(f), nil
}

// FS is the file system the loader reads.
func (l *Loader) FS() filesys.FileSystem { return l.fs }

// Root is the absolute kustomization directory.
func (l *Loader) Root() string { return string(l.root) }

// Repo is always empty: remote repositories are refused.
func (l *Loader) Repo() string { return "" }

// Cleanup has nothing to release.
func (l *Loader) Cleanup() error { return nil }

func remoteError(path string) error {
	return fmt.Errorf("%w: %q: builds are hermetic and never use the network; "+
		"bring remote bases in as a local directory (vendor them) or as a Bazel external repository", ErrRemote, path)
}

// DirPath returns the absolute, lexically cleaned directory that the base or
// component path (relative to this root) names, after the checks New makes
// on the path itself, without looking at the file system: a base read from
// a snapshot need not exist (in Bazel's sandbox its directory is absent).
func (l *Loader) DirPath(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("new root cannot be empty")
	}
	if kustref.IsRemote(path) {
		return "", remoteError(path)
	}
	if filepath.IsAbs(path) {
		return "", fmt.Errorf("new root '%s' cannot be absolute", path)
	}
	for _, part := range strings.Split(filepath.ToSlash(path), "/") {
		if part != "" && part != "." && part != ".." && strings.Contains(part, "..") {
			return "", fmt.Errorf("path %q is ambiguous: resolves to %q after normalization; check for YAML indentation errors in the kustomization file", path, filepath.Clean(path))
		}
	}
	return filepath.Clean(l.root.Join(path)), nil
}

// New returns a loader for the base or component directory path (relative to this root).
func (l *Loader) New(path string) (ifc.Loader, error) {
	dir, err := l.DirPath(path)
	if err != nil {
		return nil, err
	}
	root, err := confirmDir(l.fs, dir)
	if err != nil {
		return nil, l.withHint(path, fmt.Errorf("must build at directory: not a valid directory: %w", err))
	}
	sub := &Loader{fs: l.fs, root: root, restrictor: l.restrictor, links: l.links, referrer: l, hint: l.hint}
	if err := sub.resolveRoot(); err != nil {
		return nil, l.withHint(path, err)
	}
	// Compare resolved roots too: a directory link back up the tree is a
	// cycle even though its path goes down.
	for p := l; p != nil; p = p.referrer {
		if p.root.HasPrefix(root) || p.realRoot.HasPrefix(sub.realRoot) {
			return nil, fmt.Errorf("cycle detected: candidate root '%s' contains visited root '%s'", root, l.root)
		}
	}
	return sub, nil
}

// Resolve returns the absolute path of path, after the restrictor allowed it.
func (l *Loader) Resolve(path string) (string, error) {
	abs, _, err := l.resolve(path)
	return abs, err
}

// resolve is Resolve that also returns the file to read: with ResolveLinks
// the one the check judged, with its links resolved, so that a link
// swapped in after the check is not followed.
func (l *Loader) resolve(path string) (abs, read string, err error) {
	if kustref.IsRemote(path) {
		return "", "", remoteError(path)
	}
	written := path
	if !filepath.IsAbs(path) {
		path = l.root.Join(path)
	}
	if l.restrictor == None {
		return path, path, nil
	}
	clean := filepath.Clean(path)
	if !l.fs.Exists(clean) {
		return "", "", l.withHint(written, fmt.Errorf("'%s' doesn't exist", clean))
	}
	if l.fs.IsDir(clean) {
		return "", "", fmt.Errorf("'%s' must resolve to a file", path)
	}
	real, err := l.confine(path, clean)
	if err != nil {
		return "", "", err
	}
	return clean, real, nil
}

// confine is the root-only check: the file clean (path as given) must be
// in or below the root, and with ResolveLinks so must the file it leads to
// through symbolic links, compared with the resolved root (so a root that
// is itself a link still works). It returns the file the check judged.
func (l *Loader) confine(path, clean string) (string, error) {
	if !filesys.ConfirmedDir(filepath.Dir(clean)).HasPrefix(l.root) {
		return "", fmt.Errorf("security; file '%s' is not in or below '%s'", path, l.root)
	}
	dir, real, err := l.realFile(clean)
	if err != nil {
		return "", err
	}
	if !dir.HasPrefix(l.realRoot) {
		return "", fmt.Errorf("security; file '%s' is not in or below '%s': it is a symbolic link to '%s', or lies under one",
			path, l.root, real)
	}
	return real, nil
}

// Rel shows an absolute path relative to the working directory when it is
// below it (under Bazel, the workspace-relative path), else unchanged.
func Rel(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(r)
		}
	}
	return p
}

// Relative returns err with every absolute path below the working
// directory in its message shown relative to it: kustomize's messages
// carry absolute paths, which under Bazel name a sandbox or execroot.
func Relative(err error) error {
	if err == nil {
		return nil
	}
	wd, werr := os.Getwd()
	if werr != nil || wd == string(filepath.Separator) {
		return err
	}
	msg := strings.ReplaceAll(err.Error(), wd+string(filepath.Separator), "")
	msg = strings.ReplaceAll(msg, "'"+wd+"'", "'.'")
	return &relativeError{msg: msg, err: err}
}

type relativeError struct {
	msg string
	err error
}

func (e *relativeError) Error() string { return e.msg }
func (e *relativeError) Unwrap() error { return e.err }

// Load reads the file at path (relative to the root).
func (l *Loader) Load(path string) ([]byte, error) {
	_, read, err := l.resolve(path)
	if err != nil {
		return nil, err
	}
	b, err := l.fs.ReadFile(read)
	if err != nil {
		return nil, l.withHint(path, err)
	}
	return b, nil
}

func (l *Loader) withHint(path string, err error) error {
	if l.hint == nil {
		return err
	}
	if h := l.hint(string(l.root), path); h != "" {
		return fmt.Errorf("%w; %q %w: %s", err, path, ErrUndeclared, h)
	}
	return err
}
