#!/usr/bin/env bash
# Checks (default) or fixes (--fix) the formatting and lint of every Starlark file:
# BUILD, BUILD.bazel, *.bzl, WORKSPACE and MODULE.bazel (not under .bin/, bazel-* or docgen's testdata).
# buildifier is installed at a pinned version into .bin/ with `go install`.
#   dev/scripts/buildifier.sh         check; exits non-zero on a formatting or lint finding
#   dev/scripts/buildifier.sh --fix   reformat and apply the automatic lint fixes
set -euo pipefail

# github.com/bazelbuild/buildtools has no Go-module release versions (its tags lack a /v8
# module suffix): this pseudo-version is the commit of the buildtools v8.2.1 release.
BUILDIFIER_VERSION=v0.0.0-20250602201422-b1e23f1025b8

cd "$(dirname "$0")/../.."
root=$PWD
export GOTOOLCHAIN=local

mode=check
lint=warn
case "${1:-}" in
  "") ;;
  --fix) mode=fix; lint=fix ;;
  *) echo "usage: $0 [--fix]" >&2; exit 2 ;;
esac

buildifier="$root/.bin/buildifier"
stamp="$root/.bin/buildifier.version"
if [ ! -x "$buildifier" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$BUILDIFIER_VERSION" ]; then
  mkdir -p "$root/.bin"
  GOBIN="$root/.bin" go install "github.com/bazelbuild/buildtools/buildifier@$BUILDIFIER_VERSION"
  echo "$BUILDIFIER_VERSION" >"$stamp"
fi

# docgen's testdata is Starlark written to break its lint rules (missing docs, bad Args:).
files=()
while IFS= read -r -d '' f; do
  files+=("$f")
done < <(find . \
  \( -path ./.bin -o -path ./.git -o -name 'bazel-*' -o -path ./dev/docgen/bzldoc/testdata \) -prune -o \
  -type f \( -name BUILD -o -name BUILD.bazel -o -name '*.bzl' -o -name WORKSPACE \
  -o -name WORKSPACE.bazel -o -name WORKSPACE.bzlmod -o -name MODULE.bazel \) -print0 | sort -z)

"$buildifier" -mode="$mode" -lint="$lint" "${files[@]}"
