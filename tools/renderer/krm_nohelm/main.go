// Command krm_nohelm is the lean renderer: krm (package cli) without Helm nor client-go, and
// without the hand-off to krm_helm, so that it serves as a persistent worker itself. The Bazel
// toolchains run it, as //tools/renderer:krm_nohelm, for every render action whose inputs hold
// no chart (docs/architecture.md); a chart or a cluster command is an error saying what to do.
package main

import (
	"os"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], nil)) }
