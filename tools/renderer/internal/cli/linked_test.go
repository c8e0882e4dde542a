package cli

// The tests run the commands as the full renderer (krm_helm) does: Helm, client-go and the API
// server's checks of custom resources and admission policies linked, registered by their packages' init.
import (
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/cluster"
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/crdcheck"
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/helm"
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/policycheck"
)
