//go:build !krm_nohelm

package main

// The full renderer links Helm; `-tags krm_nohelm` (//tools/renderer:krm_nohelm)
// leaves it out (docs/architecture.md, "What Helm costs").
import _ "github.com/rules-krm/rules_krm/tools/renderer/internal/helm"
