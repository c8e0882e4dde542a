package snapshot

import "testing"

// FuzzDecode decodes arbitrary bytes as a snapshot: an error is fine, a
// panic is not. Seeds: testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"format":"rules_krm.snapshot/v1"}`))
	f.Add([]byte("not json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Decode(data)
	})
}
