package gazelle

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
)

// The YAML of resource files and plugin configs is read as kustomize's kyaml reads it
// (kio.ByteReader with OmitReaderAnnotations, RNode's GetKind, GetName and Lookup), on the
// yaml.v3 nodes kyaml wraps: kyaml itself would bring kube-openapi into every gazelle binary.

// readObjects are the objects of a YAML stream: its documents but empty and null ones, or the
// items of a lone List or ResourceList. Each is the document's content node, not the document.
func readObjects(content string) ([]*yaml.Node, error) {
	docs, err := yamlnode.SplitDocuments([]byte(strings.ReplaceAll(content, "\r\n", "\n")))
	if err != nil {
		return nil, err
	}
	var out []*yaml.Node
	for _, doc := range docs {
		var d yaml.Node
		if err := yaml.NewDecoder(bytes.NewReader(doc)).Decode(&d); errors.Is(err, io.EOF) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("MalformedYAMLError: %w", err)
		}
		if len(d.Content) == 0 || isNull(d.Content[0]) {
			continue
		}
		n := d.Content[0]
		if kind := yamlnode.Field(n, "kind"); len(docs) == 1 && !nilOrEmpty(kind) && (kind.Value == "List" || kind.Value == "ResourceList") {
			items := yamlnode.Field(n, "items")
			if items != nil || yamlnode.Field(n, "functionConfig") != nil {
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
	if v := yamlnode.Field(n, "kind"); v != nil {
		return v.Value
	}
	return ""
}

// objectName is the metadata.name of an object (RNode.GetName).
func objectName(n *yaml.Node) string {
	if isNull(n) {
		return ""
	}
	md := yamlnode.Field(n, "metadata")
	if nilOrEmpty(md) {
		return ""
	}
	if v := yamlnode.Field(md, "name"); !nilOrEmpty(v) {
		return v.Value
	}
	return ""
}

// stringField is the scalar value of a field of a mapping node, "" if there is none
// (RNode.Pipe(Lookup(key)) of a scalar).
func stringField(n *yaml.Node, key string) string {
	return yamlnode.Scalar(lookup(n, key))
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
	return yamlnode.Field(n, key)
}
