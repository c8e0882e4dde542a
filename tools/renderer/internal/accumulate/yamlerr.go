package accumulate

import "strings"

// isMalformedYAML reports whether err came from a file that exists but is
// not valid YAML; kustomize then reports that error instead of trying the
// path as a base directory.
func isMalformedYAML(err error) bool {
	return strings.Contains(err.Error(), "MalformedYAMLError")
}
