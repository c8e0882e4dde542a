package rdiff

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/secretdata"
)

// Kinds of Field.Change.
const (
	Added     = "added"
	Removed   = "removed"
	Changed   = "changed"
	Reordered = "reordered"
)

// Field is one difference inside an object.
type Field struct {
	// Path is where, e.g. spec.template.spec.containers[name=web].image.
	Path   string `json:"path"`
	Change string `json:"change"`
	// Old and New are the values as JSON (left out when absent or hidden).
	Old json.RawMessage `json:"old,omitempty"`
	New json.RawMessage `json:"new,omitempty"`
	// Lines is a unified line diff, instead of Old and New, for multi-line strings.
	Lines []string `json:"lines,omitempty"`
	// Redacted is set for Secret values (package secretdata): no values at all.
	Redacted bool `json:"redacted,omitempty"`

	// oldText and newText are the strings of a changed pair of string
	// scalars, to tell references that follow a rename.
	oldText, newText string
	strings          bool
}

// listKeys are the fields that name list items, by preference: a list whose
// items all have one of them, unique on each side, is matched by it.
var listKeys = []string{"name", "containerPort", "port", "mountPath"}

// differ walks two objects in step.
type differ struct {
	old, new secretdata.Set // the Secret values of each side
	out      []Field
}

// Fields lists how object b differs from object a (two mappings), field by field as krm
// diff lists a changed object's fields (named lists matched by name, Secret values hidden
// wherever package secretdata finds them; secret says that a and b are Secrets whatever
// their kind says): for krm trace, which compares a live object with its render.
func Fields(a, b *yaml.Node, secret bool) []Field {
	return diffNodes(a, b, secretdata.Find(a, secret), secretdata.Find(b, secret))
}

func diffObjects(o, n object) []Field {
	return diffNodes(o.node, n.node, secretdata.Find(o.node, o.secret), secretdata.Find(n.node, n.secret))
}

func diffNodes(a, b *yaml.Node, oldSecrets, newSecrets secretdata.Set) []Field {
	d := &differ{old: oldSecrets, new: newSecrets}
	d.node("", a, b, false)
	return d.out
}

// node compares a and b; hidden says their values must not be printed.
func (d *differ) node(path string, a, b *yaml.Node, hidden bool) {
	switch {
	case a.Kind == yaml.MappingNode && b.Kind == yaml.MappingNode:
		d.mapping(path, a, b, hidden || d.old.Has(a) || d.new.Has(b))
	case a.Kind == yaml.SequenceNode && b.Kind == yaml.SequenceNode:
		d.sequence(path, a, b, hidden || d.old.Has(a) || d.new.Has(b))
	case a.Kind == yaml.ScalarNode && b.Kind == yaml.ScalarNode && sameScalar(a, b):
	default:
		d.changed(path, a, b, hidden)
	}
}

func (d *differ) changed(path string, a, b *yaml.Node, hidden bool) {
	hidden = hidden || d.old.Within(a) || d.new.Within(b)
	f := Field{Path: path, Change: Changed, Redacted: hidden}
	if !hidden {
		if isString(a) && isString(b) {
			f.oldText, f.newText, f.strings = a.Value, b.Value, true
			if strings.Contains(a.Value, "\n") || strings.Contains(b.Value, "\n") {
				f.Lines = lineDiff(a.Value, b.Value)
			}
		}
		if f.Lines == nil {
			f.Old, f.New = jsonValue(a), jsonValue(b)
		}
	}
	d.out = append(d.out, f)
}

// one notes n removed from the old side or added on the new.
func (d *differ) one(path, change string, n *yaml.Node, hidden bool) {
	side := d.new
	if change == Removed {
		side = d.old
	}
	hidden = hidden || side.Within(n)
	f := Field{Path: path, Change: change, Redacted: hidden}
	if !hidden && change == Added {
		f.New = jsonValue(n)
	} else if !hidden {
		f.Old = jsonValue(n)
	}
	d.out = append(d.out, f)
}

