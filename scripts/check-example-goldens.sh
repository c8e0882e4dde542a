#!/usr/bin/env bash
# Fails unless every golden of the examples (examples/**/NAME_manifests.golden.yaml, and the same
# under e2e/ and rules/tests/; the krm_golden_test targets check krm against them) equals what kustomize v5.8.2
# prints for its kustomization: the directory DIR/NAME when there is one (one BUILD file for
# several kustomizations, `dir`), else DIR (one BUILD file per kustomization).
# kustomize is taken from $KUSTOMIZE, else .bin/kustomize (installed if missing).
# Not examples/functions and rules/tests/functions: kustomize refuses their Starlark and exec
# function configs (krm_golden_test checks them, and tools/renderer's TestFunctionExamples
# checks that `krm build` prints the examples' goldens too).
# examples/provenance renders with provenance: its goldens are compared without the
# provenance.rules-krm.dev/ annotations (its objects all have an annotation of their own, so
# none is left with an empty annotations map).
# examples/images pins images from the build (krm_kustomization's `images`): its goldens are
# compared with kustomize's output for a copy whose base/kustomization.yaml ends with the
# equivalent entries (images_tree below).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export GOTOOLCHAIN=local

KUSTOMIZE_VERSION=v5.8.2
if [[ -z ${KUSTOMIZE:-} ]]; then
  KUSTOMIZE=$PWD/.bin/kustomize
  if [[ ! -x $KUSTOMIZE ]] || [[ $("$KUSTOMIZE" version 2>/dev/null) != "$KUSTOMIZE_VERSION" ]]; then
    echo "installing kustomize $KUSTOMIZE_VERSION into .bin/" >&2
    GOBIN=$PWD/.bin go install "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION"
  fi
fi

tmp=$(mktemp)
stripped=$(mktemp)
images=$(mktemp -d)
trap 'rm -rf "$tmp" "$stripped" "$images"' EXIT

# images_tree DEST: examples/images with the entries its Bazel build pins (what `images` of
# //examples/images:base appends, sorted by name) written at the end of base/kustomization.yaml;
# the digests are those the genrules compute. TestImagesExample in tools/renderer does the same
# for krm build.
images_tree() {
  local src=examples/images dest=$1
  cp -r "$src/base" "$src/prod" "$dest/"
  {
    echo "- name: frontend"
    echo "  digest: sha256:$(sha256sum "$src/images/frontend.txt" | cut -d' ' -f1)"
    echo "- name: migrate"
    echo "  newName: $(cat "$src/migrate.repository")"
    echo "  digest: sha256:$(sha256sum "$src/images/migrate.txt" | cut -d' ' -f1)"
    echo "- name: worker"
    echo "  newName: registry.example.com/team/worker"
    echo "  digest: $(cat "$src/worker.digest")"
  } >>"$dest/base/kustomization.yaml"
}
images_tree "$images"
n=0
failed=0
while IFS= read -r -d '' golden; do
  parent=$(dirname "$golden")
  name=$(basename "$golden" _manifests.golden.yaml)
  dir=$parent
  [[ -d $parent/$name ]] && dir=$parent/$name
  [[ $golden == examples/images/* ]] && dir=$images/$name
  n=$((n + 1))
  expected=$golden
  if [[ $golden == examples/provenance/* ]]; then
    grep -v '^ *provenance\.rules-krm\.dev/' "$golden" >"$stripped"
    expected=$stripped
  fi
  if ! "$KUSTOMIZE" build "$dir" >"$tmp"; then
    echo "FAIL: kustomize build $dir failed" >&2
    failed=$((failed + 1))
  elif ! cmp -s "$tmp" "$expected"; then
    echo "FAIL: $golden differs from kustomize build $dir:" >&2
    diff -u "$expected" "$tmp" | head -40 >&2 || true
    failed=$((failed + 1))
  else
    echo "ok: $golden = kustomize build $dir"
  fi
done < <(find examples e2e rules/tests -name '*_manifests.golden.yaml' \
  -not -path 'examples/functions/*' -not -path 'rules/tests/functions/*' -print0 | sort -z)
if [[ $n -eq 0 ]]; then
  echo "FAIL: no golden found under examples/" >&2
  exit 1
fi
if [[ $failed -ne 0 ]]; then
  echo "$failed of $n example goldens differ from kustomize $KUSTOMIZE_VERSION" >&2
  exit 1
fi
echo "all $n example goldens equal kustomize $KUSTOMIZE_VERSION"
