package yamlnode

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

func parse(t *testing.T, s string) *yaml.Node {
	t.Helper()
	var d yaml.Node
	if err := yaml.Unmarshal([]byte(s), &d); err != nil {
		t.Fatal(err)
	}
	return d.Content[0]
}

func TestField(t *testing.T) {
	n := parse(t, "kind: A\nspec: {x: 1}\nkind: B\nempty:\n")
	if got := Field(n, "kind"); got == nil || got.Value != "A" {
		t.Errorf("Field(kind) = %v, want the first kind, A", got)
	}
	if got := Field(Field(n, "spec"), "x"); got == nil || got.Value != "1" {
		t.Errorf("Field(spec).x = %v", got)
	}
	if got := Field(n, "missing"); got != nil {
		t.Errorf("Field(missing) = %v, want nil", got)
	}
	for _, n := range []*yaml.Node{nil, parse(t, "[kind, A]"), parse(t, "kind")} {
		if got := Field(n, "kind"); got != nil {
			t.Errorf("Field of a non-mapping = %v, want nil", got)
		}
	}
}

func TestFields(t *testing.T) {
	n := parse(t, "a: 1\nb: 2\na: 3\nc: 4\n")
	var a, b, d *yaml.Node
	keep := &yaml.Node{Value: "kept"}
	c := keep
	Fields(n, []string{"a", "b", "c", "d"}, []**yaml.Node{&a, &b, &c, &d})
	if a == nil || a.Value != "1" || b == nil || b.Value != "2" || d != nil {
		t.Errorf("Fields = a %v, b %v, d %v; want the first a, b and no d", a, b, d)
	}
	if c != keep {
		t.Errorf("Fields set c, which was not nil: %v", c)
	}
	Fields(parse(t, "[a, 1]"), []string{"a"}, []**yaml.Node{&d})
	if d != nil {
		t.Errorf("Fields of a sequence set %v", d)
	}
}

func TestScalarAndText(t *testing.T) {
	n := parse(t, "s: x\nq: ''\nnull1: null\nnull2: ~\nnull3:\nstr: 'null'\nmap: {a: b}\nlist: [a]\n")
	for _, c := range []struct{ key, scalar, text string }{
		{"s", "x", "x"},
		{"q", "", ""},
		{"null1", "null", ""},
		{"null2", "~", ""},
		{"null3", "", ""},
		{"str", "null", "null"}, // a quoted "null" is a string
		{"map", "", ""},
		{"list", "", ""},
		{"missing", "", ""},
	} {
		v := Field(n, c.key)
		if got := Scalar(v); got != c.scalar {
			t.Errorf("Scalar(%s) = %q, want %q", c.key, got, c.scalar)
		}
		if got := Text(v); got != c.text {
			t.Errorf("Text(%s) = %q, want %q", c.key, got, c.text)
		}
	}
}
