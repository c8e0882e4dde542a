package krmfn

import "testing"

// FuzzFunctionConfig reads arbitrary bytes as a function's config object
// and strips and restores its hidden annotations: an error is fine, a
// panic is not. Seeds: testdata/fuzz/FuzzFunctionConfig.
func FuzzFunctionConfig(f *testing.F) {
	f.Add([]byte("apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata:\n  name: s\n  annotations:\n    config.kubernetes.io/origin: x\nsource: x = 1\n"))
	f.Add([]byte("- 1\n- 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := FunctionConfig(data)
		if err != nil {
			return
		}
		_ = Name(n)
		h, err := StripHidden(n)
		if err != nil {
			return
		}
		_ = h.Restore(n)
	})
}
