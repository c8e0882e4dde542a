package printer

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
)

// Object prints r exactly as kustomize's Resource.AsYAML does. AsYAML
// prints the node as YAML, reads that back into Go maps, marshals them to
// JSON, reads the JSON back with go-yaml v2 and marshals that. Object builds
// the value go-yaml v2 reads from that JSON straight from the node and
// marshals it with the same go-yaml v2, skipping four of the five steps;
// most objects skip the fifth too: printNode writes the bytes go-yaml v2
// would, straight from the node. A node holding anything whose trip
// through JSON is not plain (floats,
// timestamps, ints not in decimal, custom tags, non-string keys, duplicate
// keys, anchors, folded scalars, invalid UTF-8) takes kustomize's own path.
func Object(r *resource.Resource) ([]byte, error) { return objectWith(r, nil) }

// errDeclined: objectWith's post declined the printed object.
var errDeclined = errors.New("declined")

// objectWith is Object, its result passed through post when post is not
// nil (errDeclined when post declines it). post gets the printed bytes in
// a buffer that is reused once it returns: it returns bytes of its own.
func objectWith(r *resource.Resource, post func([]byte) ([]byte, bool)) ([]byte, error) {
	n := r.RNode.YNode()
	if n != nil && n.Kind == yaml.MappingNode {
		buf := printBuffers.Get().(*[]byte)
		out, ok := printNode(n, (*buf)[:0])
		var err error
		if ok {
			*buf = out
			if post == nil {
				out = bytes.Clone(out)
			} else {
				out, err = applyPost(out, nil, post)
			}
		}
		printBuffers.Put(buf)
		if ok {
			return out, err
		}
	}
	// The printer refuses what it cannot print and what nests too deep.
	if n != nil && yamlnode.TooDeep(n, 0) {
		return nil, errTooDeep
	}
	if n != nil && n.Kind == yaml.MappingNode {
		if v, ok := plainValue(n, false); ok {
			y, err := yamlv2.Marshal(v)
			return applyPost(y, err, post)
		}
	}
	y, err := r.AsYAML()
	return applyPost(y, err, post)
}

// maxDepth is how deep an object may nest maps and lists (yamlnode.MaxDepth):
// the bound kustomize's build fails past when it prints the object, which
// also holds an object a transformer made deeper than the files it read.
const maxDepth = yamlnode.MaxDepth

// errTooDeep is go-yaml's error, which kustomize's build ends with.
var errTooDeep = fmt.Errorf("%w (the object nests maps and lists deeper than that; kustomize cannot print it either)", yamlnode.ErrTooDeep)

// applyPost passes a printed object to post, when there is one.
func applyPost(y []byte, err error, post func([]byte) ([]byte, bool)) ([]byte, error) {
	if err != nil || post == nil {
		return y, err
	}
	out, ok := post(y)
	if !ok {
		return nil, errDeclined
	}
	return out, nil
}

// printBuffers hold printNode's output while it grows: one copy of the
// exact size leaves.
var printBuffers = sync.Pool{New: func() any { return new([]byte) }}

// JSONValue is the value kyaml's RNode.MarshalJSON reads from n (a
// mapping) before writing it as JSON: n printed by kyaml and read back by
// go-yaml v3 into Go maps. It reports false where plainValue does.
func JSONValue(n *yaml.Node) (map[string]interface{}, bool) {
	if n.Kind != yaml.MappingNode {
		return nil, false
	}
	v, ok := plainValue(n, false)
	if !ok {
		return nil, false
	}
	return v.(map[string]interface{}), true
}

// plainValue converts n into the value go-yaml v2 decodes from n's JSON
// form, or reports false when the conversion is not certain to match. inFlow
// says n is printed inside a flow collection. It is also the value go-yaml
// v3 decodes from n as kyaml prints it: only string keys, ints, booleans,
// nulls and strings pass, which the trip through JSON keeps as they are.
func plainValue(n *yaml.Node, inFlow bool) (interface{}, bool) {
	if n.Anchor != "" {
		return nil, false
	}
	inFlow = inFlow || n.Style&yaml.FlowStyle != 0
	switch n.Kind {
	case yaml.MappingNode:
		if len(n.Content)%2 != 0 {
			return nil, false
		}
		m := make(map[string]interface{}, len(n.Content)/2)
		for i := 0; i < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Anchor != "" || k.Value == "<<" {
				// A `<<` key may read back as a merge key.
				return nil, false
			}
			key, ok := scalarOf(k, true) // a string, as keys must be
			if !ok {
				return nil, false
			}
			if _, dup := m[key.text]; dup {
				return nil, false
			}
			v, ok := plainValue(n.Content[i+1], inFlow)
			if !ok {
				return nil, false
			}
			m[key.text] = v
		}
		return m, true
	case yaml.SequenceNode:
		s := make([]interface{}, len(n.Content))
		for i, c := range n.Content {
			v, ok := plainValue(c, inFlow)
			if !ok {
				return nil, false
			}
			s[i] = v
		}
		return s, true
	case yaml.ScalarNode:
		if inFlow && n.Value == "" && n.Style&quotedStyles == 0 {
			// The printer quotes an empty plain scalar in a flow
			// collection, so it reads back as a string, not null.
			return nil, false
		}
		return plainScalar(n, false)
	}
	return nil, false
}

