//go:build !krm_nohelm

package main

// The full renderer links a Kubernetes client (client-go) for krm apply, krm delete and
// krm diff --cluster; `-tags krm_nohelm` (//tools/renderer:krm_nohelm) leaves it out, as it
// does Helm (helm_enabled.go): those commands then say to use the full krm.
import _ "github.com/rules-krm/rules_krm/tools/renderer/internal/cluster"
