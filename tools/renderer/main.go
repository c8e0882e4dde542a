// Command krm renders kustomizations: `krm build DIR` prints exactly what `kustomize build DIR`
// (v5.8.2) prints (package cli).
//
// This is the default build, what `go install` and `go build` make, and the released krm. It
// links neither Helm nor client-go, so that it starts faster than kustomize; a chart, a
// command talking to a cluster and a persistent worker run krm_helm, the full renderer
// (./krm_helm), in its place (package handoff): install both in one step,
//
//	go install github.com/rules-krm/rules_krm/tools/renderer@VERSION github.com/rules-krm/rules_krm/tools/renderer/krm_helm@VERSION
package main

import (
	"os"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/cli"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/handoff"
)

func main() { os.Exit(cli.Main(os.Args[1:], handoff.Worker)) }
