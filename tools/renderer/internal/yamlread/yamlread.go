// Package yamlread reads YAML that comes from outside a build (rendered
// manifests to compare or apply, objects to trace, kubeconfigs) within
// bounds: file size, node count, nesting depth, no aliases and no key written
// twice, checked before anything walks the nodes; size and nodes while the
// file is read, before its nodes are made.
package yamlread

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
)

// Bounds on one input file. Rendered manifests are far below them (about 25
// bytes of YAML make a node: MaxNodes is 50 MB of manifests, CRDs' long
// descriptions more); a file past them is refused rather than read without
// bound. A node costs about 200 bytes parsed, so that MaxNodes holds a
// file's parse to about 450 MB.
const (
	MaxFileBytes = 128 << 20
	MaxNodes     = 2 << 20
	MaxDepth     = 1000
)

// ErrMalformed marks an input that is not a stream of Kubernetes objects
// krm can compare or apply (krm diff exits 2 for it).
var ErrMalformed = errors.New("malformed input")

// Nodes parses a YAML stream into its documents' mappings within the bounds
// (MaxNodes, MaxDepth, no aliases, no key twice in a mapping), checked before
// anything walks the nodes, the nodes while the stream is read (Limit).
// Errors wrap ErrMalformed.
func Nodes(data []byte) ([]*yaml.Node, error) {
	lim := Limit(bytes.NewReader(data))
	// One document at a time: go-yaml does not expand aliases when it makes
	// nodes, so a bomb stays small until check refuses it.
	d := yaml.NewDecoder(lim)
	budget := MaxNodes
	var nodes []*yaml.Node
	for i := 1; ; {
		var doc yaml.Node
		err := d.Decode(&doc)
		if err == io.EOF {
			return nodes, nil
		}
		if lim.Err() != nil {
			return nil, lim.Err()
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		n := &doc
		if n.Kind == yaml.DocumentNode {
			if len(n.Content) == 0 {
				continue // a comment, or nothing, between separators
			}
			n = n.Content[0]
		}
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
			continue
		}
		if err := check(n, 0, &budget); err != nil {
			return nil, fmt.Errorf("%w: object %d: %v", ErrMalformed, i, err)
		}
		if n.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%w: object %d is not a mapping", ErrMalformed, i)
		}
		// Readers disagree on which of two keys counts (kyaml reads the first, a
		// conversion to JSON keeps the last): what is compared or checked could
		// be other than what is applied; for kind, a Secret taken for something else.
		if k := yamlnode.DuplicateKey(n); k != nil {
			return nil, fmt.Errorf("%w: object %d: line %d: key %q appears twice in one mapping: YAML allows a key once, and readers differ on which one counts", ErrMalformed, i, k.Line, k.Value)
		}
		nodes = append(nodes, n)
		i++
	}
}

// Limited is a reader of YAML that refuses, as it reads, more than MaxNodes
// of the characters that begin a node (a
// flow collection's brackets and commas count twice: "{a,b}" is 5 nodes): an
// upper bound of the nodes the bytes can make, so that a file's nodes are
// bounded before they are made. Manifests have 1.2 to 3 of those characters
// a node.
type Limited struct {
	r     io.Reader
	marks int
	err   error
}

// Limit reads r within MaxNodes (its size is the caller's to bound: Read); Err
// says whether that stopped it.
func Limit(r io.Reader) *Limited { return &Limited{r: r, marks: 1} }

// marks are how many nodes a character can begin.
var marks = func() (m [256]uint8) {
	for _, c := range ",[{" {
		m[c] = 2
	}
	for _, c := range ":-?\n" {
		m[c] = 1
	}
	return m
}()

func (l *Limited) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for _, c := range p[:n] {
		l.marks += int(marks[c])
	}
	if l.marks > MaxNodes {
		l.err = fmt.Errorf("%w: more than %d YAML nodes in the file (counted while reading, as the characters that begin one: , [ { twice, : - ? and line breaks)", ErrMalformed, MaxNodes)
		return 0, l.err
	}
	return n, err
}

// Err is the error of the bound that stopped the reading, nil if none did.
func (l *Limited) Err() error { return l.err }

// File reads a file of at most MaxFileBytes.
func File(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads r to its end, at most MaxFileBytes; name (a path, "stdin")
// says in the error what was too large. Errors of r are returned as they are.
func Read(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: %w: larger than %d bytes", name, ErrMalformed, MaxFileBytes)
	}
	return data, nil
}

// check refuses aliases (rendered manifests have none; expanding them is
// how a small file becomes a huge tree), deep nesting and too many nodes.
func check(n *yaml.Node, depth int, budget *int) error {
	if depth > MaxDepth {
		return fmt.Errorf("nested deeper than %d levels", MaxDepth)
	}
	if *budget--; *budget < 0 {
		return fmt.Errorf("more than %d YAML nodes in the file", MaxNodes)
	}
	if n.Kind == yaml.AliasNode {
		return fmt.Errorf("line %d: YAML alias *%s: aliases are not allowed in rendered manifests", n.Line, n.Value)
	}
	for _, c := range n.Content {
		if err := check(c, depth+1, budget); err != nil {
			return err
		}
	}
	return nil
}
