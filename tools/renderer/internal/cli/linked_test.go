package cli

// The tests run the commands as the full renderer (krm_helm) does: Helm and client-go linked,
// registered by their packages' init.
import (
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/cluster"
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/helm"
)
