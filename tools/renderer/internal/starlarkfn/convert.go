package starlarkfn

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// toStarlark converts a YAML node to a Starlark value: mappings become
// dicts (keeping their key order; keys are strings), sequences lists, and
// scalars the Starlark value of their resolved YAML type: int, float, bool,
// None or string. A quoted "1" stays a string.
func toStarlark(n *yaml.Node) (starlark.Value, error) {
	return toStarlarkAt(n, 0)
}

func toStarlarkAt(n *yaml.Node, depth int) (starlark.Value, error) {
	if depth > MaxNesting {
		return nil, fmt.Errorf("line %d: nested deeper than %d levels", n.Line, MaxNesting)
	}
	depth++
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return starlark.None, nil
		}
		return toStarlarkAt(n.Content[0], depth)
	case yaml.AliasNode:
		return toStarlarkAt(n.Alias, depth)
	case yaml.MappingNode:
		d := starlark.NewDict(len(n.Content) / 2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: mapping keys must be scalars", k.Line)
			}
			if k.ShortTag() == "!!merge" {
				return nil, fmt.Errorf("line %d: YAML merge keys (<<) are not supported", k.Line)
			}
			sv, err := toStarlarkAt(v, depth)
			if err != nil {
				return nil, err
			}
			if err := d.SetKey(starlark.String(k.Value), sv); err != nil {
				return nil, err
			}
		}
		return d, nil
	case yaml.SequenceNode:
		elems := make([]starlark.Value, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := toStarlarkAt(c, depth)
			if err != nil {
				return nil, err
			}
			elems = append(elems, v)
		}
		return starlark.NewList(elems), nil
	case yaml.ScalarNode:
		return scalarToStarlark(n)
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node kind %v", n.Line, n.Kind)
}

func scalarToStarlark(n *yaml.Node) (starlark.Value, error) {
	switch n.ShortTag() {
	case yaml.NodeTagNull:
		return starlark.None, nil
	case yaml.NodeTagBool:
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		return starlark.Bool(b), nil
	case yaml.NodeTagInt:
		var v interface{}
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		switch i := v.(type) {
		case int:
			return starlark.MakeInt(i), nil
		case int64:
			return starlark.MakeInt64(i), nil
		case uint64:
			return starlark.MakeUint64(i), nil
		}
		return starlark.String(n.Value), nil
	case yaml.NodeTagFloat:
		if isDecimal(n.Value) {
			// An integer too large for 64 bits, which YAML reads as a float.
			if b, ok := new(big.Int).SetString(n.Value, 10); ok {
				return starlark.MakeBigInt(b), nil
			}
		}
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		return starlark.Float(f), nil
	}
	// Strings, timestamps (kept as text, as Kubernetes does) and anything
	// with a custom tag.
	return starlark.String(n.Value), nil
}

// fromStarlark converts a Starlark value back to a YAML node; path names the
// value in errors.
func fromStarlark(v starlark.Value, path string) (*yaml.Node, error) {
	return fromStarlarkAt(v, path, 0)
}

func fromStarlarkAt(v starlark.Value, path string, depth int) (*yaml.Node, error) {
	if depth > MaxNesting {
		// Also what a list that contains itself looks like.
		return nil, fmt.Errorf("%s: nested deeper than %d levels", path[:min(len(path), 200)]+"...", MaxNesting)
	}
	depth++
	switch x := v.(type) {
	case starlark.NoneType:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagNull, Value: "null"}, nil
	case starlark.Bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagBool, Value: strconv.FormatBool(bool(x))}, nil
	case starlark.Int:
		tag := yaml.NodeTagInt
		if _, ok := x.Int64(); !ok {
			if _, ok := x.Uint64(); !ok {
				// YAML reads integers beyond 64 bits as floats.
				tag = yaml.NodeTagFloat
			}
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: x.String()}, nil
	case starlark.Float:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagFloat, Value: formatFloat(float64(x))}, nil
	case starlark.String:
		return stringNode(string(x)), nil
	case *starlark.Dict:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap}
		for _, kv := range x.Items() {
			k, ok := kv[0].(starlark.String)
			if !ok {
				return nil, fmt.Errorf("%s: dict key %s is a %s; keys must be strings", path, kv[0].String(), kv[0].Type())
			}
			c, err := fromStarlarkAt(kv[1], path+"."+string(k), depth)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, stringNode(string(k)), c)
		}
		return n, nil
	case starlark.Indexable: // list, tuple
		if _, ok := v.(starlark.String); !ok {
			n := &yaml.Node{Kind: yaml.SequenceNode, Tag: yaml.NodeTagSeq}
			for i := 0; i < x.Len(); i++ {
				c, err := fromStarlarkAt(x.Index(i), fmt.Sprintf("%s[%d]", path, i), depth)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, c)
			}
			return n, nil
		}
	}
	return nil, fmt.Errorf("%s: a %s cannot be converted to YAML (use dict, list, tuple, string, int, float, bool or None)", path, v.Type())
}

// stringNode is a string scalar, quoted when YAML 1.1 (which Kubernetes
// tools still use) would read it as another type, like "yes" or "on".
func stringNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: s}
	if !isPlainWord(s) && yaml.IsValueNonString(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// yaml11Words are the words YAML 1.1 reads as booleans or null.
var yaml11Words = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"n": true, "N": true, "no": true, "No": true, "NO": true,
	"true": true, "True": true, "TRUE": true, "false": true, "False": true, "FALSE": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
	"null": true, "Null": true, "NULL": true,
}

// isPlainWord reports strings YAML 1.1 surely reads as strings, without
// kyaml's check (a YAML parse per string): a letter, then letters, digits
// and -_./, and none of YAML 1.1's boolean or null words.
func isPlainWord(s string) bool {
	if s == "" || !isASCIILetter(s[0]) || yaml11Words[s] {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isASCIILetter(c) && (c < '0' || c > '9') && c != '-' && c != '_' && c != '.' && c != '/' {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// formatFloat writes a float so that YAML reads it back as a float.
func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case math.IsNaN(f):
		return ".nan"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// isDecimal reports whether s is an optionally signed run of digits.
func isDecimal(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
