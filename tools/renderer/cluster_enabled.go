//go:build !krm_nohelm && !krm_lazyhelm

package main

// The full renderer links a Kubernetes client (client-go) for krm apply, krm delete and
// krm diff --cluster; `-tags krm_nohelm` (//tools/renderer:krm_nohelm) leaves it out, as it
// does Helm (helm_enabled.go): those commands then say to use the full krm. `-tags
// krm_lazyhelm` runs them in the full renderer beside it (helm_helper.go).
import _ "github.com/rules-krm/rules_krm/tools/renderer/internal/cluster"
