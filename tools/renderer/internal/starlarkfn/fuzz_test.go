package starlarkfn

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// FuzzBridge converts arbitrary YAML to Starlark values and back: an error
// is fine, a panic is not, and what converts must convert back. Seeds:
// testdata/fuzz/FuzzBridge.
func FuzzBridge(f *testing.F) {
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\ndata: {a: '1', b: 2, c: 2.5, d: null, e: [yes, no]}\n"))
	f.Add([]byte("a: &x [1, 2]\nb: *x\nc: !!binary aGk=\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var n yaml.Node
		if err := yaml.Unmarshal(data, &n); err != nil {
			return
		}
		v, err := toStarlark(&n)
		if err != nil {
			return
		}
		if _, err := fromStarlark(v, "value"); err != nil {
			t.Errorf("%s converted to Starlark (%s) but not back: %v", data, v, err)
		}
	})
}
