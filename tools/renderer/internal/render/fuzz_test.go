package render

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// FuzzBuildResources builds a kustomization whose one resource file holds
// arbitrary bytes, which exercises the YAML loader end to end: an error
// is fine, a panic is not. Seeds: testdata/fuzz/FuzzBuildResources.
func FuzzBuildResources(f *testing.F) {
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n"))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: s}\n---\n---\n"))
	f.Fuzz(func(t *testing.T, content []byte) {
		if len(content) > 1<<16 {
			return
		}
		fs := filesys.MakeFsInMemory()
		if err := fs.WriteFile("/k/kustomization.yaml", []byte("resources: [r.yaml]\nnamePrefix: p-\ncommonLabels: {app: a}\n")); err != nil {
			t.Fatal(err)
		}
		if err := fs.WriteFile("/k/r.yaml", content); err != nil {
			t.Fatal(err)
		}
		_, _ = Build(fs, "/k", Options{})
	})
}
