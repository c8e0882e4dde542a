package snapshot_test

import (
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/snapshot"
)

// FuzzDecode decodes arbitrary bytes as a snapshot: an error is fine, a
// panic is not. Seeds: testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("apiVersion: " + snapshot.APIVersion + "\nkind: KustomizationSnapshot\nresources: 1\n---\n" +
		"mm0*4\nss0=4:kind\nss0=9:ConfigMap\nss0=8:metadata\nm-0*2\ns-0=4:name\nr4\n"))
	f.Add([]byte("not yaml: ["))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = snapshot.Decode(data)
	})
}
