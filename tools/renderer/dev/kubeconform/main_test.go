package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestRun(t *testing.T) {
	out := t.TempDir()
	crd := filepath.Join(t.TempDir(), "crd.yaml")
	if err := os.WriteFile(crd, []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              port: {x-kubernetes-int-or-string: true}
              free: {type: object, x-kubernetes-preserve-unknown-fields: true, properties: {a: {type: string}}}
  - name: v0
    served: false
    storage: false
`), 0o644); err != nil {
		t.Fatal(err)
	}
	n, err := run(out, "v1.37", []string{crd})
	if err != nil || n < 150 {
		t.Fatalf("run: %d schemas, %v", n, err)
	}
	read := func(p string) map[string]any {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, p))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	want := func(what string, got, want any) {
		t.Helper()
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s: %s, want %s", what, g, w)
		}
	}
	w := read("example.com/v1/widget.json")
	props := w["properties"].(map[string]any)
	spec := props["spec"].(map[string]any)
	sp := spec["properties"].(map[string]any)
	want("root additionalProperties", w["additionalProperties"], false)
	want("root metadata", props["metadata"], map[string]any{"type": "object"})
	want("int-or-string", sp["port"], map[string]any{"oneOf": []any{map[string]any{"type": []any{"integer", "null"}}, map[string]any{"type": "string"}}, "x-kubernetes-int-or-string": true})
	want("preserve-unknown-fields", sp["free"].(map[string]any)["additionalProperties"], nil)
	if _, err := os.Stat(filepath.Join(out, "example.com/v0/widget.json")); err == nil {
		t.Error("a version not served has a schema")
	}
	// A built-in kind, the core group under v1/v1 as kubeconform's {{ .Group }} has it, with
	// the schemas it refers to.
	cm := read("v1/v1/configmap.json")
	want("ConfigMap additionalProperties", cm["additionalProperties"], false)
	want("ConfigMap metadata", cm["properties"].(map[string]any)["metadata"].(map[string]any)["allOf"],
		[]any{map[string]any{"$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}})
	defs := cm["definitions"].(map[string]any)
	if defs["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"] == nil || defs["io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry"] == nil || defs["io.k8s.api.core.v1.Pod"] != nil {
		t.Errorf("ConfigMap definitions: want ObjectMeta and what it refers to, only: %d", len(defs))
	}
	if _, err := os.Stat(filepath.Join(out, "apps/v1/deployment.json")); err != nil {
		t.Error(err)
	}
}
