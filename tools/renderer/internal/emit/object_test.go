package emit

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// objectCases print through kustomize's AsYAML and through Object; plain
// says whether Object may skip the JSON round trip.
var objectCases = []struct {
	name, yaml string
	plain      bool
}{
	{"strings that need quotes", `kind: A
metadata:
  name: a
data:
  int: "1"
  bool: "true"
  yes: "yes"
  nul: "null"
  empty: ""
  colon: "a: b"
  hash: "a #b"
  lead: " x"
  star: "*x"
  merge: "<<"
  float: "1.5"
  time: "2001-12-14"
  octal: "0o17"
  sexagesimal: "1:20"
  tilde: "~"
  unicode: "héllo ✓ \u2028"
  html: "<a href='x'>&</a>"
  tab: "a\tb"
`, true},
	{"multi-line strings", `kind: A
metadata:
  name: a
data:
  literal: |
    line 1
      indented
    line 3
  keep: |+
    trailing

  strip: |-
    no newline
  quoted: "two\nlines\n"
  spaces: "trailing   \nspaces  "
  leading: "\n  starts with a break"
`, true},
	{"numbers, bools and nulls", `kind: A
metadata:
  name: a
spec:
  replicas: 3
  negative: -12
  zero: 0
  big: 9223372036854775807
  on: true
  off: False
  none: null
  tilde: ~
  empty:
  list: [1, "2", true, null, {a: b}, [c]]
  emptyMap: {}
  emptyList: []
`, true},
	{"key order", `kind: A
metadata:
  name: a
data:
  b10: x
  b9: y
  B: z
  a: w
  "10": v
  "9": u
`, true},
	{"float", "kind: A\nmetadata:\n  name: a\nspec:\n  f: 1.5\n  g: 1.0\n  h: 1e3\n", false},
	{"hex int", "kind: A\nmetadata:\n  name: a\nspec:\n  x: 0x1F\n", false},
	{"plus int", "kind: A\nmetadata:\n  name: a\nspec:\n  x: +5\n", false},
	{"leading zero", "kind: A\nmetadata:\n  name: a\nspec:\n  x: 007\n", false},
	{"int overflow", "kind: A\nmetadata:\n  name: a\nspec:\n  x: 99999999999999999999\n", false},
	{"timestamp", "kind: A\nmetadata:\n  name: a\nspec:\n  x: 2001-12-14t21:59:43.10-05:00\n", false},
	{"folded", "kind: A\nmetadata:\n  name: a\nspec:\n  x: >\n    folded\n    text\n", false},
	{"int key", "kind: A\nmetadata:\n  name: a\nspec:\n  80: http\n", false},
	{"custom tag", "kind: A\nmetadata:\n  name: a\nspec:\n  x: !custom y\n", false},
	{"binary", "kind: A\nmetadata:\n  name: a\nspec:\n  x: !!binary aGk=\n", false},
	{"empty null in flow", "kind: A\nmetadata:\n  name: a\nspec: {x: , y: [a, ]}\n", false},
	{"empty null in block", "kind: A\nmetadata:\n  name: a\nspec:\n  x:\n  y: ~\n", true},
	{"quoted empty in flow", "kind: A\nmetadata:\n  name: a\nspec: {x: \"\", y: ''}\n", true},
	{"yaml 1.1 bool", "kind: A\nmetadata:\n  name: a\nspec:\n  x: yes\n  y: on\n", true},
}

