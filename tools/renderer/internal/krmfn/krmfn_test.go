package krmfn

import (
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func parse(t *testing.T, s string) *yaml.Node {
	t.Helper()
	n, err := yaml.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return n.YNode()
}

func TestSameNode(t *testing.T) {
	base := "a: \"1\"\nb: [x, 'y']\nc: {d: 2} # comment\n"
	for _, s := range []string{
		base,
		"a: '1'\nb:\n- \"x\"\n- y\nc:\n  d: 2\n",
		"# head\na: !!str 1\nb: [x, y]\nc: {d: 0x2}\n", // 0x2 is another value: differs
	} {
		same := SameNode(parse(t, base), parse(t, s))
		if want := !strings.Contains(s, "0x2"); same != want {
			t.Errorf("SameNode(%q, %q) = %v, want %v", base, s, same, want)
		}
	}
	for _, s := range []string{
		"a: 1\nb: [x, y]\nc: {d: 2}\n",       // int, not string
		"b: [x, y]\na: \"1\"\nc: {d: 2}\n",   // order
		"a: \"1\"\nb: [x]\nc: {d: 2}\n",      // length
		"a: \"1\"\nb: [x, y]\nc: {d: [2]}\n", // kind
		"a: \"1\"\nb: [x, y]\nc: {d: 2, e: 3}\n",
	} {
		if SameNode(parse(t, base), parse(t, s)) {
			t.Errorf("SameNode(%q, %q) = true", base, s)
		}
	}
}

// A function that returns its items unchanged (in another style, as Starlark
// and exec functions do) leaves the resources exactly as they were: a
// validator changes nothing.
func TestTransformKeepsUnchangedNodes(t *testing.T) {
	rmf := resmap.NewFactory(resource.NewFactory(&hasher.Hasher{}))
	m, err := rmf.NewResMapFromBytes([]byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  annotations:
    config.kubernetes.io/origin: |
      path: a.yaml
data:
  n: "1"   # a comment
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
data:
  n: "2"
`))
	if err != nil {
		t.Fatal(err)
	}
	before := m.DeepCopy()
	restyle := func(items []*yaml.RNode) ([]Output, error) {
		var outs []Output
		for i, n := range items {
			s := n.MustString()
			// Same data, other styles and positions.
			c, err := yaml.Parse("\n\n" + strings.ReplaceAll(s, `"`, `'`))
			if err != nil {
				return nil, err
			}
			if n.GetName() == "b" {
				if err := c.PipeE(yaml.SetField("data", yaml.NewMapRNode(&map[string]string{"n": "3"}))); err != nil {
					return nil, err
				}
			}
			outs = append(outs, Output{Node: c, From: i})
		}
		return outs, nil
	}
	if err := Transform(m, rmf, "restyle", restyle); err != nil {
		t.Fatal(err)
	}
	a, b := m.Resources()[0], before.Resources()[0]
	if !reflect.DeepEqual(a.RNode, b.RNode) {
		t.Errorf("unchanged resource replaced:\n%s", a.RNode.MustString())
	}
	if got := m.Resources()[1].GetDataMap()["n"]; got != "3" {
		t.Errorf("changed resource: n = %q", got)
	}
	if err := before.ErrorIfNotEqualSets(m); err == nil {
		t.Error("the change of b is not seen")
	}
}