var quotedStyles = yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle | yaml.LiteralStyle

// plainScalar is the value go-yaml v3 reads back from n as printed by kyaml
// (see scalarOf), as a Go value.
func plainScalar(n *yaml.Node, isKey bool) (interface{}, bool) {
	v, ok := scalarOf(n, isKey)
	if !ok {
		return nil, false
	}
	switch v.kind {
	case kindInt:
		i, err := strconv.Atoi(v.text)
		return i, err == nil
	case kindBool:
		return v.text == "true", true
	case kindNull:
		return nil, true
	}
	return v.text, true
}

// scalarValue is a scalar as go-yaml v2 gets it from kustomize's JSON: a
// string, or an int, bool or null in the form go-yaml v2 prints.
type scalarValue struct {
	text string
	kind scalarKind
}

type scalarKind uint8

const (
	kindString scalarKind = iota
	kindInt
	kindBool
	kindNull
)

var (
	nullValue  = scalarValue{text: "null", kind: kindNull}
	trueValue  = scalarValue{text: "true", kind: kindBool}
	falseValue = scalarValue{text: "false", kind: kindBool}
)

// scalarOf is the value go-yaml v3 reads back from n as printed by kyaml:
// a tag is dropped when the value's spelling implies it, a quoted or
// multi-line scalar reads as a string, an untagged plain one is resolved
// from its spelling. Only spellings whose resolution is certain pass.
func scalarOf(n *yaml.Node, isKey bool) (scalarValue, bool) {
	if n.Style&(yaml.FoldedStyle|yaml.TaggedStyle) != 0 || !utf8.ValidString(n.Value) {
		// A folded scalar is the one style whose printed form reflows text.
		return scalarValue{}, false
	}
	quoted := n.Style&quotedStyles != 0 || strings.IndexByte(n.Value, '\n') >= 0
	if quoted && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 && strings.HasPrefix(n.Value, "\t") {
		// kyaml prints it as a literal block whose first line starts with
		// a tab, which go-yaml v3 cannot read back: kustomize fails on it.
		return scalarValue{}, false
	}
	switch n.Tag {
	case yaml.NodeTagString:
		return scalarValue{text: n.Value}, true
	case "":
		if quoted {
			return scalarValue{text: n.Value}, true
		}
		if isKey && n.Value == "" {
			return scalarValue{}, false
		}
		v, ok := resolvePlain(n.Value)
		if !ok || (isKey && v.kind != kindString) {
			return scalarValue{}, false
		}
		return v, true
	}
	if quoted || isKey {
		return scalarValue{}, false
	}
	v, ok := resolvePlain(n.Value)
	if !ok {
		return scalarValue{}, false
	}
	switch v.kind {
	case kindInt:
		return v, n.Tag == yaml.NodeTagInt
	case kindBool:
		return v, n.Tag == yaml.NodeTagBool
	case kindNull:
		return v, n.Tag == yaml.NodeTagNull
	}
	return scalarValue{}, false
}

// resolvePlain resolves an untagged plain scalar as go-yaml v3 does, for
// the spellings it is sure of: strings, null, booleans, decimal ints.
func resolvePlain(s string) (scalarValue, bool) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nullValue, true
	case "true", "True", "TRUE":
		return trueValue, true
	case "false", "False", "FALSE":
		return falseValue, true
	}
	switch c := s[0]; {
	case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
		return scalarValue{text: s}, true
	case c == '-' || c == '+':
		if len(s) > 1 && isLetter(s[1]) {
			return scalarValue{text: s}, true
		}
	case c == '.' || (c >= '0' && c <= '9'):
	default:
		return scalarValue{text: s}, true
	}
	if i, ok := decimalInt(s); ok {
		return scalarValue{text: i, kind: kindInt}, true
	}
	return scalarValue{}, false
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// decimalInt accepts only plain decimal integers that fit an int64, and
// returns them as go-yaml v2 prints them; other spellings (0x1F, 0o17, +1,
// 1_000, 007) take kustomize's path.
func decimalInt(s string) (string, bool) {
	digits := s
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if digits == "" || (digits[0] == '0' && len(digits) > 1) {
		return "", false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return "", false
		}
	}
	if len(digits) >= 19 {
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			return "", false
		}
	}
	if s == "-0" {
		return "0", true
	}
	return s, true
}
