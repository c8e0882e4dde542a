// Command prdiff shows what a pull request does to the rendered manifests of
// the krm_kustomization targets it affects (docs/pr-diffs.md):
//
//	bazel run @rules_krm//tools/prdiff -- --base origin/main --format markdown
//
// The flow is in package tools/renderer/prdiff, beside the comparison of
// `krm diff` that it uses.
package main

import (
	"os"

	"github.com/rules-krm/rules_krm/tools/renderer/prdiff"
)

func main() {
	os.Exit(prdiff.Main(os.Args[1:], os.Stdout, os.Stderr))
}
