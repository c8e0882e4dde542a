// Package yamlread reads YAML that comes from outside a build (rendered
// manifests to compare or apply, objects to trace, kubeconfigs) within
// bounds: file size, node count, nesting depth, and no aliases, all checked
// before anything walks the nodes.
package yamlread

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Bounds on one input file. Rendered manifests are far below them; a file
// past them is refused rather than read without bound.
const (
	MaxFileBytes = 128 << 20
	MaxNodes     = 4 << 20
	MaxDepth     = 1000
)

// ErrMalformed marks an input that is not a stream of Kubernetes objects
// krm can compare or apply (krm diff exits 2 for it).
var ErrMalformed = errors.New("malformed input")

// Nodes parses a YAML stream into its documents' mappings within the bounds
// (MaxNodes, MaxDepth, no aliases), checked before anything walks the
// nodes. Errors wrap ErrMalformed.
func Nodes(data []byte) ([]*yaml.Node, error) {
	// kio does not expand aliases unless asked (AnchorsAweigh), so a bomb
	// stays small until check refuses it.
	rns, err := (&kio.ByteReader{Reader: bytes.NewReader(data), OmitReaderAnnotations: true}).Read()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	budget := MaxNodes
	nodes := make([]*yaml.Node, 0, len(rns))
	for i, rn := range rns {
		n := rn.YNode()
		if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
			n = n.Content[0]
		}
		if err := check(n, 0, &budget); err != nil {
			return nil, fmt.Errorf("%w: object %d: %v", ErrMalformed, i+1, err)
		}
		if n.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%w: object %d is not a mapping", ErrMalformed, i+1)
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

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
