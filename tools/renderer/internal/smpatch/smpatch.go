// Package smpatch keeps kyaml's strategic merge out of the parts of an
// object that a patch has no value for.
//
// merge2 walks the union of the fields of the object and the patch, at
// every level it reaches, and sets each field back with yaml.FieldSetter. A
// field the patch lacks is walked against nothing, which leaves it as it
// is except for these effects (kyaml v0.21.2, walk and merge2):
//   - a plain string that YAML 1.1 reads as something else is double-quoted
//     (FieldSetter);
//   - a null field value becomes a new null node with the same text and style,
//     or, if it has no text ("a:"), the field is removed;
//   - a non-empty associative list (one whose schema says merge, by keys) is
//     rebuilt and copied back: its node keeps kind, style and elements and
//     loses tag, anchor, comments and position;
//   - nothing else: lists without a merge strategy are not entered at all.
//
// Hide applies those effects itself where they are sure and hides such
// fields from the merge: each map on the patch's paths (and each element of
// an associative list the patch merges) holds only the fields the patch has,
// until Restore puts the hidden ones back at their places. The merge sees
// the same fields, in the same order, with the same schema; it adds new
// fields at the end and removes cleared ones, which Restore keeps.
//
// Hide hides nothing it has not proved: it stops at comments (kyaml reads
// schemas from them), anchors and aliases, patch directives ($patch,
// $setElementOrder...), null values, lists merged by inferred keys or none,
// lists the patch merges by several keys, elements whose keys do not tell
// them apart, and nodes reachable twice, except scalars when every string
// the patch writes is known not to need quotes (then no walk of them changes
// anything). TestHideCases, TestHideRandom and FuzzHide compare it with
// kustomize's merge.
package smpatch

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/openapi"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/kustomize/kyaml/yaml/schema"
)

// Options say what Hide may assume.
type Options struct {
	// Known reports that kyaml's YAML 1.1 check leaves the plain string s
	// unquoted (yaml11.Known); nil means never known.
	Known func(s string) bool
	// SharedScalars says every string value the patch can write is Known,
	// so scalars reachable by several paths may be hidden.
	SharedScalars bool
}

// Hidden is what Hide took out of an object, for Restore.
type Hidden struct {
	maps []hiddenMap
}

// hiddenMap is a map whose fields at hide[i] were hidden; all its fields.
type hiddenMap struct {
	node *yaml.Node
	all  []*yaml.Node
	hide []bool
}

// Style bits go-yaml does not define (yaml11 uses 1<<7..1<<9): Hide's
// bookkeeping of nodes reached twice, cleared before it returns.
const (
	seenBit   yaml.Style = 1 << 12
	sharedBit yaml.Style = 1 << 13
)

const nullTag = "!!null"

// Hide hides from a merge of patch into dest the fields of dest that the
// merge would leave as they are (see the package doc). Call Restore on the
// result after the merge; a nil result (nothing hidden) is fine.
func Hide(dest, patch *yaml.Node, o Options) *Hidden {
	if dest == nil || patch == nil || dest.Kind != yaml.MappingNode || patch.Kind != yaml.MappingNode ||
		commented(dest) || commented(patch) || directive(patch) {
		return nil
	}
	if !see(dest) {
		clear(dest)
		return nil
	}
	h := hider{o: o}
	root := &lazySchema{s: rootSchema(dest, patch), done: true}
	h.hideMap(dest, patch, root, "metadata") // Resource.ApplySmPatch reads and writes metadata
	clear(dest)
	if len(h.plan) == 0 {
		return nil
	}
	for _, m := range h.plan {
		view := make([]*yaml.Node, 0, len(m.all))
		for i := 0; i+1 < len(m.all); i += 2 {
			if !m.hide[i/2] {
				view = append(view, m.all[i], m.all[i+1])
			}
		}
		m.node.Content = view
	}
	return &Hidden{maps: h.plan}
}

