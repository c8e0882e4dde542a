// Package yamlnode holds the small YAML readers that gazelle and the renderer would
// otherwise each write again: fields and scalars of go-yaml v3 nodes (kyaml's yaml.Node is
// the same type), the documents of a YAML stream where kustomize splits it, and Kubernetes
// resource quantities as the API server reads them.
//
// It is named for what its callers hold, a *yaml.Node, and not "yaml", the name of the
// package every caller already imports. It imports neither kyaml nor apimachinery, so
// gazelle's plugin and the lean krm link nothing more for it.
package yamlnode

import (
	"errors"

	"go.yaml.in/yaml/v3"
)

// Field is the value of the first key named key in mapping n (the field kyaml's Field and
// Lookup find); nil when n is nil, not a mapping, or has no such key. Small enough for the
// compiler to inline, so hot paths (resourcemap) pay no call for it.
func Field(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	c := n.Content
	for i := 0; i+1 < len(c); i += 2 {
		if c[i].Value == key {
			return c[i+1]
		}
	}
	return nil
}

// Fields sets *to[i] to Field(n, keys[i]) for each *to[i] still nil, in one pass over n
// that ends when all are found: cheaper than a Field per key when the keys lead a long
// mapping (apiVersion, kind and metadata before a spec).
func Fields(n *yaml.Node, keys []string, to []**yaml.Node) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	c := n.Content
	left := len(keys)
	for i := 0; i+1 < len(c) && left > 0; i += 2 {
		for j, k := range keys {
			if *to[j] == nil && c[i].Value == k {
				*to[j] = c[i+1]
				left--
				break
			}
		}
	}
}

// Scalar is the text of scalar node n as written, a null's too ("null", "~" or ""); "" when
// n is nil or not a scalar.
func Scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// Text is the string value of scalar node n: "" when n is nil, not a scalar, or a null
// (null, ~ or empty: kustomize reads a null field as "").
func Text(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		return ""
	}
	return n.Value
}

// MaxDepth is how deep an object may nest maps and lists, its root counted: kustomize
// prints objects through JSON, which go-yaml reads back at most 10000 collections deep,
// and its build fails beyond.
const MaxDepth = 10000

// ErrTooDeep is go-yaml's error for an object nested deeper than MaxDepth, which
// kustomize's build ends with when it prints the object.
var ErrTooDeep = errors.New("yaml: exceeded max depth of 10000")

// TooDeep reports whether n, depth collections below its object's root, nests collections
// deeper than MaxDepth.
func TooDeep(n *yaml.Node, depth int) bool {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		if depth++; depth > MaxDepth {
			return true
		}
	}
	for _, c := range n.Content {
		if TooDeep(c, depth) {
			return true
		}
	}
	return false
}
