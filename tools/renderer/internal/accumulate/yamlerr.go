package accumulate

import (
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// isMalformedYAML reports whether err came from a file that exists but is
// not valid YAML; kustomize then reports that error instead of trying the
// path as a base directory.
func isMalformedYAML(err error) bool {
	return strings.Contains(err.Error(), "MalformedYAMLError")
}

// errDuplicateKey marks a resource with a mapping key given twice, which
// kustomize cannot convert either; found at load time, the error names
// the file instead of only the object.
var errDuplicateKey = errors.New("duplicate mapping key")

// checkDuplicateKeys reports the first mapping key that appears twice in
// the objects of m.
func checkDuplicateKeys(m resmap.ResMap) error {
	for _, r := range m.Resources() {
		if k, first := duplicateKey(r.RNode.YNode(), 0); k != nil {
			return fmt.Errorf("%w: %s %q: key %q on line %d is already defined on line %d (lines count from the object's first line)",
				errDuplicateKey, r.GetKind(), r.GetName(), k.Value, k.Line, first.Line)
		}
	}
	return nil
}

func duplicateKey(n *yaml.Node, depth int) (dup, first *yaml.Node) {
	if n == nil || depth > 10000 {
		return nil, nil
	}
	if n.Kind == yaml.MappingNode {
		c := n.Content
		var seen map[string]*yaml.Node
		for i := 0; i+1 < len(c); i += 2 {
			if c[i].Kind != yaml.ScalarNode {
				continue
			}
			if len(c) <= 32 {
				// Small mappings (nearly all): compare in place, no map.
				for j := 0; j < i; j += 2 {
					if c[j].Kind == yaml.ScalarNode && c[j].Value == c[i].Value {
						return c[i], c[j]
					}
				}
				continue
			}
			if seen == nil {
				seen = make(map[string]*yaml.Node, len(c)/2)
			}
			if f, ok := seen[c[i].Value]; ok {
				return c[i], f
			}
			seen[c[i].Value] = c[i]
		}
	}
	for _, ch := range n.Content {
		if d, f := duplicateKey(ch, depth+1); d != nil {
			return d, f
		}
	}
	return nil, nil
}
