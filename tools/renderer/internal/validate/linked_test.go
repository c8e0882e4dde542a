package validate

// The tests validate as the full renderer (krm_helm) does: with the API server's checks of
// CRDs and custom resources (package crdcheck) and of admission policies (package
// policycheck), registered by their init. TestWithoutChecker and TestPoliciesWithoutChecker
// replace the checkers by none, as in the lean renderer.
import (
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/crdcheck"
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/policycheck"
)
