// Package atomicfile writes a command's output files all or nothing: each
// goes to a temporary file beside its target and is renamed into place, so
// a reader sees the old file or the new one, never part of one.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// File is one output of a command: Path as the user gave it, and its bytes.
type File struct {
	Path string
	Data []byte
}

// WriteFile writes data to path as WriteFiles does.
func WriteFile(path string, data []byte) error {
	return WriteFiles([]File{{Path: path, Data: data}})
}

// WriteFiles writes the outputs of one command all or nothing: each goes
// to a temporary file beside its target first, and only when all are
// written are they renamed into place (a failed rename puts back what
// the earlier ones replaced). A path that is a symbolic link is written
// through: its target is replaced, the link stays. Errors name the paths
// as given, never the temporary files.
func WriteFiles(files []File) (err error) {
	type staged struct {
		File
		target, tmp, backup string
		done                bool
	}
	var st []*staged
	defer func() {
		if err == nil {
			for _, s := range st {
				if s.backup != "" {
					os.Remove(s.backup)
				}
			}
			return
		}
		for i := len(st) - 1; i >= 0; i-- {
			s := st[i]
			switch {
			case s.done && s.backup != "":
				os.Rename(s.backup, s.target)
			case s.done:
				os.Remove(s.target)
			case s.backup != "":
				os.Remove(s.backup)
			}
			if s.tmp != "" {
				os.Remove(s.tmp)
			}
		}
	}()
	for _, f := range files {
		target, err := linkTarget(f.Path)
		if err != nil {
			return fmt.Errorf("writing %s: %w", f.Path, cause(err))
		}
		s := &staged{File: f, target: target}
		st = append(st, s)
		if s.tmp, err = writeTemp(target, f.Data); err != nil {
			return fmt.Errorf("writing %s: %w", f.Path, cause(err))
		}
	}
	for _, s := range st {
		if fi, err := os.Stat(s.target); err == nil && fi.Mode().IsRegular() {
			// Keep the file being replaced, to put it back on failure.
			b := s.tmp + ".old"
			if os.Link(s.target, b) == nil {
				s.backup = b
			}
		}
		if err := os.Rename(s.tmp, s.target); err != nil {
			return fmt.Errorf("writing %s: %w", s.Path, cause(err))
		}
		s.tmp, s.done = "", true
	}
	return nil
}

// linkTarget is the file that writing path replaces: path itself, or the
// file its chain of symbolic links ends at (which need not exist).
func linkTarget(path string) (string, error) {
	for i := 0; i < 40; i++ {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Mode()&fs.ModeSymlink == 0) {
			if err == nil && fi.IsDir() {
				return "", errors.New("is a directory")
			}
			return path, nil
		}
		if err != nil {
			return "", err
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", errors.New("too many levels of symbolic links")
}

// writeTemp writes data to a new temporary file beside target.
func writeTemp(target string, data []byte) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, 0o644)
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// cause drops the file name a *PathError or *LinkError carries (a
// temporary file's) and keeps what went wrong.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
