package nodediff

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func parse(s string) *yaml.Node { return yaml.MustParse(s).YNode() }

func TestDiff(t *testing.T) {
	a := "a:\n  b: x # c\n  d: [1, 2]\n"
	for _, tc := range []struct{ b, want string }{
		{a, ""},
		{"a:\n  b: x\n  d: [1, 2]\n", "/1/1: "}, // comment
		{"a:\n  b: \"x\" # c\n  d: [1, 2]\n", "/1/1: "}, // style
		{"a:\n  b: x # c\n  d: [1, 3]\n", "/1/3/1: "},   // value
		{"a:\n  b: x # c\n  d: [1]\n", "/1/3: "},        // length
		{"a:\n   b: x # c\n   d: [1, 2]\n", "/1: "},     // position
	} {
		err := Diff(parse(a), parse(tc.b))
		if (err == nil) != (tc.want == "") || err != nil && !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Diff(%q, %q) = %v, want prefix %q", a, tc.b, err, tc.want)
		}
	}
	// Sharing: one node at two paths against two equal nodes.
	x, y := parse("a: v\nb: v\n"), parse("a: v\nb: v\n")
	x.Content[3] = x.Content[1]
	y.Content[1].Line, y.Content[1].Column = x.Content[1].Line, x.Content[1].Column
	if err := Diff(x, y); err == nil || !strings.Contains(err.Error(), "sharing") {
		t.Errorf("shared vs separate: %v", err)
	}
}
