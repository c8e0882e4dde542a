package clustersupport

import (
	"errors"
	"strings"
	"testing"
)

// Without package cluster (this test links none), Open says which krm to use.
func TestOpenWithoutClient(t *testing.T) {
	s, err := Open(t.Context(), Request{Manifests: []string{"m.yaml"}})
	if s != nil || !errors.Is(err, ErrNoClient) || !strings.Contains(err.Error(), "@rules_krm//tools/renderer:krm") {
		t.Errorf("Open: %v, %v", s, err)
	}
}
