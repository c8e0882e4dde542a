package patch6902

import (
	"encoding/json"
	"fmt"
	"testing"

	"sigs.k8s.io/kustomize/api/filters/patchjson6902"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// docs are resources with every kind of value a patch can meet: ints,
// floats, quoted and block strings, nulls, timestamps, flow collections,
// anchors, merge keys, custom tags, comments.
var docs = []string{
	`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, "tier": "1"}
  annotations:
    note: |
      line one
      line two
    folded: >
      folded
      text
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.2
        args: ["--port", "80", '--x']
        resources:
          requests: {cpu: 0.5, memory: 64Mi}
      - name: side
        ports: [{containerPort: 8080}]
`,
	`apiVersion: v1
kind: ConfigMap
metadata:
  name: cm # a comment
data:
  a: yes
  b: "true"
  c: 0x1F
  d: 1e3
  e: ~
  f: 2001-12-14
  g: !!str 5
  h: 007
  i: ""
  j:
  k: -0
  big: 12345678901234567890
  long: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbb ccc
`,
	`kind: X
metadata:
  name: anchors
base: &b {x: 1, y: [a, b]}
other:
  <<: *b
  z: *b
tagged: !custom value
list: [1, 2.5, null, true, 'q']
`,
	`kind: Y
metadata: {name: flow}
empty: {}
none: []
keys: {"a b": 1, "a:b": 2, "#": 3, "-": 4, "y": 5, "10": 6, "9": 7, "a10": 8, "a9": 9}
`,
}

// patches are JSON 6902 patches (as JSON and YAML) of every operation,
// into mappings and sequences, with the "-" index and failing ones.
var patches = []string{
	`[{"op": "add", "path": "/metadata/labels/new", "value": "v"}]`,
	`[{"op": "replace", "path": "/spec/replicas", "value": 1000000}]`,
	`[{"op": "remove", "path": "/spec/template/spec/containers/1"}]`,
	`[{"op": "add", "path": "/spec/template/spec/containers/-", "value": {"name": "x", "args": ["a\nb", "yes", "1:20", "", " s "]}}]`,
	`[{"op": "move", "from": "/metadata/name", "path": "/metadata/old"}]`,
	`[{"op": "copy", "from": "/metadata", "path": "/copy"}]`,
	`[{"op": "test", "path": "/kind", "value": "ConfigMap"}, {"op": "add", "path": "/data/z", "value": 1.5}]`,
	`[{"op": "test", "path": "/kind", "value": "Nope"}]`,
	`[{"op": "remove", "path": "/missing"}]`,
	`[{"op": "replace", "path": "/list/9", "value": 1}]`,
	`[{"op": "add", "path": "/empty/k", "value": {}}, {"op": "add", "path": "/none/0", "value": []}]`,
	`[{"op": "add", "path": "/x~1y", "value": {"<<": 1, "a\nb": 2, "é": "日本"}}]`,
	`[{"op": "bogus", "path": "/a"}]`,
	`[]`,
	"- op: add\n  path: /metadata/annotations\n  value:\n    a: |\n      text\n",
	"- op: replace\n  path: /metadata/name\n  value: 5\n",
}

// compareFilter applies patch to doc twice (reusing the decoded patch)
// with Filter and with kustomize's filter, and fails on any difference.
func compareFilter(t *testing.T, doc, patch string) {
	t.Helper()
	ops, err := Decode(patch)
	if err != nil {
		return // kustomize's Config refuses it first
	}
	ours, err := yaml.Parse(doc)
	if err != nil || ours.YNode() == nil || ours.YNode().Kind != yaml.MappingNode {
		return
	}
	theirs, err := yaml.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		gotErr := filter(Filter{Patch: ops}, ours)
		wantErr := filter(patchjson6902.Filter{Patch: patch}, theirs)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("error %v, want %v", gotErr, wantErr)
		}
		if wantErr != nil {
			return
		}
		if err := sameNode(ours.Document(), theirs.Document(), ""); err != nil {
			t.Fatal(err)
		}
		if err := samePrint(ours.Document(), theirs.Document()); err != nil {
			t.Fatal(err)
		}
	}
}

