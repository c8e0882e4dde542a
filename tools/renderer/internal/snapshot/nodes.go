package snapshot

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The resources of a snapshot are written as their YAML nodes, field by
// field, not as YAML text: parsing YAML back cost a parent as much CPU as
// rendering, and YAML text does not hold a node as the accumulation has it
// (an untagged scalar, a collection without tag, a style its value cannot
// be read back in, nodes shared between paths). Comments are left out
// (kustomize prints none, and a comment-only edit of a base then leaves its
// snapshot byte-identical), and so are lines and columns (any edit above a
// node would change them).
//
// One line per node, in preorder, children after their parent:
//
//	KIND TAG STYLE [&ANCHOR] [=VALUE] [*CHILDREN] [@]
//
// KIND is d, q, m, s or a (document, sequence, mapping, scalar, alias); TAG
// a letter for a common tag (tagCodes) or !TEXT; STYLE a decimal number;
// TEXT, ANCHOR and VALUE are LENGTH:BYTES; @ says the alias target follows,
// before the children. A node already written in the same snapshot (a
// shared one) is written rINDEX instead, INDEX counting nodes from 0 in the
// order they were first written.

// tagCodes are the letters of the tags most nodes carry.
var tagCodes = map[string]byte{
	"":            '-',
	"!!str":       's',
	"!!map":       'm',
	"!!seq":       'q',
	"!!int":       'i',
	"!!bool":      'b',
	"!!null":      'n',
	"!!float":     'f',
	"!!timestamp": 't',
	"!!binary":    'x',
}

var kindCodes = map[yaml.Kind]byte{
	yaml.DocumentNode: 'd',
	yaml.SequenceNode: 'q',
	yaml.MappingNode:  'm',
	yaml.ScalarNode:   's',
	yaml.AliasNode:    'a',
}

var tagOf, kindOf = func() (tags [256]*string, kinds [256]yaml.Kind) {
	for tag, c := range tagCodes {
		tags[c] = &tag
	}
	for kind, c := range kindCodes {
		kinds[c] = kind
	}
	return tags, kinds
}()

// nodeWriter writes the nodes of one snapshot.
type nodeWriter struct {
	out  []byte
	seen map[*yaml.Node]int
}

func (w *nodeWriter) node(n *yaml.Node) error {
	if n == nil {
		return errors.New("nil YAML node")
	}
	if i, ok := w.seen[n]; ok {
		w.out = append(w.out, 'r')
		w.out = strconv.AppendInt(w.out, int64(i), 10)
		w.out = append(w.out, '\n')
		return nil
	}
	w.seen[n] = len(w.seen)
	kind, ok := kindCodes[n.Kind]
	if !ok {
		return fmt.Errorf("YAML node of unknown kind %d", n.Kind)
	}
	w.out = append(w.out, kind)
	if c, ok := tagCodes[n.Tag]; ok {
		w.out = append(w.out, c)
	} else {
		w.out = append(w.out, '!')
		w.str(n.Tag)
	}
	w.out = strconv.AppendUint(w.out, uint64(n.Style), 10)
	if n.Anchor != "" {
		w.out = append(w.out, '&')
		w.str(n.Anchor)
	}
	if n.Value != "" {
		w.out = append(w.out, '=')
		w.str(n.Value)
	}
	if len(n.Content) > 0 {
		w.out = append(w.out, '*')
		w.out = strconv.AppendInt(w.out, int64(len(n.Content)), 10)
	}
	if n.Alias != nil {
		w.out = append(w.out, '@')
	}
	w.out = append(w.out, '\n')
	if n.Alias != nil {
		if err := w.node(n.Alias); err != nil {
			return err
		}
	}
	for _, c := range n.Content {
		if err := w.node(c); err != nil {
			return err
		}
	}
	return nil
}

func (w *nodeWriter) str(s string) {
	w.out = strconv.AppendInt(w.out, int64(len(s)), 10)
	w.out = append(w.out, ':')
	w.out = append(w.out, s...)
}

// maxDepth bounds the nesting a snapshot may have, against a stack
// overflow on a corrupt one.
const maxDepth = 10000

// A node written once and referenced twice by its parent, which is
// referenced twice by its own, and so on, makes a few lines that a walk
// through the objects (the printer, every transformer) visits 2^lines
// times. expansionFactor and minExpansion bound the nodes such a walk
// visits, counting a shared node each time it is reached: krm's own
// snapshots share leaves and small subtrees, far below the bound.
const (
	expansionFactor = 16
	minExpansion    = 1 << 22
)

// nodeReader reads the nodes nodeWriter wrote. Nodes and child lists are
// cut from large blocks (a child list's capacity ends at its length, so an
// append copies it), strings from the snapshot text.
type nodeReader struct {
	s     string
	pos   int
	nodes []*yaml.Node
	// open marks the nodes whose children are being read: a reference to
	// one would make a cycle.
	open []bool
	// size is the number of nodes a walk from each node visits.
	size  []int
	block []yaml.Node
	lists []*yaml.Node
	// visits is the sum of the sizes of the objects read so far.
	visits int
}

