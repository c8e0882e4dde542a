// Package yaml11 spares kyaml's YAML 1.1 check where its answer is known.
//
// kyaml's FieldSetter double-quotes a plain string value that a YAML 1.1
// parser would read as something else ("yes", "0755", "a: b"); to find out it
// parses every plain string it sets with go-yaml v2, a new parser each
// time (a fifth of krm's allocation on the bench tree). A strategic merge patch sets every field of the object it
// patches, so that parse runs for nearly every string of every patched
// object, and nearly always says "a string".
//
// Known decides from a string's bytes, for the common shapes (a letter, then
// letters, digits and _ . - / with colons between them), that the check says
// "a string". MarkKnown flags such plain string values with a style bit that
// go-yaml does not define, so that FieldSetter, which checks only values
// without a style, skips them; Unmark clears the bit again. The check would
// have left those values unchanged, and the bit is otherwise only copied
// from node to node, so the result is the same once it is cleared.
// SetEntry and EntriesFilter do the same for label and annotation setters;
// SetScalar skips the check where FieldSetter discards its answer
// (TestApplySmPatchMatches and FuzzApplySmPatch; TestSetScalarMatchesKustomize;
// TestEntriesFilterMatchesKustomize and FuzzEntriesFilter;
// TestKnownRandom and FuzzKnown against kyaml for Known).
package yaml11

import (
	"sigs.k8s.io/kustomize/api/filters/filtersutil"
	"sigs.k8s.io/kustomize/api/filters/fsslice"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/fingerprint"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/smpatch"
)

// Known reports that kyaml's IsValueNonString(s) is false for certain: s
// reads as a string in YAML 1.1. False means it is not known.
func Known(s string) bool {
	if s == "" || !letter(s[0]) {
		return false
	}
	letters := true
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case letter(c):
		case safe(c):
			letters = false
		case c == ':':
			// "a: b" and "a:" are mappings; "a:b" is a plain string.
			if i+1 == len(s) || !(letter(s[i+1]) || safe(s[i+1])) {
				return false
			}
			letters = false
		default:
			return false
		}
	}
	return !letters || !words[s]
}

// words are the strings starting with a letter that go-yaml v2 resolves to
// a bool or null; other strings starting with a letter stay strings.
var words = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"n": true, "N": true, "no": true, "No": true, "NO": true,
	"true": true, "True": true, "TRUE": true, "false": true, "False": true, "FALSE": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
	"null": true, "Null": true, "NULL": true,
}

func letter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func safe(c byte) bool { return '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-' || c == '/' }

// Style bits of go-yaml v3 that it does not define (its encoder and kyaml
// test styles bit by bit): checked is MarkKnown's flag; seenBit and sharedBit are
// MarkKnown's own bookkeeping, cleared before it returns.
const (
	checked yaml.Style = 1 << (iota + 7)
	seenBit
	sharedBit
)

// MarkKnown flags the plain string values of n's mappings that Known
// accepts. It reports false (and flags nothing) if n holds an alias.
//
// Unless evenShared is true it skips nodes reachable by more than one path:
// kustomize's label transformer puts one node at several paths, and a merge
// that writes a patch's value into such a node at one path checks it at the
// next with that value, which the flag would skip. Pass evenShared when every
// value the merge can write is known (AllKnown of the patch).
func MarkKnown(n *yaml.Node, evenShared bool) bool {
	if evenShared {
		if !noAlias(n) {
			return false
		}
		mark(n, false)
		return true
	}
	var twice []*yaml.Node
	if !see(n, &twice) {
		Unmark(n)
		return false
	}
	mark(n, false)
	for _, s := range twice {
		s.Style &^= sharedBit
	}
	return true
}

// AllKnown reports that every string value of n's mappings is Known, so a
// merge of n writes only known strings into the object it patches.
func AllKnown(n *yaml.Node) bool {
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 1 && c.Kind == yaml.ScalarNode {
			if (c.Tag == yaml.NodeTagString || c.Tag == "") && !Known(c.Value) {
				return false
			}
			continue
		}
		if !AllKnown(c) {
			return false
		}
	}
	return true
}

func noAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		return false
	}
	for _, c := range n.Content {
		if !noAlias(c) {
			return false
		}
	}
	return true
}

// see sets seenBit on every node, and sharedBit on those reached again.
func see(n *yaml.Node, twice *[]*yaml.Node) bool {
	if n.Style&seenBit != 0 {
		if n.Style&sharedBit == 0 {
			n.Style |= sharedBit
			*twice = append(*twice, n)
		}
		return true
	}
	if n.Kind == yaml.AliasNode {
		return false
	}
	n.Style |= seenBit
	for _, c := range n.Content {
		if !see(c, twice) {
			return false
		}
	}
	return true
}

