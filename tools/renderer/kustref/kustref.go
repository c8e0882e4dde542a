// Package kustref says what the entries of a kustomization file refer to,
// with one answer for the renderer and for the Gazelle extension (Go's
// internal/ rule keeps gazelle/ out of the renderer's packages): which
// entries name content on the network, and which helm charts take the
// namespace of the kustomization including theirs.
package kustref

import (
	"strings"

	"sigs.k8s.io/kustomize/api/types"
)

// remotePrefixes start the URLs and git references kustomize fetches
// (compared in lower case).
var remotePrefixes = []string{
	"http://", "https://", "git::", "git@", "ssh://", "file://",
	"github.com/", "gitlab.com/", "bitbucket.org/", "gh:",
}

// IsRemote reports whether a resources or components entry names content on
// the network (a URL or a git/GitHub reference) rather than a local file or
// directory: builds refuse it, Gazelle makes no dependency of it.
func IsRemote(entry string) bool {
	p := strings.ToLower(entry)
	for _, prefix := range remotePrefixes {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return strings.Contains(p, ".git//") || strings.Contains(p, "?ref=")
}

// InheritsHelmNamespace reports whether a helmCharts entry of k has no
// namespace while k sets none: the chart then inflates in the namespace of
// the kustomization including k, so k cannot be rendered on its own.
func InheritsHelmNamespace(k *types.Kustomization) bool {
	if k.Namespace != "" {
		return false
	}
	for _, c := range k.HelmCharts {
		if c.Namespace == "" {
			return true
		}
	}
	return false
}