// Restore puts the hidden fields back at their places: the fields the merge
// kept stay in their order, those it added follow the last of them.
func (h *Hidden) Restore() {
	if h == nil {
		return
	}
	for _, m := range h.maps {
		cur := m.node.Content
		out := make([]*yaml.Node, 0, len(m.all)+len(cur))
		j := 0
		for i := 0; i+1 < len(m.all); i += 2 {
			switch {
			case m.hide[i/2]:
				out = append(out, m.all[i], m.all[i+1])
			case j+1 < len(cur) && cur[j] == m.all[i]:
				out = append(out, cur[j], cur[j+1])
				j += 2
			}
		}
		m.node.Content = append(out, cur[j:]...)
	}
}

// rootSchema is the schema kyaml's walker finds for the object.
func rootSchema(dest, patch *yaml.Node) *openapi.ResourceSchema {
	for _, n := range []*yaml.Node{dest, patch} {
		m, _ := yaml.NewRNode(n).GetMeta()
		if m.Kind == "" || m.APIVersion == "" {
			continue
		}
		if s := openapi.SchemaForResourceType(yaml.TypeMeta{Kind: m.Kind, APIVersion: m.APIVersion}); s != nil {
			return s
		}
	}
	return nil
}

// lazySchema is the walker's schema at a path, looked up only when needed
// (only lists and typed maps depend on it, and lookups copy schemas).
type lazySchema struct {
	parent *lazySchema
	name   string // field name, or "" for the elements of a list
	done   bool
	s      *openapi.ResourceSchema
}

func (l *lazySchema) get() *openapi.ResourceSchema {
	if !l.done {
		l.done = true
		if p := l.parent.get(); p != nil {
			if l.name == "" {
				l.s = p.Elements()
			} else {
				l.s = p.Field(l.name)
			}
		}
	}
	return l.s
}

// effect is a change the walk would make to a field it walks against
// nothing; Hide makes it itself when it hides the field.
type effect struct {
	node *yaml.Node
	kind effectKind
	in   *yaml.Node // map holding node, for dropField
	key  *yaml.Node
}

type effectKind int

const (
	quote     effectKind = iota // double-quote a string
	renull                      // a new null node of the same text and style
	dropField                   // remove key and node from in
	rebuild                     // keep kind, style and elements only
)

type hider struct {
	o       Options
	plan    []hiddenMap
	effects []effect
}

func (h *hider) apply(from int) {
	for _, e := range h.effects[from:] {
		n := e.node
		switch e.kind {
		case quote:
			n.Style = yaml.DoubleQuotedStyle | n.Style&(seenBit|sharedBit)
		case renull:
			*n = yaml.Node{Kind: yaml.ScalarNode, Tag: nullTag, Value: n.Value, Style: n.Style}
		case dropField:
			for i := 0; i+1 < len(e.in.Content); i += 2 {
				if e.in.Content[i] == e.key {
					e.in.Content = append(e.in.Content[:i:i], e.in.Content[i+2:]...)
					break
				}
			}
		case rebuild:
			*n = yaml.Node{Kind: n.Kind, Style: n.Style, Content: n.Content}
		}
	}
	h.effects = h.effects[:from]
}

// hideMap hides the fields of d that patch p lacks and whose walk is known,
// and goes on into the maps and lists both have. d and p are maps without
// comments, d is reached once, p has no directive, and s is the walker's
// schema for both. The field named keep stays.
func (h *hider) hideMap(d, p *yaml.Node, s *lazySchema, keep string) {
	hide := make([]bool, len(d.Content)/2)
	hidden := 0
	for i := 0; i+1 < len(d.Content); i += 2 {
		k, v := d.Content[i], d.Content[i+1]
		if k.Kind != yaml.ScalarNode || commented(k) || k.Value == "apiVersion" || k.Value == "kind" || k.Value == keep {
			continue
		}
		sub := &lazySchema{parent: s, name: k.Value}
		pk, pv := field(p, k.Value)
		if pv == nil {
			if h.settled(d, i, sub) {
				hide[i/2] = true
				hidden++
			}
			continue
		}
		if commented(pk) || commented(v) || commented(pv) || v.Style&sharedBit != 0 ||
			v.Tag == nullTag || pv.Tag == nullTag || v.Kind != pv.Kind {
			continue
		}
		switch v.Kind {
		case yaml.MappingNode:
			// Without a schema the walker would look one up by apiVersion and kind.
			if !directive(pv) && (sub.get() != nil || !typed(v) && !typed(pv)) {
				h.hideMap(v, pv, sub, "")
			}
		case yaml.SequenceNode:
			h.hideElements(v, pv, sub)
		}
	}
	if hidden == len(hide) {
		// An empty map takes the patch's style: keep a field in view.
		for i := range hide {
			if hide[i] {
				hide[i] = false
				hidden--
				break
			}
		}
	}
	if hidden > 0 {
		h.plan = append(h.plan, hiddenMap{node: d, all: d.Content, hide: hide})
	}
}

