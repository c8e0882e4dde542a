package validate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

// Bounds of what Read accepts.
const (
	MaxFileBytes = 256 << 20 // one file
	MaxDepth     = 128       // nested mappings and sequences in one document
)

// ErrInput is wrapped by the errors of Read about a file's content (too big, too deep,
// aliases, not YAML).
var ErrInput = errors.New("invalid input")

// Read reads the objects of the YAML (or JSON) files named by paths; a directory contributes
// its .yaml, .yml and .json files, recursively, in lexical order. Empty documents are
// skipped; a v1 List contributes its items. YAML anchors and aliases are refused (they are
// not expanded), and so are files over MaxFileBytes and documents nested deeper than MaxDepth.
// It holds every object; Validator.ValidateFiles reads one document at a time.
func Read(paths []string) ([]Object, error) {
	var objs []Object
	err := eachObject(paths, func(o Object) error {
		objs = append(objs, o)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return objs, nil
}

// eachObject calls fn with each object of the files paths name, in order, one document at a
// time.
func eachObject(paths []string, fn func(Object) error) error {
	files, err := Files(paths)
	if err != nil {
		return err
	}
	for _, f := range files {
		if _, err := readFile(f, fn); err != nil {
			return err
		}
	}
	return nil
}

// Files returns the files that paths name, as Read reads them: a directory's .yaml, .yml and
// .json files, recursively, in lexical order; "-" (standard input) as it is.
func Files(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		if p == "-" { // standard input, which ValidateFiles reads (Options.Stdin)
			files = append(files, p)
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			switch strings.ToLower(filepath.Ext(path)) {
			case ".yaml", ".yml", ".json":
				if d.IsDir() {
					return nil
				}
				if !d.Type().IsRegular() {
					// A link is judged by what it leads to; opening a named pipe would wait for
					// a writer for ever.
					fi, err := os.Stat(path)
					if err != nil {
						return err
					}
					if !fi.Mode().IsRegular() {
						return fmt.Errorf("%s: not a regular file (%s): in a directory krm validate reads regular files only; name a pipe as an argument to read it",
							path, fileKind(fi.Mode()))
					}
				}
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

// fileKind names what a file that is not regular is.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "mode " + m.Type().String()
}

// readFile calls fn with each object of file, in order, decoding a document only once fn has
// returned for the objects of the one before. A regular file is decoded as it is read; any
// other (a pipe) is read whole first and returned, as it cannot be read twice.
func readFile(file string, fn func(Object) error) (kept []byte, err error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		data, err := readBounded(file, f)
		if err != nil {
			return nil, err
		}
		return data, parse(file, bytes.NewReader(data), fn)
	} else if fi.Size() > MaxFileBytes {
		return nil, tooBig(file)
	}
	// The file may grow while it is read: at most one byte past the bound is read, and then
	// the decoding, whatever its outcome, is this error.
	err = parse(file, io.LimitReader(f, MaxFileBytes+1), fn)
	if read, serr := f.Seek(0, io.SeekCurrent); serr == nil && read > MaxFileBytes {
		return nil, tooBig(file)
	}
	return nil, err
}

func tooBig(file string) error {
	return fmt.Errorf("%s: %w: larger than %d MiB", file, ErrInput, MaxFileBytes>>20)
}

func readBounded(file string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(data) > MaxFileBytes {
		return nil, tooBig(file)
	}
	return data, nil
}

// Parse returns the objects of one YAML stream read from file (named in errors).
func Parse(file string, data []byte) ([]Object, error) {
	if len(data) > MaxFileBytes {
		return nil, tooBig(file)
	}
	var objs []Object
	err := parse(file, bytes.NewReader(data), func(o Object) error {
		objs = append(objs, o)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return objs, nil
}

// parse calls fn with each object of the YAML stream r, read from file, one document at a
// time; an error of fn ends it.
func parse(file string, r io.Reader, fn func(Object) error) error {
	// The nodes are bounded as the file is read, before go-yaml makes them.
	lim := yamlread.Limit(r)
	d := yaml.NewDecoder(lim)
	for doc := 1; ; doc++ {
		var n yaml.Node
		err := d.Decode(&n)
		if err == io.EOF {
			return nil
		}
		if lim.Err() != nil {
			return fmt.Errorf("%s: %w: %v", file, ErrInput, lim.Err())
		}
		if err != nil {
			return fmt.Errorf("%s: document %d: %w: %v", file, doc, ErrInput, err)
		}
		if err := bounded(&n, 0); err != nil {
			return fmt.Errorf("%s: document %d: %w", file, doc, err)
		}
		root := &n
		if root.Kind == yaml.DocumentNode {
			if len(root.Content) == 0 {
				continue
			}
			root = root.Content[0]
		}
		if isNull(root) {
			continue
		}
		if root.Kind != yaml.MappingNode {
			return fmt.Errorf("%s: document %d (line %d): %w: not a mapping", file, doc, root.Line, ErrInput)
		}
		objs := []*yaml.Node{root}
		if str(root, "apiVersion") == "v1" && str(root, "kind") == "List" {
			if items := field(root, "items"); items != nil && items.Kind == yaml.SequenceNode {
				objs = items.Content
			}
		}
		for _, o := range objs {
			if err := fn(Object{Node: o, File: file, doc: doc}); err != nil {
				return err
			}
		}
	}
}

// bounded refuses anchors, aliases and nesting deeper than MaxDepth.
func bounded(n *yaml.Node, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("%w: line %d: nested deeper than %d levels", ErrInput, n.Line, MaxDepth)
	}
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return fmt.Errorf("%w: line %d: YAML anchors and aliases are not supported (they are not expanded): write the value out", ErrInput, n.Line)
	}
	for _, c := range n.Content {
		if err := bounded(c, depth+1); err != nil {
			return err
		}
	}
	return nil
}
