package snapshot_test

import (
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/snapshot"
)

// FuzzDecode decodes arbitrary bytes as a snapshot: an error is fine, a
// panic is not. Seeds: testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("apiVersion: rules-krm.dev/v1alpha1\nkind: KustomizationSnapshot\nresources: 1\n---\nkind: ConfigMap\n"))
	f.Add([]byte("not yaml: ["))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = snapshot.Decode(data)
	})
}