// filter runs f on node, and turns a panic into an error: json-patch
// panics on some patches (a test op without a value), kustomize's filter
// as well as ours.
func filter(f kio.Filter, node *yaml.RNode) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	_, err = f.Filter([]*yaml.RNode{node})
	return err
}

func TestFilter(t *testing.T) {
	for i, doc := range docs {
		for j, patch := range patches {
			t.Run(fmt.Sprintf("doc%d/patch%d", i, j), func(t *testing.T) {
				compareFilter(t, doc, patch)
			})
		}
	}
}

// FuzzFilter compares Filter with kustomize's patchjson6902.Filter on
// documents and patches.
func FuzzFilter(f *testing.F) {
	for _, doc := range docs {
		for _, patch := range patches {
			f.Add(doc, patch)
		}
	}
	f.Fuzz(compareFilter)
}

// FuzzFilterOps is FuzzFilter with patches built from their parts, so that
// most are valid: one or two operations (add, remove, replace, move, copy,
// test) with a path, a from, and a value (JSON when it reads as JSON).
func FuzzFilterOps(f *testing.F) {
	for _, doc := range docs {
		f.Add(doc, uint8(0), "/metadata/labels/x", "", `{"a": [1, "b", null]}`, uint8(1), "/spec/replicas")
		f.Add(doc, uint8(2), "/spec/template/spec/containers/0/name", "", `"y"`, uint8(3), "/metadata/name")
		f.Add(doc, uint8(0), "/spec/template/spec/containers/-", "", `{"name": "z"}`, uint8(4), "/data")
		f.Add(doc, uint8(5), "/kind", "", `"ConfigMap"`, uint8(2), "/list/1")
	}
	kinds := []string{"add", "remove", "replace", "move", "copy", "test"}
	f.Fuzz(func(t *testing.T, doc string, op1 uint8, path1, from, value string, op2 uint8, path2 string) {
		v := json.RawMessage(value)
		if !json.Valid(v) {
			v, _ = json.Marshal(value)
		}
		ops := []map[string]interface{}{
			{"op": kinds[int(op1)%len(kinds)], "path": path1, "value": v},
			{"op": kinds[int(op2)%len(kinds)], "path": path2, "from": from, "value": v},
		}
		if op1 >= 128 {
			ops = ops[:1]
		}
		patch, err := json.Marshal(ops)
		if err != nil {
			t.Fatal(err)
		}
		compareFilter(t, doc, string(patch))
	})
}

// FuzzToJSON compares toJSON with kyaml's MarshalJSON on mappings built
// node by node, as transformers build them: a key and a value of any text,
// tag and style, and a nested mapping and sequence holding the value.
func FuzzToJSON(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add("k", s, uint8(0), uint8(0))
		f.Add(s, "v", uint8(1), uint8(3))
		f.Add("k", s, uint8(2), uint8(5))
		f.Add("k", s, uint8(1), uint8(3))
	}
	tags := []string{"", yaml.NodeTagString, yaml.NodeTagInt, yaml.NodeTagFloat, yaml.NodeTagBool, yaml.NodeTagNull, "!custom", "!!binary", "!!timestamp"}
	styles := []yaml.Style{0, yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle, yaml.LiteralStyle, yaml.FoldedStyle, yaml.TaggedStyle, yaml.FlowStyle}
	f.Fuzz(func(t *testing.T, key, value string, tag, style uint8) {
		scalar := func(s string) *yaml.Node {
			return &yaml.Node{Kind: yaml.ScalarNode, Value: s, Tag: tags[int(tag)%len(tags)], Style: styles[int(style)%len(styles)]}
		}
		str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s, Tag: yaml.NodeTagString} }
		inner := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{scalar(key), scalar(value)}}
		seq := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{scalar(value)}, Style: styles[int(style>>4)%len(styles)]}
		root := yaml.NewRNode(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
			str("a"), inner, str("b"), seq, str("c"), scalar(value)}})
		want, wantErr := root.MarshalJSON()
		got, gotErr := toJSON(root)
		if string(got) != string(want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("toJSON %s (%v), MarshalJSON %s (%v)", got, gotErr, want, wantErr)
		}
	})
}
