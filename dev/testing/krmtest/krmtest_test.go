package krmtest

import (
	"testing"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/types"
)

func TestMemFS(t *testing.T) {
	fs := MemFS(t, map[string]string{"/a/b.yaml": "x: 1\n", "/empty/": ""})
	if b, err := fs.ReadFile("/a/b.yaml"); err != nil || string(b) != "x: 1\n" {
		t.Errorf("/a/b.yaml = %q, %v", b, err)
	}
	if !fs.IsDir("/empty") || fs.Exists("/empty/") && !fs.IsDir("/empty/") {
		t.Errorf("/empty/ is no directory")
	}
}

func TestPluginHelpersConfigureAndRun(t *testing.T) {
	h := PluginHelpers(nil, types.DisabledPluginConfig()) // the namespace transformer reads no file
	p := Configure(t, builtins.NewNamespaceTransformerPlugin(), h, "metadata: {name: ns, namespace: prod}\nfieldSpecs: [{path: metadata/namespace, create: true}]\n")
	m := ResMap(t, h.ResmapFactory(), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n")
	if err := p.Transform(m); err != nil {
		t.Fatal(err)
	}
	m.RemoveBuildAnnotations()
	if got, want := YAML(t, m), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: prod\n"; got != want {
		t.Errorf("YAML = %q, want %q", got, want)
	}
}
