// Command krm_helm is the full renderer: krm (package cli) with Helm and client-go linked, for
// charts and the commands talking to a cluster. The default build (tools/renderer) runs it in
// its place for those (package handoff); the Bazel toolchains run it, as
// //tools/renderer:krm, for the render actions that may inflate a chart.
package main

import (
	"os"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/cli"
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/cluster" // krm apply, delete, diff --cluster
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/helm"    // helmCharts
)

func main() { os.Exit(cli.Main(os.Args[1:], nil)) }