// hideElements hides fields of the elements of an associative list d merged
// by one key with list p: an element p has no element for is walked against
// nothing, one it has against that element.
func (h *hider) hideElements(d, p *yaml.Node, s *lazySchema) {
	ls := s.get()
	if ls == nil || !schema.IsAssociative(ls, nil, false) {
		return // replaced whole
	}
	_, keys := ls.PatchStrategyAndKeyList()
	if len(keys) != 1 || commented(d) || commented(p) {
		return
	}
	key := keys[0]
	byKey := make(map[string]*yaml.Node, len(p.Content))
	for _, e := range p.Content {
		v := ""
		if e.Kind == yaml.MappingNode && !commented(e) && !directive(e) {
			v = keyValue(e, key)
		}
		if v == "" || byKey[v] != nil {
			return
		}
		byKey[v] = e
	}
	if !distinctKeys(d, key) {
		return
	}
	es := &lazySchema{parent: s}
	if es.get() == nil {
		return
	}
	for _, e := range d.Content {
		if e.Style&sharedBit != 0 || commented(e) {
			return
		}
	}
	for _, e := range d.Content {
		pe := byKey[keyValue(e, key)]
		if pe == nil {
			pe = nothing
		}
		h.hideMap(e, pe, es, key)
	}
}

// nothing is the patch of an element the patch has no element for.
var nothing = &yaml.Node{Kind: yaml.MappingNode}

// settled reports that walking field i of map m against nothing changes
// nothing but the effects it makes. It stops at a null value (the walk
// replaces or removes the field itself).
func (h *hider) settled(m *yaml.Node, i int, s *lazySchema) bool {
	from := len(h.effects)
	v := m.Content[i+1]
	if v.Tag == nullTag || !h.value(v) || !h.walked(v, s) ||
		len(h.effects) > from && twice(m, i) {
		h.effects = h.effects[:from]
		return false
	}
	h.apply(from)
	return true
}

// value notes FieldSetter's quoting of v; false if v is reached twice and
// would change.
func (h *hider) value(v *yaml.Node) bool {
	if v.Kind != yaml.ScalarNode || v.Style&^(seenBit|sharedBit) != 0 || v.Tag != yaml.NodeTagString && v.Tag != "" ||
		h.o.Known != nil && h.o.Known(v.Value) || !yaml.IsYaml1_1NonString(v) {
		return true
	}
	if v.Style&sharedBit != 0 {
		return false
	}
	h.effects = append(h.effects, effect{node: v, kind: quote})
	return true
}

// walked reports that the walker, visiting n against nothing with schema s,
// changes nothing but the effects it notes.
func (h *hider) walked(n *yaml.Node, s *lazySchema) bool {
	if n.Style&sharedBit != 0 && (n.Kind != yaml.ScalarNode || !h.o.SharedScalars) ||
		commented(n) || n.Anchor != "" {
		return false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return true // a null is its map's to settle
	case yaml.MappingNode:
		if typed(n) && s.get() == nil {
			return false
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || commented(k) {
				return false
			}
			if v.Tag == nullTag {
				if v.Kind != yaml.ScalarNode || v.Style&sharedBit != 0 || commented(v) || twice(n, i) {
					return false
				}
				if v.Value == "" {
					h.effects = append(h.effects, effect{node: v, kind: dropField, in: n, key: k})
				} else {
					h.effects = append(h.effects, effect{node: v, kind: renull})
				}
				continue
			}
			from := len(h.effects)
			if !h.value(v) || !h.walked(v, &lazySchema{parent: s, name: k.Value}) {
				return false
			}
			if len(h.effects) > from && twice(n, i) {
				return false
			}
		}
		return true
	case yaml.SequenceNode:
		return h.walkedList(n, s)
	}
	return false
}

