#!/usr/bin/env bash
# Regenerates deps.bzl (go_dependencies(), from go.mod) and the BUILD.bazel files of the
# Go packages with gazelle v0.26.0, built natively into .bin/ (no Bazel needed).
# Rerun it after adding or removing Go packages, changing imports, or changing go.mod.
#
# With a modern Bazel (bzlmod), `bazel run //:gazelle_update` regenerates the BUILD files too;
# deps.bzl is only used by the WORKSPACE build (Bazel 7 in WORKSPACE mode).
set -euo pipefail

GAZELLE_VERSION=v0.26.0

cd "$(dirname "$0")/../.."
root=$PWD
export GOTOOLCHAIN=local

gazelle="$root/.bin/gazelle"
stamp="$root/.bin/gazelle.version"
if [ ! -x "$gazelle" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$GAZELLE_VERSION" ]; then
  mkdir -p "$root/.bin"
  GOBIN="$root/.bin" go install "github.com/bazelbuild/bazel-gazelle/cmd/gazelle@$GAZELLE_VERSION"
  echo "$GAZELLE_VERSION" >"$stamp"
fi

deps_doc='"""Go dependencies of rules_krm for WORKSPACE builds, generated from go.mod by dev/scripts/gazelle.sh."""'
macro_doc='"""Declares the go_repository rules of the modules in go.mod."""'

# WORKSPACE loads deps.bzl, and gazelle reads WORKSPACE: start from an empty macro if missing.
if [ ! -f deps.bzl ]; then
  printf '%s\n\ndef go_dependencies():\n    %s\n' "$deps_doc" "$macro_doc" >deps.bzl
fi

# go_repository rules for every module in go.mod, into deps.bzl%go_dependencies.
# Protos stay off: rules_proto cannot be fetched in the offline setup.
"$gazelle" update-repos \
  -from_file=go.mod \
  -to_macro=deps.bzl%go_dependencies \
  -prune \
  -build_file_proto_mode=disable_global

# Gazelle v0.26.0 leaves out embedded files of subpackages in kyaml's openapi package:
# patch the generated BUILD files (bazel/patches/; MODULE.bazel applies the same patch). The
# label names the rules_krm repository so that other workspaces can call go_dependencies().
# update-repos keeps these attributes once they are there.
if ! grep -q 'kyaml-openapi-embed.patch' deps.bzl; then
  sed -i 's|^        importpath = "sigs.k8s.io/kustomize/kyaml",$|&\n        patch_args = ["-p1"],\n        patches = ["@rules_krm//bazel/patches:kyaml-openapi-embed.patch"],|' deps.bzl
fi

# Every go_repository reads rules_krm's WORKSPACE (build_config) to learn, from its
# `gazelle:repository_macro` directive, the repositories that deps.bzl declares: so gazelle
# resolves the imports between them in any workspace that calls go_dependencies() (through
# rules_krm_dependencies()), not only in rules_krm's own.
sed -i -e '/^        build_config = "@rules_krm\/\/:WORKSPACE",$/d' \
  -e 's|^        build_file_proto_mode = "disable_global",$|        build_config = "@rules_krm//:WORKSPACE",\n&|' deps.bzl

# gazelle puts its load() above everything: keep the module docstring first (buildifier).
{ echo "$deps_doc"; echo; grep -vxF "$deps_doc" deps.bzl; } | cat -s >deps.bzl.tmp
mv deps.bzl.tmp deps.bzl

# BUILD.bazel files of the Go packages (directives are in the root BUILD.bazel).
# Gazelle v0.26.0 does not know the std packages added after Go 1.18 (math/rand/v2, slices,
# iter, ...) and logs "finding module path for import ..." for them: harmless, std imports
# need no deps.
# The binary holds the krm language too (dev/scripts/gazelle-binary.sh): the root BUILD.bazel
# has krm directives.
dev/scripts/gazelle-binary.sh "$root/.bin/gazelle-krm"
"$root/.bin/gazelle-krm" update -repo_root="$root"

# tools/renderer/BUILD.bazel: gazelle names the default build "renderer"; :krm and
# :krm_nohelm, the labels the toolchains use, are written there by hand (their main.go are in
# directories gazelle excludes).

# MODULE.bazel (bzlmod) must use_repo() exactly the direct requirements of go.mod: rewrite
# the go_deps use_repo() list with their repository names (as in deps.bzl).
direct=$(awk '
  /^require \($/ { block = 1; next }
  block && /^\)/ { block = 0; next }
  block && !/\/\/ indirect/ && NF { print $1 }
  /^require [^(]/ && !/\/\/ indirect/ { print $2 }
' go.mod)
repos=""
for mod in $direct; do
  # Under bzlmod the gazelle module (a bazel_dep) provides bazel-gazelle: go_deps makes no
  # repository for it, and the krm language's BUILD file names @bazel_gazelle.
  [[ $mod == github.com/bazelbuild/bazel-gazelle ]] && continue
  name=$(awk -v imp="$mod" '
    /name = "/ { split($0, a, "\""); name = a[2] }
    /importpath = "/ { split($0, a, "\""); if (a[2] == imp) { print name; exit } }
  ' deps.bzl)
  if [ -z "$name" ]; then
    echo "gazelle.sh: no go_repository for $mod in deps.bzl" >&2
    exit 1
  fi
  repos="$repos$name"$'\n'
done
repos=$(printf '%s' "$repos" | sort -u)
awk -v repos="$repos" '
  /^use_repo\($/ { start = NR }
  start && NR == start + 1 && $0 == "    go_deps," {
    print
    n = split(repos, r, "\n")
    for (i = 1; i <= n; i++) if (r[i] != "") printf "    \"%s\",\n", r[i]
    skip = 1
    next
  }
  skip && /^\)$/ { skip = 0; start = 0 }
  skip { next }
  { print }
' MODULE.bazel >MODULE.bazel.tmp
mv MODULE.bazel.tmp MODULE.bazel
