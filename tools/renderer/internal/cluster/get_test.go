package cluster

import (
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
)

// krm trace (which links no client-go) names the field managers other than apply's.
func TestFieldManagerIsClustersupports(t *testing.T) {
	if FieldManager != clustersupport.FieldManager {
		t.Errorf("cluster.FieldManager %q, clustersupport.FieldManager %q", FieldManager, clustersupport.FieldManager)
	}
	var s clustersupport.Session = &session{}
	if _, ok := s.(clustersupport.Getter); !ok {
		t.Error("a cluster session reads no live objects (clustersupport.Getter)")
	}
}
