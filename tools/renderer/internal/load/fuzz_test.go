package load

import (
	"io"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// FuzzReadKustomization reads arbitrary bytes as a kustomization file: an
// error is fine, a panic is not. Seeds: testdata/fuzz/FuzzReadKustomization.
func FuzzReadKustomization(f *testing.F) {
	f.Add([]byte("resources: [a.yaml]\nnamePrefix: p-\n"))
	f.Add([]byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nbases: [../b]\npatchesStrategicMerge: [p.yaml]\n"))
	f.Fuzz(func(t *testing.T, content []byte) {
		fs := filesys.MakeFsInMemory()
		if err := fs.WriteFile("/k/kustomization.yaml", content); err != nil {
			t.Fatal(err)
		}
		l, err := NewLoader(fs, "/k", RootOnly, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = ReadKustomization(l, io.Discard)
	})
}
