package gazelle

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The YAML of resource files and plugin configs is read as kustomize's kyaml reads it
// (kio.ByteReader with OmitReaderAnnotations, RNode's GetKind, GetName and Lookup), on the
// yaml.v3 nodes kyaml wraps: kyaml itself would bring kube-openapi into every gazelle binary.

// documentSeparator splits YAML streams as kio.ByteReader does.
var documentSeparator = regexp.MustCompile(`\n---.*\n`)

// readObjects are the objects of a YAML stream: its documents but empty and null ones, or the
// items of a lone List or ResourceList. Each is the document's content node, not the document.
func readObjects(content string) ([]*yaml.Node, error) {
	docs, err := splitDocuments(strings.ReplaceAll(content, "\r\n", "\n"))
	if err != nil {
		return nil, err
	}
	var out []*yaml.Node
	for i, doc := range docs {
		if i != len(docs)-1 {
			doc += "\n"
		}
		var d yaml.Node
		if err := yaml.NewDecoder(strings.NewReader(doc)).Decode(&d); errors.Is(err, io.EOF) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("MalformedYAMLError: %w", err)
		}
		if len(d.Content) == 0 || isNull(d.Content[0]) {
			continue
		}
		n := d.Content[0]
		if kind := mapField(n, "kind"); len(docs) == 1 && !nilOrEmpty(kind) && (kind.Value == "List" || kind.Value == "ResourceList") {
			items, hasItems := mapFieldOK(n, "items")
			if _, hasConfig := mapFieldOK(n, "functionConfig"); hasItems || hasConfig {
				if items != nil {
					out = append(out, items.Content...)
				}
				continue
			}
		}
		out = append(out, n)
	}
	return out, nil
}

func splitDocuments(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var docs []string
	prev := 0
	for _, loc := range documentSeparator.FindAllStringIndex(s, -1) {
		if rest := strings.TrimSpace(s[loc[0]+len("\n---") : loc[1]]); rest != "" && rest[0] != '#' {
			return nil, fmt.Errorf("invalid document separator: %s", strings.TrimSpace(s[loc[0]:loc[1]]))
		}
		docs = append(docs, s[prev:loc[0]])
		prev = loc[1]
	}
	return append(docs, s[prev:]), nil
}

// mapFieldOK is the value of the first key named key of a mapping node; false when n is no
// mapping or has no such key.
func mapFieldOK(n *yaml.Node, key string) (*yaml.Node, bool) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1], true
		}
	}
	return nil, false
}

func mapField(n *yaml.Node, key string) *yaml.Node {
	v, _ := mapFieldOK(n, key)
	return v
}

func isNull(n *yaml.Node) bool {
	return n.Tag == "!!null"
}

// nilOrEmpty is kyaml's IsYNodeNilOrEmpty for decoded nodes.
func nilOrEmpty(n *yaml.Node) bool {
	return n == nil || isNull(n) ||
		(n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && len(n.Content) == 0
}

// objectKind is the kind of an object (RNode.GetKind).
func objectKind(n *yaml.Node) string {
	if v := mapField(n, "kind"); v != nil {
		return v.Value
	}
	return ""
}

// objectName is the metadata.name of an object (RNode.GetName).
func objectName(n *yaml.Node) string {
	if isNull(n) {
		return ""
	}
	md := mapField(n, "metadata")
	if nilOrEmpty(md) {
		return ""
	}
	if v := mapField(md, "name"); !nilOrEmpty(v) {
		return v.Value
	}
	return ""
}

// stringField is the scalar value of a field of a mapping node, "" if there is none
// (RNode.Pipe(Lookup(key)) of a scalar).
func stringField(n *yaml.Node, key string) string {
	if v := lookup(n, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// stringsField are the scalar elements of a sequence field of a mapping node.
func stringsField(n *yaml.Node, key string) []string {
	v := lookup(n, key)
	if v == nil || v.Kind != yaml.SequenceNode {
		return nil
	}
	var out []string
	for _, e := range v.Content {
		if e.Kind == yaml.ScalarNode {
			out = append(out, e.Value)
		}
	}
	return out
}

// lookup is a field of a mapping node, nil for a null node (yaml.Lookup(key)).
func lookup(n *yaml.Node, key string) *yaml.Node {
	if n == nil || isNull(n) {
		return nil
	}
	return mapField(n, key)
}
