package fingerprint

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestFingerprintFollowsPrintedForm(t *testing.T) {
	fp := func(y string) uint64 {
		n, err := yaml.Parse(y)
		if err != nil {
			t.Fatal(err)
		}
		return Of(n.YNode())
	}
	same := [][2]string{
		{"a: 1\nb: x\n", "b: x\na: 1\n"}, // key order
		{"a: x\n", "a: 'x'\n"},           // style of a string
		{"a: {b: c}\n", "a:\n  b: c\n"},  // flow vs block
		{"metadata:\n  name: x\n", "metadata:\n  name: x\n  annotations:\n    config.kubernetes.io/origin: |\n      path: a\n"},
		{"metadata:\n  annotations:\n    a: b\n", "metadata:\n  annotations:\n    alpha.config.kubernetes.io/transformations: x\n    a: b\n"},
	}
	for _, p := range same {
		if fp(p[0]) != fp(p[1]) {
			t.Errorf("%q and %q print alike but fingerprint differently", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"a: 1\n", "a: 2\n"},
		{"a: 1\n", "a: '1'\n"}, // number vs string
		{"a: true\n", "a: 'true'\n"},
		{"a: [x, y]\n", "a: [y, x]\n"},
		{"a: x\n", "b: x\n"},
		{"a: {b: c}\n", "a: {b: c, d: e}\n"},
		{"a: ''\n", "a: null\n"},
		{"metadata:\n  annotations:\n    a: b\n", "metadata:\n  annotations:\n    a: c\n"},
	}
	for _, p := range differ {
		if fp(p[0]) == fp(p[1]) {
			t.Errorf("%q and %q print differently but fingerprint alike", p[0], p[1])
		}
	}
}

func TestSameString(t *testing.T) {
	for _, y := range []string{
		"x", "'x'", "!!str x", "1", "'1'", "true", "'true'", "null", "''", "[x]", "{x: y}", "!custom x", "\"x\"", "y",
	} {
		n, err := yaml.Parse(y)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"x", "1", "true", "", "y"} {
			want := Of(n.YNode()) == Of(&yaml.Node{Kind: yaml.ScalarNode, Value: s, Tag: yaml.NodeTagString})
			if got := SameString(n.YNode(), s); got != want {
				t.Errorf("SameString(%q, %q) = %v, comparing fingerprints says %v", y, s, got, want)
			}
		}
	}
	if SameString(nil, "") {
		t.Error("SameString(nil) is true")
	}
}
