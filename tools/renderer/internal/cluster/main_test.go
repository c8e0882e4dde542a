//go:build !apiserver

package cluster

import (
	"os"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/kubeconfig"
)

// The test binary is also the exec credential plugin of the credentials tests.
func TestMain(m *testing.M) {
	kubeconfig.ServeExecPlugin()
	os.Exit(m.Run())
}
