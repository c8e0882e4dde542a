package patch6902

import (
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Document is the node kyaml's FromMap makes of m (go-yaml v3 prints m,
// kyaml parses the text back): a document holding m's mapping, each node
// with the kind, tag, style and value that parse gives it (not its line and
// column). It reports false for anything it is not sure to build the same:
// keys that print as complex keys, key orders that depend on map iteration,
// text with line breaks other than '\n'.
func Document(m map[string]interface{}) (*yaml.Node, bool) {
	root, ok := mapping(m)
	if !ok {
		return nil, false
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{root}}, true
}

// nodeOf is the node parsed back from a value of a JSON document as
// go-yaml v3 prints it inside a block mapping or sequence.
func nodeOf(v interface{}) (*yaml.Node, bool) {
	switch v := v.(type) {
	case map[string]interface{}:
		return mapping(v)
	case []interface{}:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: yaml.NodeTagSeq}
		if len(v) == 0 {
			n.Style = yaml.FlowStyle // printed []
			return n, true
		}
		n.Content = make([]*yaml.Node, len(v))
		for i, e := range v {
			c, ok := nodeOf(e)
			if !ok {
				return nil, false
			}
			n.Content[i] = c
		}
		return n, true
	case string:
		return str(v, false)
	case float64:
		// go-yaml v3's spelling; the parse gives it the tag it resolves to.
		return plain(strconv.FormatFloat(v, 'g', -1, 64)), true
	case bool:
		return plain(strconv.FormatBool(v)), true
	case nil:
		return plain("null"), true
	}
	return nil, false
}

func mapping(m map[string]interface{}) (*yaml.Node, bool) {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap}
	if len(m) == 0 {
		n.Style = yaml.FlowStyle // printed {}
		return n, true
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	if !sortKeys(keys) {
		return nil, false
	}
	n.Content = make([]*yaml.Node, 0, 2*len(keys))
	for _, k := range keys {
		kn, ok := str(k, true)
		if !ok {
			return nil, false
		}
		vn, ok := nodeOf(m[k])
		if !ok {
			return nil, false
		}
		n.Content = append(n.Content, kn, vn)
	}
	return n, true
}

// plain is a plain scalar with the tag go-yaml v3 resolves its text to.
func plain(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: s}
	n.Tag = n.ShortTag()
	return n
}

// str is a string as go-yaml v3 prints it and reads it back: the style its
// emitter picks, tagged !!str. key says s is a mapping key.
func str(s string, key bool) (*yaml.Node, bool) {
	style, ok := stringStyle(s, key)
	if !ok {
		return nil, false
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Style: style, Value: s}, true
}
