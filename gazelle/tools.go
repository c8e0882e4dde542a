//go:build tools

package gazelle

// Keeps gazelle's command in go.mod and go.sum: the generation tests build it with the krm
// language (gazelle_test.go).
import _ "github.com/bazelbuild/bazel-gazelle/cmd/gazelle"
