// Package inputs serves a render exactly the files its build declared, and
// nothing else: a file system made from a manifest that maps each file's
// path in the kustomization tree (workspace-relative) to where the build
// system put it (a source file, a generated file under bazel-out, a path in
// a sandbox). Directories exist only as the parents of declared files, so
// an undeclared file, base or component is missing whatever the executor
// (sandbox or not), and generated files are seen where the kustomization
// names them.
package inputs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// ErrUndeclared marks a read of a path that is not a declared input. It
// matches fs.ErrNotExist, as a missing file would.
var ErrUndeclared = fmt.Errorf("not a declared input: %w", fs.ErrNotExist)

// ErrReadOnly is returned by every write: a render only reads its inputs.
var ErrReadOnly = errors.New("declared inputs are read-only")

// File is one declared input.
type File struct {
	// Path is where the kustomization tree has the file: slash-separated,
	// relative to the root (the workspace).
	Path string
	// Src is where to read it (relative to the working directory or
	// absolute); empty when Data holds the content.
	Src string
	// Data is the content of a file that has no Src (read from a snapshot).
	Data []byte
}

// FS is a read-only filesys.FileSystem of declared files below root.
type FS struct {
	root  string
	files map[string]File     // absolute path -> file
	dirs  map[string][]string // absolute directory -> sorted child names
	// declared are the files of the manifest, in order (not those added later).
	declared []File
}

var _ filesys.FileSystem = (*FS)(nil)

// New returns a file system rooted at root (made absolute) holding files.
// A path that is absolute, leaves the root or is declared twice with
// different sources is an error.
func New(root string, files []File) (*FS, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	f := &FS{root: abs, files: map[string]File{}, dirs: map[string][]string{abs: nil}}
	if err := f.Add(files...); err != nil {
		return nil, err
	}
	f.declared = append([]File(nil), files...)
	return f, nil
}