// walkedList is walked for a list: the walker enters only associative
// lists, and rebuilds them from their elements in order when the elements'
// keys tell them apart.
func (h *hider) walkedList(n *yaml.Node, s *lazySchema) bool {
	ls := s.get()
	if ls == nil || !schema.IsAssociative(ls, nil, false) {
		return true
	}
	_, keys := ls.PatchStrategyAndKeyList()
	if len(keys) == 0 {
		return false // primitive or inferred keys
	}
	if len(n.Content) == 0 {
		return true
	}
	for _, e := range n.Content {
		if e.Kind != yaml.MappingNode || e.Tag == nullTag {
			return false
		}
	}
	// A key no element has a value for is dropped; one some lack would
	// merge elements. Each element must have its own values of the rest.
	var used []string
	for _, k := range keys {
		with := 0
		for _, e := range n.Content {
			if keyValue(e, k) != "" {
				with++
			}
		}
		switch with {
		case len(n.Content):
			used = append(used, k)
		case 0:
		default:
			return false
		}
	}
	if len(used) == 0 {
		return false
	}
	seen := make(map[string]bool, len(n.Content))
	var b strings.Builder
	for _, e := range n.Content {
		b.Reset()
		for _, k := range used {
			b.WriteString(keyValue(e, k))
			b.WriteByte(0)
		}
		if seen[b.String()] {
			return false
		}
		seen[b.String()] = true
	}
	es := &lazySchema{parent: s}
	for _, e := range n.Content {
		if !h.walked(e, es) {
			return false
		}
	}
	h.effects = append(h.effects, effect{node: n, kind: rebuild})
	return true
}

// distinctKeys reports that each element of list d is a map reached once
// whose key field is a non-empty scalar no other element has.
func distinctKeys(d *yaml.Node, key string) bool {
	seen := make(map[string]bool, len(d.Content))
	for _, e := range d.Content {
		if e.Kind != yaml.MappingNode || e.Tag == nullTag {
			return false
		}
		v := keyValue(e, key)
		if v == "" || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// keyValue is the text of m's scalar field key, or "" if it has none.
func keyValue(m *yaml.Node, key string) string {
	_, v := field(m, key)
	if v == nil || v.Kind != yaml.ScalarNode || v.Tag == nullTag {
		return ""
	}
	return v.Value
}

func field(m *yaml.Node, name string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// twice reports that map m has another field named as field i: the walker
// visits only the first of them.
func twice(m *yaml.Node, i int) bool {
	name := m.Content[i].Value
	for j := 0; j+1 < len(m.Content); j += 2 {
		if j != i && m.Content[j].Value == name {
			return true
		}
	}
	return false
}

// typed reports that map m has apiVersion and kind: without a schema the
// walker would look one up from them.
func typed(m *yaml.Node) bool {
	k, _ := field(m, "kind")
	a, _ := field(m, "apiVersion")
	return k != nil && a != nil
}

// directive reports that map m has a $-field ($patch, $retainKeys,
// $setElementOrder/..., $deleteFromPrimitiveList/...).
func directive(m *yaml.Node) bool {
	for i := 0; i < len(m.Content); i += 2 {
		if strings.HasPrefix(m.Content[i].Value, "$") {
			return true
		}
	}
	return false
}

func commented(n *yaml.Node) bool {
	return n.HeadComment != "" || n.LineComment != "" || n.FootComment != ""
}

// see sets seenBit on every node, and sharedBit on those reached again; it
// reports false at an alias.
func see(n *yaml.Node) bool {
	if n.Style&seenBit != 0 {
		n.Style |= sharedBit
		return true
	}
	if n.Kind == yaml.AliasNode || n.Alias != nil {
		return false
	}
	n.Style |= seenBit
	for _, c := range n.Content {
		if !see(c) {
			return false
		}
	}
	return true
}

// clear removes see's bits.
func clear(n *yaml.Node) {
	if n.Style&(seenBit|sharedBit) == 0 {
		return
	}
	n.Style &^= seenBit | sharedBit
	for _, c := range n.Content {
		clear(c)
	}
}

// Maps is the number of maps Hide hid fields of.
func (h *Hidden) Maps() int {
	if h == nil {
		return 0
	}
	return len(h.maps)
}
