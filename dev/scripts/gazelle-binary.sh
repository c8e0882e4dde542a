#!/usr/bin/env bash
# Builds, without Bazel, a gazelle v0.26.0 binary holding the krm language (gazelle/) and
# Go's, as gazelle_binary builds //gazelle:gazelle_bin with Bazel: bazel-gazelle's
# cmd/gazelle from a copy of the module whose langs.go lists both languages, built with an
# alternate go.mod (rules_krm's plus a replace) so that it links this checkout's gazelle/.
#
# Usage: dev/scripts/gazelle-binary.sh OUTPUT
set -euo pipefail
export GOTOOLCHAIN=local
out=$(realpath -m "$1")
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# go list -m names no directory for a module not yet in the module cache (a fresh machine).
go mod download github.com/bazelbuild/bazel-gazelle
src=$(go list -m -f '{{.Dir}}' github.com/bazelbuild/bazel-gazelle)
# A fixed directory, so that the Go build cache serves later builds.
work=${TMPDIR:-/tmp}/rules_krm-gazelle-binary
rm -rf "$work"
mkdir -p "$work"
cp -R "$src" "$work/bazel-gazelle"
chmod -R u+w "$work/bazel-gazelle"
cat >"$work/bazel-gazelle/cmd/gazelle/langs.go" <<'GO'
package main

import (
	"github.com/bazelbuild/bazel-gazelle/language"
	golang "github.com/bazelbuild/bazel-gazelle/language/go"
	krm "github.com/rules-krm/rules_krm/gazelle"
)

var languages = []language.Language{golang.NewLanguage(), krm.NewLanguage()}
GO
cp go.sum "$work/go.sum"
{ cat go.mod; echo; echo "replace github.com/bazelbuild/bazel-gazelle => $work/bazel-gazelle"; } >"$work/go.mod"
go build -modfile "$work/go.mod" -o "$out" github.com/bazelbuild/bazel-gazelle/cmd/gazelle