// ReadManifest reads a manifest file: one declared file a line, its path in
// the tree and where to read it separated by a tab (a line without a tab is
// both). This is the format of krm render --inputs.
func ReadManifest(name string) ([]File, error) {
	data, err := readRegular(name)
	if err != nil {
		return nil, err
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ParseLines(lines, func(n int) string { return fmt.Sprintf("%s:%d", name, n) })
}

// ParseLines reads declared files from manifest lines (empty ones are
// skipped); where(n) names line n (from 1) in errors.
func ParseLines(lines []string, where func(n int) string) ([]File, error) {
	var files []File
	for i, line := range lines {
		if line == "" {
			continue
		}
		p, src, ok := strings.Cut(line, "\t")
		if !ok {
			src = p
		}
		if p == "" || src == "" {
			return nil, fmt.Errorf("%s: want PATH<tab>SOURCE", where(i+1))
		}
		files = append(files, File{Path: p, Src: src})
	}
	return files, nil
}

// Load returns the file system of the files the manifest file declares
// (none when it is ""), and those of the manifest lines given (krm render
// --input), rooted at the working directory, plus the files named in also
// (the snapshots of a render's deps, at the paths given), which are not
// counted among Declared.
func Load(manifest string, lines []string, also ...string) (*FS, error) {
	var files []File
	if manifest != "" {
		var err error
		if files, err = ReadManifest(manifest); err != nil {
			return nil, err
		}
	}
	more, err := ParseLines(lines, func(n int) string { return fmt.Sprintf("--input %q", lines[n-1]) })
	if err != nil {
		return nil, err
	}
	files = append(files, more...)
	f, err := New(".", files)
	if err != nil {
		if manifest != "" {
			return nil, fmt.Errorf("%s: %w", manifest, err)
		}
		return nil, err
	}
	for _, p := range also {
		if err := f.Add(File{Path: p, Src: p}); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Add declares more files (the files a component's snapshot carries).
func (f *FS) Add(files ...File) error {
	for _, file := range files {
		p := path.Clean(file.Path)
		if path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") || p == "." {
			return fmt.Errorf("declared input %q: want a path relative to the workspace, inside it", file.Path)
		}
		abs := filepath.Join(f.root, filepath.FromSlash(p))
		if prev, ok := f.files[abs]; ok {
			if prev.Src != file.Src || !bytes.Equal(prev.Data, file.Data) {
				return fmt.Errorf("declared input %s is declared twice, from %s and %s", p, describe(prev), describe(file))
			}
			continue
		}
		if _, ok := f.dirs[abs]; ok {
			return fmt.Errorf("declared input %s is also a directory of other declared inputs", p)
		}
		for d := filepath.Dir(abs); d != f.root; d = filepath.Dir(d) {
			if _, ok := f.files[d]; ok {
				return fmt.Errorf("declared input %s is below %s, also a declared file", p, f.Rel(d))
			}
		}
		file.Path = p
		f.files[abs] = file
		f.addChild(abs)
	}
	return nil
}

func describe(f File) string {
	if f.Src != "" {
		return f.Src
	}
	return "a snapshot"
}

// addChild records abs in its parent directory, creating the parents.
func (f *FS) addChild(abs string) {
	for abs != f.root {
		dir := filepath.Dir(abs)
		_, known := f.dirs[dir]
		names := f.dirs[dir]
		i := sort.SearchStrings(names, filepath.Base(abs))
		if i < len(names) && names[i] == filepath.Base(abs) {
			return
		}
		names = append(names, "")
		copy(names[i+1:], names[i:])
		names[i] = filepath.Base(abs)
		f.dirs[dir] = names
		if known {
			return
		}
		abs = dir
	}
}

// Declared returns the files of the manifest, sorted by path, each once.
func (f *FS) Declared() []File {
	out := make([]File, 0, len(f.declared))
	seen := map[string]bool{}
	for _, d := range f.declared {
		p := path.Clean(d.Path)
		if !seen[p] {
			seen[p] = true
			d.Path = p
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Root is the absolute directory that declared paths are relative to.
func (f *FS) Root() string { return f.root }

// Rel is the workspace-relative form of an absolute path below the root,
// or the path itself.
func (f *FS) Rel(abs string) string {
	r, err := filepath.Rel(f.root, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return abs
	}
	return filepath.ToSlash(r)
}

func (f *FS) abs(name string) string {
	if !filepath.IsAbs(name) {
		name = filepath.Join(f.root, name)
	}
	return filepath.Clean(name)
}

func (f *FS) notExist(op, name string) error {
	return &fs.PathError{Op: op, Path: f.Rel(f.abs(name)), Err: ErrUndeclared}
}

// Exists reports whether name is a declared file or one of their directories.
func (f *FS) Exists(name string) bool {
	a := f.abs(name)
	_, isFile := f.files[a]
	_, isDir := f.dirs[a]
	return isFile || isDir
}

// IsDir reports whether name is a directory of declared files.
func (f *FS) IsDir(name string) bool {
	_, ok := f.dirs[f.abs(name)]
	return ok
}

// ReadFile returns the content of a declared file.
func (f *FS) ReadFile(name string) ([]byte, error) {
	file, ok := f.files[f.abs(name)]
	if !ok {
		if f.IsDir(name) {
			return nil, &fs.PathError{Op: "read", Path: f.Rel(f.abs(name)), Err: errors.New("is a directory")}
		}
		return nil, f.notExist("open", name)
	}
	if file.Src == "" {
		return append([]byte(nil), file.Data...), nil
	}
	data, err := readRegular(file.Src)
	if err != nil {
		// Bazel provides every declared input: a failure here is the
		// executor's, not the user's.
		return nil, fmt.Errorf("reading declared input %s: %w", file.Path, err)
	}
	return data, nil
}

// readRegular reads the file name, which must be a regular file once its
// links are followed: reading a pipe or a device would block or never end,
// and /dev/stdin is a persistent worker's protocol.
func readRegular(name string) ([]byte, error) {
	if err := checkRegular(name); err != nil {
		return nil, err
	}
	return os.ReadFile(name)
}

func checkRegular(name string) error {
	fi, err := os.Stat(name)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (mode %s): a render reads regular files only", name, fi.Mode().Type())
	}
	return nil
}

// Open opens a declared file for reading.
func (f *FS) Open(name string) (filesys.File, error) {
	file, ok := f.files[f.abs(name)]
	if !ok {
		return nil, f.notExist("open", name)
	}
	if file.Src != "" {
		if err := checkRegular(file.Src); err != nil {
			return nil, err
		}
		return os.Open(file.Src)
	}
	return &memFile{Reader: bytes.NewReader(file.Data), name: path.Base(file.Path), size: int64(len(file.Data))}, nil
}

// ReadDir lists the names in a directory of declared files.
func (f *FS) ReadDir(name string) ([]string, error) {
	names, ok := f.dirs[f.abs(name)]
	if !ok {
		return nil, f.notExist("readdir", name)
	}
	return append([]string(nil), names...), nil
}

// CleanedAbs splits name into a directory and a file name ("" for a directory).
func (f *FS) CleanedAbs(name string) (filesys.ConfirmedDir, string, error) {
	a := f.abs(name)
	if f.IsDir(a) {
		return filesys.ConfirmedDir(a), "", nil
	}
	if _, ok := f.files[a]; ok {
		return filesys.ConfirmedDir(filepath.Dir(a)), filepath.Base(a), nil
	}
	return "", "", f.notExist("stat", name)
}

// Glob returns the declared files and directories matching pattern, sorted.
func (f *FS) Glob(pattern string) ([]string, error) {
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil, err
	}
	var out []string
	for _, set := range []func(func(string)){f.eachFile, f.eachDir} {
		set(func(p string) {
			if ok, _ := filepath.Match(pattern, p); ok {
				out = append(out, p)
			}
		})
	}
	sort.Strings(out)
	return out, nil
}

func (f *FS) eachFile(fn func(string)) {
	for p := range f.files {
		fn(p)
	}
}

func (f *FS) eachDir(fn func(string)) {
	for p := range f.dirs {
		fn(p)
	}
}

// Walk visits name and, for a directory, everything below it in lexical order.
func (f *FS) Walk(name string, fn filepath.WalkFunc) error {
	a := f.abs(name)
	info, err := f.stat(a)
	if err != nil {
		return fn(name, nil, err)
	}
	err = f.walk(name, a, info, fn)
	if err == filepath.SkipDir || err == filepath.SkipAll {
		return nil
	}
	return err
}

func (f *FS) walk(name, abs string, info fs.FileInfo, fn filepath.WalkFunc) error {
	if err := fn(name, info, nil); err != nil || !info.IsDir() {
		return err
	}
	for _, child := range f.dirs[abs] {
		ca := filepath.Join(abs, child)
		ci, _ := f.stat(ca)
		err := f.walk(filepath.Join(name, child), ca, ci, fn)
		if err == filepath.SkipDir {
			if !ci.IsDir() {
				return nil
			}
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (f *FS) stat(abs string) (fs.FileInfo, error) {
	if _, ok := f.dirs[abs]; ok {
		return fileInfo{name: filepath.Base(abs), dir: true}, nil
	}
	file, ok := f.files[abs]
	if !ok {
		return nil, f.notExist("lstat", abs)
	}
	if file.Src != "" {
		return os.Stat(file.Src)
	}
	return fileInfo{name: filepath.Base(abs), size: int64(len(file.Data))}, nil
}

// Create fails: declared inputs are read-only.
func (f *FS) Create(name string) (filesys.File, error) { return nil, f.readOnly(name) }

// Mkdir fails: declared inputs are read-only.
func (f *FS) Mkdir(name string) error { return f.readOnly(name) }

// MkdirAll fails: declared inputs are read-only.
func (f *FS) MkdirAll(name string) error { return f.readOnly(name) }

// RemoveAll fails: declared inputs are read-only.
func (f *FS) RemoveAll(name string) error { return f.readOnly(name) }

// WriteFile fails: declared inputs are read-only.
func (f *FS) WriteFile(name string, _ []byte) error { return f.readOnly(name) }

func (f *FS) readOnly(name string) error {
	return &fs.PathError{Op: "write", Path: f.Rel(f.abs(name)), Err: ErrReadOnly}
}

type memFile struct {
	*bytes.Reader
	name string
	size int64
}

func (m *memFile) Write([]byte) (int, error) { return 0, ErrReadOnly }
func (m *memFile) Close() error              { return nil }
func (m *memFile) Stat() (os.FileInfo, error) {
	return fileInfo{name: m.name, size: m.size}, nil
}

type fileInfo struct {
	name string
	size int64
	dir  bool
}

func (i fileInfo) Name() string { return i.name }
func (i fileInfo) Size() int64  { return i.size }
func (i fileInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return i.dir }
func (i fileInfo) Sys() any           { return nil }
