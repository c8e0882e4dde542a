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
func Read(paths []string) ([]Object, error) {
	var files []string
	for _, p := range paths {
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
				if !d.IsDir() {
					found = append(found, path)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	var objs []Object
	for _, f := range files {
		data, err := readBounded(f)
		if err != nil {
			return nil, err
		}
		o, err := Parse(f, data)
		if err != nil {
			return nil, err
		}
		objs = append(objs, o...)
	}
	return objs, nil
}

func readBounded(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: %w: larger than %d MiB", file, ErrInput, MaxFileBytes>>20)
	}
	return data, nil
}

// Parse returns the objects of one YAML stream read from file (named in errors).
func Parse(file string, data []byte) ([]Object, error) {
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: %w: larger than %d MiB", file, ErrInput, MaxFileBytes>>20)
	}
	d := yaml.NewDecoder(bytes.NewReader(data))
	var objs []Object
	for doc := 1; ; doc++ {
		var n yaml.Node
		err := d.Decode(&n)
		if err == io.EOF {
			return objs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w: %v", file, doc, ErrInput, err)
		}
		if err := bounded(&n, 0); err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", file, doc, err)
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
			return nil, fmt.Errorf("%s: document %d (line %d): %w: not a mapping", file, doc, root.Line, ErrInput)
		}
		if str(root, "apiVersion") == "v1" && str(root, "kind") == "List" {
			if items := field(root, "items"); items != nil && items.Kind == yaml.SequenceNode {
				for _, it := range items.Content {
					objs = append(objs, Object{Node: it, File: file})
				}
				continue
			}
		}
		objs = append(objs, Object{Node: root, File: file})
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
