package execfn

import "testing"

// FuzzParseResourceList parses arbitrary bytes as a function's stdout (a
// ResourceList) and its error results: an error is fine, a panic is not.
// Seeds: testdata/fuzz/FuzzParseResourceList.
func FuzzParseResourceList(f *testing.F) {
	f.Add([]byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\nresults:\n- message: bad\n  severity: error\n"))
	f.Add([]byte("kind: ResourceList\nitems: 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = parseResourceList(data)
		_ = errorResults(data)
	})
}
