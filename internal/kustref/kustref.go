// Package kustref says what the entries of a kustomization file refer to,
// with one answer for the renderer and for the Gazelle extension (Go's
// internal/ rule keeps gazelle/ out of the renderer's packages): which
// entries name content on the network, and which helm charts take the
// namespace of the kustomization including theirs. It also reads
// kustomization files for the Gazelle extension (Parse), without kustomize's
// api module: every consumer compiles the extension into its gazelle binary,
// and the api module's dependencies (kyaml's openapi) need a patch to build
// with Bazel that only a root module can apply.
package kustref

import "strings"

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

// InheritsHelmNamespace reports whether one of the helmCharts entries of a
// kustomization (chartNamespace gives an entry's namespace) has no namespace
// while the kustomization sets none (namespace): the chart then inflates in
// the namespace of the kustomization including it, so this one cannot be
// rendered on its own.
func InheritsHelmNamespace[Chart any](namespace string, charts []Chart, chartNamespace func(Chart) string) bool {
	if namespace != "" {
		return false
	}
	for _, c := range charts {
		if chartNamespace(c) == "" {
			return true
		}
	}
	return false
}