// mark clears seenBit and flags known values outside sharedBit subtrees.
func mark(n *yaml.Node, inShared bool) {
	n.Style &^= seenBit
	inShared = inShared || n.Style&sharedBit != 0
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 1 && c.Kind == yaml.ScalarNode && !inShared &&
			c.Style&^seenBit == 0 && c.Tag == yaml.NodeTagString && Known(c.Value) {
			c.Style = checked
			continue
		}
		mark(c, inShared)
	}
}

// ApplySmPatch is r.ApplySmPatch(p) for a p of r's own, with the known
// strings of both flagged so that the merge, which runs kyaml's check on
// every field it sets, skips them. Before that, smpatch hides from the
// merge the fields of r that p has no value for and that the merge would
// leave as they are; they are back before the flags are cleared, as a
// flagged node the merge removed from view may still be reached through them.
func ApplySmPatch(r, p *resource.Resource) error {
	pn, rn := p.RNode.YNode(), r.RNode.YNode()
	if pn == nil || rn == nil {
		return r.ApplySmPatch(p)
	}
	known := AllKnown(pn)
	hidden := smpatch.Hide(rn, pn, smpatch.Options{Known: Known, SharedScalars: known})
	if !MarkKnown(pn, false) {
		err := r.ApplySmPatch(p)
		hidden.Restore()
		return err
	}
	if !MarkKnown(rn, known) {
		Unmark(pn)
		err := r.ApplySmPatch(p)
		hidden.Restore()
		return err
	}
	err := r.ApplySmPatch(p)
	hidden.Restore()
	Unmark(r.RNode.YNode())
	Unmark(pn)
	return err
}

// Unmark clears the flag from every node reachable from n.
func Unmark(n *yaml.Node) {
	if n == nil {
		return
	}
	n.Style &^= checked | seenBit | sharedBit
	for _, c := range n.Content {
		Unmark(c)
	}
}

// SetEntry is filtersutil.SetEntry(name, value, tag): a setter of a map
// entry that kyaml's FieldSetter checks each time it sets it. For a string
// entry whose value is Known the check does nothing, so SetEntry flags the
// value for the call and clears the flag after: FieldSetter either replaces
// the flagged style with the existing field's or appends the node itself.
func SetEntry(name, value, tag string) filtersutil.SetFn {
	if name == "" || tag != yaml.NodeTagString {
		return filtersutil.SetEntry(name, value, tag)
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: value, Tag: tag}
	return func(node *yaml.RNode) error {
		flag := n.Style == 0 && n.Kind == yaml.ScalarNode && n.Tag == yaml.NodeTagString && Known(n.Value)
		if flag {
			n.Style = checked
		}
		err := node.PipeE(yaml.FieldSetter{Name: name, Value: yaml.NewRNode(n)})
		if flag {
			n.Style &^= checked
		}
		return err
	}
}

// EntriesFilter is kustomize's labels.Filter and annotations.Filter (which
// differ only in names) with SetEntry for filtersutil's: it sets each entry,
// in key order, at every field spec of each object, creating maps as needed.
type EntriesFilter struct {
	Entries map[string]string
	FsSlice types.FsSlice
	// Changed, when set, is called before each set that changes what the
	// object prints: one that adds the entry or gives it another value.
	Changed func()
}

func (f EntriesFilter) Filter(nodes []*yaml.RNode) ([]*yaml.RNode, error) {
	keys := yaml.SortedMapKeys(f.Entries)
	_, err := kio.FilterAll(yaml.FilterFunc(func(node *yaml.RNode) (*yaml.RNode, error) {
		for _, k := range keys {
			err := node.PipeE(fsslice.Filter{
				FsSlice:    f.FsSlice,
				SetValue:   setEntry(k, f.Entries[k], f.Changed),
				CreateKind: yaml.MappingNode,
				CreateTag:  yaml.NodeTagMap,
			})
			if err != nil {
				return nil, err
			}
		}
		return node, nil
	})).Filter(nodes)
	return nodes, err
}

// setEntry is SetEntry(name, value, "!!str") that calls changed (when set)
// before a set that changes the entry.
func setEntry(name, value string, changed func()) filtersutil.SetFn {
	set := SetEntry(name, value, yaml.NodeTagString)
	if changed == nil {
		return set
	}
	return func(node *yaml.RNode) error {
		if !fingerprint.SameString(yamlnode.Field(node.YNode(), name), value) {
			changed()
		}
		return set(node)
	}
}

// SetScalar is filtersutil.SetScalar(value) without the check: kyaml's
// FieldSetter, given no field name, quotes a value the check flags and then
// overwrites that style with the style of the node it sets, so it leaves
// the node a plain-tagged scalar of value in its own style either way.
// Nodes that are not scalars (errors, or documents) take kustomize's path.
func SetScalar(value string) filtersutil.SetFn {
	return func(node *yaml.RNode) error {
		n := node.Document()
		if n == nil || n.Kind != yaml.ScalarNode {
			return filtersutil.SetScalar(value)(node)
		}
		*n = yaml.Node{Kind: yaml.ScalarNode, Value: value, Style: n.Style}
		return nil
	}
}