var errTruncated = errors.New("truncated node")

// object reads the nodes of one object, and fails once walking all the
// objects read so far would visit more nodes than the bound allows.
func (r *nodeReader) object() (*yaml.Node, error) {
	n, size, err := r.node(0)
	if err != nil {
		return nil, err
	}
	r.visits = saturatingAdd(r.visits, size)
	if limit := max(expansionFactor*len(r.nodes), minExpansion); r.visits > limit {
		return nil, fmt.Errorf("shared nodes expand to more than %d nodes", limit)
	}
	return n, nil
}

// node reads a node and its children, and returns the node and the
// number of nodes a walk from it visits.
func (r *nodeReader) node(depth int) (*yaml.Node, int, error) {
	if depth > maxDepth {
		return nil, 0, fmt.Errorf("nodes nested deeper than %d", maxDepth)
	}
	if r.pos >= len(r.s) {
		return nil, 0, errTruncated
	}
	c := r.s[r.pos]
	r.pos++
	var err error
	if c == 'r' {
		i, err := r.num()
		if err != nil {
			return nil, 0, err
		}
		if i >= len(r.nodes) || r.open[i] {
			return nil, 0, fmt.Errorf("bad node reference %d", i)
		}
		return r.nodes[i], r.size[i], r.end()
	}
	kind := kindOf[c]
	if kind == 0 {
		return nil, 0, fmt.Errorf("bad node kind %q at byte %d", c, r.pos-1)
	}
	if len(r.block) == 0 {
		r.block = make([]yaml.Node, 512)
	}
	n := &r.block[0]
	r.block = r.block[1:]
	n.Kind = kind
	index := len(r.nodes)
	r.nodes = append(r.nodes, n)
	r.open = append(r.open, true)
	r.size = append(r.size, 0)
	if r.pos >= len(r.s) {
		return nil, 0, errTruncated
	}
	c = r.s[r.pos]
	r.pos++
	if tag := tagOf[c]; tag != nil {
		n.Tag = *tag
	} else if c != '!' {
		return nil, 0, fmt.Errorf("bad tag code %q at byte %d", c, r.pos-1)
	} else if n.Tag, err = r.str(); err != nil {
		return nil, 0, err
	}
	style, err := r.num()
	if err != nil {
		return nil, 0, err
	}
	n.Style = yaml.Style(style)
	children, alias := 0, false
	if r.peek('&') {
		if n.Anchor, err = r.str(); err != nil {
			return nil, 0, err
		}
	}
	if r.peek('=') {
		if n.Value, err = r.str(); err != nil {
			return nil, 0, err
		}
	}
	if r.peek('*') {
		if children, err = r.num(); err != nil {
			return nil, 0, err
		}
		// Each child takes at least three bytes.
		if children > (len(r.s)-r.pos)/3 {
			return nil, 0, errTruncated
		}
	}
	alias = r.peek('@')
	if err := r.end(); err != nil {
		return nil, 0, err
	}
	size := 1
	if alias {
		var s int
		if n.Alias, s, err = r.node(depth + 1); err != nil {
			return nil, 0, err
		}
		size = saturatingAdd(size, s)
	}
	if children > 0 {
		if len(r.lists) < children {
			r.lists = make([]*yaml.Node, max(children, 4096))
		}
		n.Content = r.lists[:children:children]
		r.lists = r.lists[children:]
		for i := range n.Content {
			var s int
			if n.Content[i], s, err = r.node(depth + 1); err != nil {
				return nil, 0, err
			}
			size = saturatingAdd(size, s)
		}
	}
	r.open[index] = false
	r.size[index] = size
	return n, size, nil
}

// saturatingAdd adds sizes that a crafted snapshot can double at each line.
func saturatingAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// num reads a decimal number.
func (r *nodeReader) num() (int, error) {
	start, v := r.pos, 0
	for r.pos < len(r.s) && r.s[r.pos] >= '0' && r.s[r.pos] <= '9' && r.pos-start < 9 {
		v = v*10 + int(r.s[r.pos]-'0')
		r.pos++
	}
	if r.pos == start {
		return 0, fmt.Errorf("number expected at byte %d", r.pos)
	}
	return v, nil
}

// str reads LENGTH:BYTES.
func (r *nodeReader) str() (string, error) {
	n, err := r.num()
	if err != nil || !r.peek(':') || n > len(r.s)-r.pos {
		return "", errTruncated
	}
	s := r.s[r.pos : r.pos+n]
	r.pos += n
	return s, nil
}

// peek consumes c if it is next.
func (r *nodeReader) peek(c byte) bool {
	if r.pos < len(r.s) && r.s[r.pos] == c {
		r.pos++
		return true
	}
	return false
}

func (r *nodeReader) end() error {
	if !r.peek('\n') {
		return fmt.Errorf("end of line expected at byte %d", r.pos)
	}
	return nil
}
