#!/usr/bin/env bash
# Checks the errors of krm_kustomization that Bazel tests cannot check (a failing build):
# the fixtures in rules/tests/hermetic (tagged manual) must fail, naming the target to fix,
# the images fixtures in rules/tests/images (manual) too, and //examples/functions:latest
# (manual) must fail with its validator's message.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"
"$ROOT/scripts/install-bazel.sh"
cd "$ROOT"

pkg=//rules/tests/hermetic
failures=0
# expect_failure TARGET TEXT... [-- BAZEL FLAGS]: `bazel build TARGET` must fail and print
# every TEXT.
expect_failure() {
  local target=$1
  shift
  local texts=() flags=()
  while [[ $# -gt 0 && $1 != -- ]]; do texts+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift && flags=("$@")
  local out
  if out=$(bazel build --disk_cache="$(krm_disk_cache)" "${flags[@]}" "$target" 2>&1); then
    echo "FAIL: bazel build ${flags[*]} $target succeeded" >&2
    failures=$((failures + 1))
    return
  fi
  for t in "${texts[@]}"; do
    if ! grep -qF -- "$t" <<<"$out"; then
      echo "$out" >&2
      echo "FAIL: bazel build ${flags[*]} $target: the error does not say: $t" >&2
      failures=$((failures + 1))
      return
    fi
  done
  echo "ok: bazel build ${flags[*]} $target fails saying: ${texts[*]}"
}

# A base named in resources but not in deps. In the sandbox its directory is absent: the
# renderer cannot tell a missing file from a missing base, and names both fixes; without a
# sandbox (as on Windows) it sees the directory and refuses to read its sources.
expect_failure "$pkg:missing_dep" \
  "'../base' (resources of rules/tests/hermetic/missing_dep/kustomization.yaml) is not a declared input" \
  "or the krm_kustomization target of the directory to deps of $pkg:missing_dep"
expect_failure "$pkg:missing_dep" "add its krm_kustomization target to deps of $pkg:missing_dep" \
  -- --spawn_strategy=local
# A file named in resources but not in srcs.
expect_failure "$pkg:missing_src" "add the file to srcs of $pkg:missing_src"
# provenance = "on" with a base rendering without provenance (an analysis error).
expect_failure "$pkg:provenance_on" \
  "provenance is on for $pkg:provenance_on, but its base $pkg:base renders without provenance"
# srcs without the kustomization file: an analysis error.
expect_failure "$pkg:no_kustomization_file" "must include the kustomization file of its directory"
# A Starlark script (path: of a StarlarkRun) not in srcs, and a .star file it loads not in srcs.
expect_failure "$pkg:missing_star" '"set_owner.star" exists, add it to srcs of '"$pkg:missing_star"
expect_failure "$pkg:missing_star_load" 'cannot load lib/owner.star' \
  '"lib/owner.star" exists, add it to srcs of '"$pkg:missing_star_load"
# An exec function not declared in functions: it does not run, even with its file in srcs.
expect_failure "$pkg:undeclared_function" 'exec path "./fn/set-owner"' 'is not a declared function' \
  "add it to the functions attribute of $pkg:undeclared_function" 'functions = {"./fn/set-owner": ":my_function"}'
# functions: two executables for one path, an absolute path (analysis errors).
expect_failure //rules/tests/functions:conflicting_functions \
  "two executables for the exec path rules/tests/functions/app/fn/note: //rules/tests/functions:note"
expect_failure //rules/tests/functions:absolute_function "exec path \"/usr/bin/note\" must be relative to the kustomization directory"
# images: a digest file without a digest (the renderer's error names the image, the file and
# the label), a digest target with two files, images on a Component (analysis errors).
expect_failure //rules/tests/images:bad_digest 'image app: digest file bazel-out/' \
  '/rules/tests/images/latest.digest (from //rules/tests/images:latest_digest): "latest" is not an image digest'
expect_failure //rules/tests/images:two_file_digest \
  "images of //rules/tests/images:two_file_digest: //rules/tests/images:two_files must yield one file holding the image digest (sha256:...), it yields 2"
expect_failure //rules/tests/images:component \
  "images of //rules/tests/images:component: a Component cannot pin images"
# The example validator (a Starlark validator in a component) rejects a :latest image.
expect_failure //examples/functions:latest 'StarlarkRun \"no-latest\"' \
  'images must be pinned to a version (not :latest, not untagged): Deployment shop/debug, container shell: busybox:latest; Deployment shop/debug, container setup: alpine'

if [[ $failures -ne 0 ]]; then
  echo "rules test: $failures check(s) failed" >&2
  exit 1
fi
echo "rules test passed"