func TestObjectMatchesAsYAML(t *testing.T) {
	for _, c := range objectCases {
		t.Run(c.name, func(t *testing.T) {
			rs, err := rf.SliceFromBytes([]byte(c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			r := rs[0]
			want, wantErr := r.AsYAML()
			got, err := Object(r)
			if (err != nil) != (wantErr != nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("error %v, AsYAML's %v", err, wantErr)
			}
			if string(got) != string(want) {
				t.Errorf("Object:\n%s\nAsYAML:\n%s", got, want)
			}
			if _, plain := plainValue(r.RNode.YNode(), false); plain != c.plain {
				t.Errorf("fast path taken = %v, want %v", plain, c.plain)
			}
		})
	}
}

func TestObjectUntaggedNodes(t *testing.T) {
	// Nodes built by transformers may carry no tag: their printed form is
	// resolved from its spelling when read back.
	for _, v := range []string{"1", "-5", "1.5", "true", "False", "null", "~", "", "yes", "nginx",
		"-foo", "+x", "-_1", "0x1F", ".5", "2001-12-14", "a: b", "*x", "multi\nline", "<<", "o",
		"\t\n", "\tx\ny", "x\n\ty"} { // a literal block starting with a tab does not read back
		for _, flow := range []bool{false, true} {
			rs, err := rf.SliceFromBytes([]byte("kind: A\nmetadata:\n  name: a\nspec:\n  x: placeholder\n"))
			if err != nil {
				t.Fatal(err)
			}
			r := rs[0]
			spec := r.RNode.Field("spec").Value.YNode()
			if flow {
				spec.Style = yaml.FlowStyle
			}
			for _, n := range spec.Content {
				n.Tag, n.Style = "", 0
			}
			spec.Content[1].Value = v
			if v != "" {
				spec.Content[0].Value = v // as a key too
			}
			want, wantErr := r.AsYAML()
			got, err := Object(r)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("%q: error %v, AsYAML's %v", v, err, wantErr)
			}
			if string(got) != string(want) {
				t.Errorf("%q (flow %v): Object:\n%s\nAsYAML:\n%s", v, flow, got, want)
			}
		}
	}
}

// deepObject is an object nesting depth maps and lists (the root counted):
// spec holds depth-1 collections, of kinds in turn, around leaf. The nodes
// are built, not parsed: kyaml takes minutes to read mappings that deep.
func deepObject(t *testing.T, depth int, kinds []yaml.Kind, leaf *yaml.Node) *resource.Resource {
	t.Helper()
	r, err := rf.FromBytes([]byte("apiVersion: v1\nkind: Foo\nmetadata:\n  name: deep\nspec: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	n := leaf
	for i := depth - 2; i >= 0; i-- {
		switch kinds[i%len(kinds)] {
		case yaml.MappingNode:
			n = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: "a"}, n}}
		default:
			n = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{n}}
		}
	}
	root := r.RNode.YNode()
	root.Content[len(root.Content)-1] = n
	return r
}

// kustomize prints an object through JSON, which go-yaml reads back at most
// 10000 collections deep: deeper, its build fails ("yaml: exceeded max depth
// of 10000"), and so does krm's, naming the object; at the bound the output
// is kustomize's. (Only lists are printed at the bound: block mappings that
// deep print 100 MB, which go-yaml takes minutes to write.)
func TestMaxDepth(t *testing.T) {
	maps, lists, mixed := []yaml.Kind{yaml.MappingNode}, []yaml.Kind{yaml.SequenceNode}, []yaml.Kind{yaml.MappingNode, yaml.SequenceNode}
	one := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"}
	float := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: "1.5"} // takes kustomize's own path
	for _, leaf := range []*yaml.Node{one, float} {
		r := deepObject(t, maxDepth, lists, leaf)
		want, err := r.AsYAML()
		if err != nil {
			t.Fatalf("AsYAML at the bound: %v", err)
		}
		if got, err := Object(r); err != nil || string(got) != string(want) {
			t.Errorf("at the bound, leaf %s: Object = %d bytes, %v; want AsYAML's %d bytes", leaf.Value, len(got), err, len(want))
		}
	}
	for _, c := range []struct {
		name  string
		kinds []yaml.Kind
		leaf  *yaml.Node
	}{
		{"maps", maps, one},
		{"lists", lists, one},
		{"mixed", mixed, one},
		{"slow path", maps, float},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := resourcemap.FromResources([]*resource.Resource{deepObject(t, maxDepth+1, c.kinds, c.leaf)})
			if err != nil {
				t.Fatal(err)
			}
			_, err = YAML(m, observe.Nop{})
			if err == nil || !strings.Contains(err.Error(), "Foo.v1.[noGrp]/deep.[noNs]: yaml: exceeded max depth of 10000") || len(err.Error()) > 400 {
				t.Errorf("past the bound: got %.400v, want a short error naming the object", err)
			}
			// With annotations (provenance's) to add.
			_, err = withAnnotations(m.Resources()[0], []observe.Annotation{{Key: "example.com/a", Value: "b"}}, entries{})
			if err == nil || !strings.HasPrefix(err.Error(), "yaml: exceeded max depth of 10000") || len(err.Error()) > 400 {
				t.Errorf("past the bound, annotated: got %.400v, want the depth error", err)
			}
		})
	}
}
