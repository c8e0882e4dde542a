package load

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
)

// ErrAliasExpansion is returned for YAML whose aliases would expand to far
// more nodes than the file holds (an "alias bomb").
var ErrAliasExpansion = errors.New("YAML aliases expand too far")

// MaxAliasExpansion bounds the nodes a file's aliases may expand to: more
// than this many, and more than aliasRatio times the nodes written, is an
// error instead of an unbounded copy.
const (
	MaxAliasExpansion = 1 << 20
	aliasRatio        = 100
)

// MaxDepth is how deep an object may nest maps and lists (yamlnode.MaxDepth).
const MaxDepth = yamlnode.MaxDepth

// ErrTooDeep is go-yaml's error for an object nested deeper than MaxDepth.
var ErrTooDeep = yamlnode.ErrTooDeep

// ParseNodes parses a YAML stream into nodes exactly as kyaml's
// kio.FromBytes does (which kustomize uses for every resource file), but
// de-anchors only the documents that need it: kyaml's de-anchoring deep-copies
// every mapping of every document. Documents with anchors, aliases or merge
// keys get kyaml's own de-anchoring, so nodes and bytes stay the same. An
// object nesting deeper than MaxDepth is an error naming it (kustomize's
// build would fail printing it; the same walk finds both).
func ParseNodes(data []byte) ([]*yaml.RNode, error) {
	nodes, err := (&kio.ByteReader{OmitReaderAnnotations: true, Reader: bytes.NewReader(data)}).Read()
	if err != nil {
		return nil, err
	}
	for _, n := range nodes {
		deAnchor, deep := scan(n.YNode(), 0)
		if deep {
			return nil, fmt.Errorf("%s %q: %w: it nests maps and lists deeper than that, which kustomize cannot print", n.GetKind(), n.GetName(), ErrTooDeep)
		}
		if !deAnchor {
			continue
		}
		if size := expandedSize(n.YNode(), map[*yaml.Node]int{}); size > MaxAliasExpansion && size > aliasRatio*countNodes(n.YNode()) {
			return nil, fmt.Errorf("%w: a document expands to more than %d nodes", ErrAliasExpansion, MaxAliasExpansion)
		}
		if err := n.DeAnchor(); err != nil {
			return nil, err
		}
	}
	return nodes, nil
}

// ParseResources returns the resources in a YAML stream, as kustomize's
// resource.Factory.SliceFromBytes does. A stream holding a List (`kind:
// FooList` with items) goes through kustomize's own expansion, which
// converts the items through JSON.
func ParseResources(rf *resource.Factory, data []byte) ([]*resource.Resource, error) {
	nodes, err := ParseNodes(data)
	if err != nil {
		return nil, err
	}
	for _, n := range nodes {
		// Lists, and documents that are not mappings (kustomize's own
		// errors for them), take kustomize's path.
		notMapping := n.YNode().Kind != yaml.MappingNode && !n.IsNilOrEmpty()
		if notMapping || strings.HasSuffix(n.GetKind(), "List") {
			if nodes, err = rf.RNodesFromBytes(data); err != nil {
				return nil, err
			}
			return wrap(nodes), nil
		}
	}
	kept := nodes[:0]
	for _, n := range nodes {
		if n.IsNilOrEmpty() {
			continue
		}
		if _, err := n.GetValidatedMetadata(); err != nil {
			return nil, err
		}
		kept = append(kept, n)
	}
	return wrap(kept), nil
}

func wrap(nodes []*yaml.RNode) []*resource.Resource {
	out := make([]*resource.Resource, len(nodes))
	for i, n := range nodes {
		out[i] = &resource.Resource{RNode: *n}
	}
	return out
}

// scan reports whether kyaml's de-anchoring would change n: it clears
// anchors, expands aliases and merge keys, and (because it rebuilds each
// mapping by setting its keys one by one) gives every key written more than
// once the value of its last occurrence, and drops `<<` keys. It also
// reports whether n, depth collections below its document's root, nests
// collections deeper than MaxDepth.
func scan(n *yaml.Node, depth int) (deAnchor, tooDeep bool) {
	if n == nil {
		return false, false
	}
	deAnchor = n.Anchor != "" || n.Kind == yaml.AliasNode
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		if depth++; depth > MaxDepth {
			return deAnchor, true
		}
		deAnchor = deAnchor || n.Kind == yaml.MappingNode && mappingNeedsDeAnchor(n.Content)
	}
	for _, c := range n.Content {
		d, deep := scan(c, depth)
		if deep {
			return deAnchor || d, true
		}
		deAnchor = deAnchor || d
	}
	return deAnchor, false
}

// mappingNeedsDeAnchor reports a `<<` key or a key written twice (keys
// compare by their text, as kyaml compares them).
func mappingNeedsDeAnchor(content []*yaml.Node) bool {
	const small = 16
	if len(content) <= 2*small {
		for i := 0; i+1 < len(content); i += 2 {
			k := content[i].Value
			if k == "<<" {
				return true
			}
			for j := 0; j < i; j += 2 {
				if content[j].Value == k {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]bool, len(content)/2)
	for i := 0; i+1 < len(content); i += 2 {
		k := content[i].Value
		if k == "<<" || seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

// expandedSize counts the nodes of n with every alias replaced by what it
// names, stopping early once past MaxAliasExpansion*aliasRatio.
func expandedSize(n *yaml.Node, memo map[*yaml.Node]int) int {
	if n == nil {
		return 0
	}
	if s, ok := memo[n]; ok {
		return s
	}
	memo[n] = 1 // an alias cycle counts once (kyaml rejects it later)
	size := 1
	if n.Kind == yaml.AliasNode {
		size = expandedSize(n.Alias, memo)
	}
	for _, c := range n.Content {
		size += expandedSize(c, memo)
		if size > MaxAliasExpansion*aliasRatio {
			break
		}
	}
	memo[n] = size
	return size
}

func countNodes(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	size := 1
	for _, c := range n.Content {
		size += countNodes(c)
	}
	return size
}
