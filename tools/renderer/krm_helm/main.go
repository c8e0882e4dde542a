// Command krm_helm is the full renderer: krm (package cli) with Helm, client-go and the API
// server's checks of custom resources (package crdcheck) and admission policies (package
// policycheck) linked, for charts, the commands
// talking to a cluster and krm validate of CustomResourceDefinitions. The default build (tools/renderer) runs it in
// its place for those (package handoff); the Bazel toolchains run it, as
// //tools/renderer:krm, for the render actions that may inflate a chart.
package main

import (
	"os"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/cli"
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/cluster"     // krm apply, delete, diff --cluster
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/crdcheck"    // krm validate: CRD value validations, CEL
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/helm"        // helmCharts
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/policycheck" // krm validate: ValidatingAdmissionPolicies
)

func main() { os.Exit(cli.Main(os.Args[1:], nil)) }
