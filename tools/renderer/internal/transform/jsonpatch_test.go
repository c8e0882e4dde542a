package transform

import (
	"fmt"
	"testing"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
)

const patchInput = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/index: '0'
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: app
        image: nginx
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 1
---
apiVersion: v1
kind: Service
metadata:
  name: web
`

// TestPatchPluginMatchesKustomize runs kustomize's PatchTransformer and
// patchPlugin side by side: JSON 6902 patches (as JSON and YAML, inline and
// by path, with and without a target, failing ones) and strategic merge
// patches, which patchPlugin merges through yaml11 when they have no target
// and otherwise leaves to kustomize.
func TestPatchPluginMatchesKustomize(t *testing.T) {
	files := map[string]string{
		"/app/ops.yaml":     "- op: replace\n  path: /spec/replicas\n  value: 1000000\n",
		"/app/sm.yaml":      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 9\n",
		"/app/two.yaml":     "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    on: yes\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx:2\n        env:\n        - name: X\n          value: \"on\"\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: null\n",
		"/app/delete.yaml":  "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n$patch: delete\n",
		"/app/missing.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: nope\nspec:\n  type: NodePort\n",
		"/app/rename.yaml":  "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n",
	}
	cases := []struct {
		name  string
		patch map[string]interface{}
		json  bool // kustomize takes its JSON 6902 path
	}{
		{"inline JSON", map[string]interface{}{"patch": `[{"op": "add", "path": "/metadata/labels", "value": {"a": "yes"}}]`, "target": map[string]interface{}{"kind": "Deployment"}}, true},
		{"path YAML", map[string]interface{}{"path": "ops.yaml", "target": map[string]interface{}{"name": "web"}}, true},
		{"rename", map[string]interface{}{"patch": `[{"op": "replace", "path": "/metadata/name", "value": "new"}]`, "target": map[string]interface{}{"kind": "Service"}}, true},
		// "[]" reads as an empty list of resources: kustomize does nothing.
		{"empty", map[string]interface{}{"patch": `[]`, "target": map[string]interface{}{"kind": "Service"}}, false},
		{"annotations removed", map[string]interface{}{"patch": `[{"op": "remove", "path": "/metadata/annotations"}]`, "target": map[string]interface{}{"name": "web", "kind": "Deployment"}}, true},
		{"no match", map[string]interface{}{"patch": `[{"op": "remove", "path": "/spec"}]`, "target": map[string]interface{}{"kind": "Nope"}}, true},
		{"failing op", map[string]interface{}{"patch": `[{"op": "remove", "path": "/spec/missing"}]`, "target": map[string]interface{}{"kind": "Deployment"}}, true},
		{"no target", map[string]interface{}{"patch": `[{"op": "remove", "path": "/spec"}]`}, true},
		{"strategic merge", map[string]interface{}{"path": "sm.yaml"}, false},
		{"strategic merges, two objects", map[string]interface{}{"path": "two.yaml"}, false},
		{"strategic merge deleting", map[string]interface{}{"path": "delete.yaml"}, false},
		{"strategic merge matching nothing", map[string]interface{}{"path": "missing.yaml"}, false},
		{"strategic merge, name change allowed", map[string]interface{}{"path": "rename.yaml", "options": map[string]interface{}{"allowNameChange": true}}, false},
		{"strategic merge with target", map[string]interface{}{"path": "sm.yaml", "target": map[string]interface{}{"name": "api"}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPatchPlugin()
			comparePlugins(t, p, builtins.NewPatchTransformerPlugin(), c.patch, files)
			if (p.ops != nil) != c.json {
				t.Errorf("patch6902 path taken: %v, want %v", p.ops != nil, c.json)
			}
			if untargeted := !c.json && c.patch["target"] == nil && c.name != "empty"; (p.untargeted != nil) != untargeted {
				t.Errorf("own strategic merge path taken: %v, want %v", p.untargeted != nil, untargeted)
			}
		})
	}
}

// TestJSON6902PluginMatchesKustomize runs kustomize's
// PatchJson6902Transformer and json6902Plugin side by side.
func TestJSON6902PluginMatchesKustomize(t *testing.T) {
	files := map[string]string{"/app/ops.yaml": "- op: add\n  path: /spec/x\n  value: [1, 'y', {}]\n"}
	web := map[string]interface{}{"kind": "Deployment", "name": "web"}
	for name, config := range map[string]map[string]interface{}{
		"inline":              {"target": web, "jsonOp": `[{"op": "replace", "path": "/spec/replicas", "value": 1e6}]`},
		"path":                {"target": web, "path": "ops.yaml"},
		"failing op":          {"target": web, "jsonOp": `[{"op": "test", "path": "/spec/replicas", "value": 3}]`},
		"annotations removed": {"target": web, "jsonOp": `[{"op": "remove", "path": "/metadata/annotations"}]`},
	} {
		t.Run(name, func(t *testing.T) {
			comparePlugins(t, newJSON6902Plugin(), builtins.NewPatchJson6902TransformerPlugin(), config, files)
		})
	}
}

// comparePlugins configures ours and theirs with config, runs them on
// copies of patchInput (ours also as transform.target runs it), and fails
// on any difference in output, ids, annotations or errors.
func comparePlugins(t *testing.T, ours, theirs resmap.TransformerPlugin, config map[string]interface{}, files map[string]string) {
	t.Helper()
	c, err := yaml.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	if err := ours.Config(helpers(t, files), c); err != nil {
		t.Fatal(err)
	}
	if err := theirs.Config(helpers(t, files), c); err != nil {
		t.Fatal(err)
	}
	gotMap, wantMap := pair(t, patchInput)
	got, want := ours.Transform(gotMap), theirs.Transform(wantMap)
	if errText(got) != errText(want) {
		t.Fatalf("error %v, want %v", got, want)
	}
	var target *types.Selector
	switch p := ours.(type) {
	case *patchPlugin:
		target = p.Target
	case *json6902Plugin:
		target = p.Target
	}
	if target != nil {
		// As transform.target runs it: the resources picked ahead.
		m, _ := pair(t, patchInput)
		tp := &targeted{Transformer: ours, target: *target}
		if _, err := tp.scope(m); err != nil {
			t.Fatal(err)
		}
		if err := tp.Transform(m); errText(err) != errText(got) || got == nil && krmtest.YAML(t, m) != krmtest.YAML(t, gotMap) {
			t.Errorf("targeted: %v, untargeted: %v", err, got)
		}
	}
	if got != nil {
		return
	}
	if g, w := krmtest.YAML(t, gotMap), krmtest.YAML(t, wantMap); g != w {
		t.Errorf("got\n%s\nwant\n%s", g, w)
	}
	if g, w := bookkeeping(gotMap), bookkeeping(wantMap); g != w {
		t.Errorf("ids and annotations:\n%s\nwant\n%s", g, w)
	}
}

// bookkeeping lists each resource's previous ids and all its annotations,
// internal ones included.
func bookkeeping(m resmap.ResMap) string {
	s := ""
	for _, r := range m.Resources() {
		s += fmt.Sprintf("%s prev %v annotations %v\n", r.CurId(), r.PrevIds(), r.GetAnnotations())
	}
	return s
}
