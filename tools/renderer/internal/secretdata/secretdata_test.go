package secretdata

import (
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// hidden lists the paths of the scalars of an object that Find hides.
func hidden(t *testing.T, doc string, secret bool) []string {
	t.Helper()
	n, err := yaml.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := Find(n.YNode(), secret)
	var out []string
	var walk func(path string, n *yaml.Node)
	walk = func(path string, n *yaml.Node) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(path+"."+n.Content[i].Value, n.Content[i+1])
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(path+"[]", c)
			}
		default:
			if s.Has(n) {
				out = append(out, path)
			}
		}
	}
	walk("", n.YNode())
	sort.Strings(out)
	return out
}

func TestFind(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		secret    bool
		want      string
	}{
		{"Secret", "{apiVersion: v1, kind: Secret, metadata: {name: a, labels: {x: y}}, type: Opaque, immutable: true, data: {p: x}, stringData: {q: y}}", false,
			".data.p .stringData.q"},
		{"kind in other cases, key and value", "{Kind: ' sECRET', Data: {p: x}, metadata: {name: a}}", false, ".Data.p .Kind"},
		{"a kind key repeated", "{kind: ConfigMap, data: {p: x}, kind: Secret}", false, ".data.p"},
		{"not a Secret", "{kind: ConfigMap, data: {p: x}, metadata: {annotations: {a: '{\"k\": 1}'}}}", false, ""},
		{"said to be a Secret", "{metadata: {name: a}, data: {p: x}}", true, ".data.p"},
		{"annotations", "{kind: Secret, metadata: {annotations: {" + LastApplied + ": x, j: ' [1]', plain: ns-a}}}", false,
			".metadata.annotations.j .metadata.annotations." + LastApplied},
		{"SecretList items", "{kind: SecretList, metadata: {name: l}, items: [{metadata: {name: a}, data: {p: x}}, {kind: ConfigMap, data: {q: y}}]}", false,
			".items[].data.p .items[].data.q"},
		{"a List's Secret items", "{kind: List, items: [{kind: Secret, data: {p: x}}, {kind: ConfigMap, data: {q: y}}]}", false, ".items[].data.p"},
		{"nested", "{kind: Policy, spec: {rules: [{generate: {kind: Secret, name: n, data: {data: {p: x}}}}]}}", false,
			".spec.rules[].generate.data.data.p .spec.rules[].generate.name"},
		{"a string holding a Secret", "{kind: ConfigMap, data: {a: 'kind: Secret', b: 'kind: SecretProviderClass'}}", false, ".data.a"},
		{"a kind that is no scalar", "{kind: {type: string}, data: {p: x}}", false, ""},
	} {
		got := strings.Join(hidden(t, c.doc, c.secret), " ")
		if got != c.want {
			t.Errorf("%s: hidden %q, want %q", c.name, got, c.want)
		}
	}
}

func TestHoldsSecret(t *testing.T) {
	for s, want := range map[string]bool{
		"apiVersion: v1\nkind: Secret\n":                       true,
		"kind: secret":                                         true,
		`{"apiVersion":"v1","kind":"Secret","data":{}}`:        true,
		`{\"kind\":\"Secret\"}`:                                true,
		"kind: !!str Secret":                                   true,
		"kind: 'SecretList'":                                   true,
		"kind:\n  Secret":                                      true,
		"kind: SecretProviderClass":                            false,
		"listKind: SecretList":                                 false,
		"secretName: db":                                       false,
		"the Secret kind":                                      false,
		`{"kind":"ConfigMap","data":{"secret":"not a value"}}`: false,
	} {
		if got := HoldsSecret(s); got != want {
			t.Errorf("HoldsSecret(%q) = %v, want %v", s, got, want)
		}
	}
}
