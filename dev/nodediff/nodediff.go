// Package nodediff finds where two YAML node graphs differ, for tests that
// prove a faster transformation equal to kustomize's: every field of every
// node (styles, tags, comments, positions) and which nodes are one node.
package nodediff

import (
	"fmt"
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Pairs maps each node of one graph to its counterpart in the other, so that
// sharing is compared too, across several graphs when one Pairs is reused.
type Pairs map[*yaml.Node]*yaml.Node

// Diff compares the graphs a and b, reached at path, and returns their first
// difference or nil.
func (p Pairs) Diff(a, b *yaml.Node, path string) error {
	if a == nil || b == nil {
		if a != b {
			return fmt.Errorf("%s: nil %v vs %v", path, a == nil, b == nil)
		}
		return nil
	}
	if m, ok := p[a]; ok {
		if m != b {
			return fmt.Errorf("%s: sharing differs", path)
		}
		return nil
	}
	p[a] = b
	x, y := *a, *b
	x.Content, y.Content, x.Alias, y.Alias = nil, nil, nil, nil
	if fmt.Sprintf("%+v", x) != fmt.Sprintf("%+v", y) || len(a.Content) != len(b.Content) {
		return fmt.Errorf("%s: %+v\nvs %+v", path, x, y)
	}
	for i := range a.Content {
		if err := p.Diff(a.Content[i], b.Content[i], path+"/"+strconv.Itoa(i)); err != nil {
			return err
		}
	}
	return p.Diff(a.Alias, b.Alias, path+"/*")
}

// Diff compares two graphs on their own.
func Diff(a, b *yaml.Node) error { return Pairs{}.Diff(a, b, "") }
