//go:build !krm_nohelm && !krm_lazyhelm

package main

// The full renderer links Helm; `-tags krm_nohelm` (//tools/renderer:krm_nohelm)
// leaves it out (docs/architecture.md, "What Helm costs"), and `-tags krm_lazyhelm`
// renders charts in this build run beside it (helm_helper.go).
import _ "github.com/rules-krm/rules_krm/tools/renderer/internal/helm"