func (d *differ) mapping(path string, a, b *yaml.Node, hidden bool) {
	av, bv := fields(a), fields(b)
	keys := make([]string, 0, len(av)+len(bv))
	for k := range av {
		keys = append(keys, k)
	}
	for k := range bv {
		if _, ok := av[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := keyPath(path, k)
		x, inA := av[k]
		y, inB := bv[k]
		switch {
		case !inB:
			d.one(p, Removed, x, hidden)
		case !inA:
			d.one(p, Added, y, hidden)
		default:
			d.node(p, x, y, hidden)
		}
	}
}

func (d *differ) sequence(path string, a, b *yaml.Node, hidden bool) {
	key := ""
	if !hidden { // a path [KEY=VALUE] would print an item's value
		key = listKey(a, b)
	}
	if key == "" {
		n := len(a.Content)
		if len(b.Content) < n {
			n = len(b.Content)
		}
		for i := 0; i < n; i++ {
			d.node(path+"["+strconv.Itoa(i)+"]", a.Content[i], b.Content[i], hidden)
		}
		for i := n; i < len(a.Content); i++ {
			d.one(path+"["+strconv.Itoa(i)+"]", Removed, a.Content[i], hidden)
		}
		for i := n; i < len(b.Content); i++ {
			d.one(path+"["+strconv.Itoa(i)+"]", Added, b.Content[i], hidden)
		}
		return
	}
	ak, bk := itemKeys(a, key), itemKeys(b, key)
	inB := map[string]*yaml.Node{}
	for i, k := range bk {
		inB[k] = b.Content[i]
	}
	inA := map[string]bool{}
	var commonA []string
	for i, k := range ak {
		inA[k] = true
		p := path + "[" + key + "=" + itemValue(k) + "]"
		if y, ok := inB[k]; ok {
			commonA = append(commonA, k)
			d.node(p, a.Content[i], y, hidden)
		} else {
			d.one(p, Removed, a.Content[i], hidden)
		}
	}
	var commonB []string
	for i, k := range bk {
		if inA[k] {
			commonB = append(commonB, k)
			continue
		}
		d.one(path+"["+key+"="+itemValue(k)+"]", Added, b.Content[i], hidden)
	}
	if strings.Join(commonA, "\x00") != strings.Join(commonB, "\x00") {
		f := Field{Path: path, Change: Reordered, Redacted: hidden}
		if !hidden {
			f.Old, f.New = marshal(commonA), marshal(commonB)
		}
		d.out = append(d.out, f)
	}
}

// listKey returns the field that names the items of both lists, or "".
func listKey(a, b *yaml.Node) string {
	if len(a.Content)+len(b.Content) == 0 {
		return ""
	}
	for _, key := range listKeys {
		if itemKeys(a, key) != nil && itemKeys(b, key) != nil {
			return key
		}
	}
	return ""
}

// itemKeys returns the value of key in each item, or nil unless every item
// is a mapping with a distinct scalar there. An empty list has an empty,
// non-nil answer.
func itemKeys(seq *yaml.Node, key string) []string {
	keys := make([]string, 0, len(seq.Content))
	seen := map[string]bool{}
	for _, item := range seq.Content {
		if item.Kind != yaml.MappingNode {
			return nil
		}
		v := fields(item)[key]
		if v == nil || v.Kind != yaml.ScalarNode || seen[v.Value] {
			return nil
		}
		seen[v.Value] = true
		keys = append(keys, v.Value)
	}
	return keys
}

func fields(m *yaml.Node) map[string]*yaml.Node {
	out := make(map[string]*yaml.Node, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		out[m.Content[i].Value] = m.Content[i+1]
	}
	return out
}

var plainKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })

// keyPath appends a mapping key: .key, or ["key"] when the key holds other
// characters (labels such as app.kubernetes.io/name).
func keyPath(path, k string) string {
	if !plainKey().MatchString(k) {
		return path + "[" + strconv.Quote(k) + "]"
	}
	if path == "" {
		return k
	}
	return path + "." + k
}

var plainValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_./:-]+$`) })

// itemValue writes a list item's name in a path, quoted unless plain.
func itemValue(v string) string {
	if plainValue().MatchString(v) {
		return v
	}
	return strconv.Quote(v)
}

func isString(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == yaml.NodeTagString
}

// sameScalar compares resolved tags and text: "1" and 1 differ, the ways
// of writing null do not.
func sameScalar(a, b *yaml.Node) bool {
	if a.ShortTag() != b.ShortTag() {
		return false
	}
	return a.ShortTag() == yaml.NodeTagNull || a.Value == b.Value
}

// jsonValue is n as JSON: numbers and booleans as such where JSON can write
// them, everything else as strings.
func jsonValue(n *yaml.Node) json.RawMessage { return marshal(value(n)) }

func value(n *yaml.Node) any {
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = value(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			s[i] = value(c)
		}
		return s
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return value(n.Content[0])
		}
	}
	switch n.ShortTag() {
	case yaml.NodeTagNull:
		return nil
	case yaml.NodeTagBool:
		if b, err := strconv.ParseBool(n.Value); err == nil {
			return b
		}
	case yaml.NodeTagInt, yaml.NodeTagFloat:
		if json.Valid([]byte(n.Value)) {
			return json.RawMessage(n.Value)
		}
	}
	return n.Value
}

func marshal(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage(strconv.Quote(err.Error()))
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}
