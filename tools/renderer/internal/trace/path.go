package trace

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
)

// step is one step of a field path as package rdiff writes it: a mapping key (.key or
// ["key"]), a named list item ([name=web]) or a list index ([0]).
type step struct {
	key        string // a mapping key, or the item's naming field
	value      string // a named item's value
	index      int    // a list index, when item and !named
	item, name bool
}

// parsePath reads rdiff's field paths (spec.template.spec.containers[name=web].image,
// metadata.labels["app.kubernetes.io/name"], spec.args[1]).
func parsePath(p string) ([]step, error) {
	var out []step
	for i := 0; i < len(p); {
		switch c := p[i]; {
		case c == '.':
			i++
		case c == '[':
			i++
			if i < len(p) && p[i] == '"' {
				q, err := strconv.QuotedPrefix(p[i:])
				if err != nil {
					return nil, fmt.Errorf("path %q: %w", p, err)
				}
				k, _ := strconv.Unquote(q)
				out = append(out, step{key: k})
				i += len(q)
			} else if n := strings.IndexAny(p[i:], "=]"); n < 0 {
				return nil, fmt.Errorf("path %q: unclosed [", p)
			} else if p[i+n] == ']' {
				idx, err := strconv.Atoi(p[i : i+n])
				if err != nil {
					return nil, fmt.Errorf("path %q: %w", p, err)
				}
				out = append(out, step{item: true, index: idx})
				i += n
			} else {
				s := step{item: true, name: true, key: p[i : i+n]}
				i += n + 1
				if i < len(p) && p[i] == '"' {
					q, err := strconv.QuotedPrefix(p[i:])
					if err != nil {
						return nil, fmt.Errorf("path %q: %w", p, err)
					}
					s.value, _ = strconv.Unquote(q)
					i += len(q)
				} else {
					end := strings.IndexByte(p[i:], ']')
					if end < 0 {
						return nil, fmt.Errorf("path %q: unclosed [", p)
					}
					s.value = p[i : i+end]
					i += end
				}
				out = append(out, s)
			}
			if i >= len(p) || p[i] != ']' {
				return nil, fmt.Errorf("path %q: want ] at %d", p, i)
			}
			i++
		default:
			end := strings.IndexAny(p[i:], ".[")
			if end < 0 {
				end = len(p) - i
			}
			out = append(out, step{key: p[i : i+end]})
			i += end
		}
	}
	return out, nil
}

// walk follows path from n; nil when a step is missing.
func walk(n *yaml.Node, path []step) *yaml.Node {
	for _, s := range path {
		if n == nil {
			return nil
		}
		switch {
		case !s.item:
			n = yamlnode.Field(n, s.key)
		case n.Kind != yaml.SequenceNode:
			return nil
		case !s.name:
			if s.index < 0 || s.index >= len(n.Content) {
				return nil
			}
			n = n.Content[s.index]
		default:
			var found *yaml.Node
			for _, it := range n.Content {
				if v := yamlnode.Field(it, s.key); v != nil && v.Kind == yaml.ScalarNode && v.Value == s.value {
					found = it
					break
				}
			}
			n = found
		}
	}
	return n
}

// fieldSet is a managedFields entry's field set (FieldsV1) indexed for lookups: "f:NAME" a
// field, "k:{...}" the list item with those keys (indexed by each key and value), "i:N" the
// Nth item. Built once per manager, in time linear in the set, so a hostile set with many
// keys costs no more per drifted field.
type fieldSet struct {
	children map[string]*fieldSet // by "f:NAME", "i:N", and "k:" + key + "=" + value
	leaf     bool
}

func newFieldSet(n *yaml.Node) *fieldSet {
	fs := &fieldSet{leaf: n.Kind != yaml.MappingNode || len(n.Content) == 0}
	if fs.leaf {
		return fs
	}
	fs.children = make(map[string]*fieldSet, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, child := n.Content[i].Value, newFieldSet(n.Content[i+1])
		js, ok := strings.CutPrefix(k, "k:")
		if !ok {
			fs.children[k] = child
			continue
		}
		var keys map[string]any
		if json.Unmarshal([]byte(js), &keys) != nil {
			continue
		}
		for name, v := range keys {
			fs.children["k:"+name+"="+fmt.Sprint(v)] = child
		}
	}
	return fs
}

// owns reports whether the set covers path: it names the path, or one of its ancestors as a
// whole (a leaf: an atomic value).
func (fs *fieldSet) owns(path []step) bool {
	n := fs
	for _, s := range path {
		if n.leaf {
			return n != fs
		}
		var k string
		switch {
		case !s.item:
			k = "f:" + s.key
		case !s.name:
			k = "i:" + strconv.Itoa(s.index)
		default:
			k = "k:" + s.key + "=" + s.value
		}
		if n = n.children[k]; n == nil {
			return false
		}
	}
	return true
}
