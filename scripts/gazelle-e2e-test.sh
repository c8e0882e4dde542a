#!/usr/bin/env bash
# The contract of the krm Gazelle language (docs/gazelle.md), checked on trees of
# kustomizations: copy a tree into a copy of the e2e/bzlmod module, `bazel run //:gazelle`,
# `bazel build --keep_going //...`; then for every directory D with a kustomization file
# that `kustomize build D` (v5.8.2) renders, exactly one bazel-bin/D/*_manifests.yaml must
# exist and be byte-identical to it. Also checks that a second gazelle run changes nothing
# (`gazelle -mode=diff`, the CI check for missing or unused deps).
#
# Usage: scripts/gazelle-e2e-test.sh [TREE...]
#   TREE: a directory holding kustomizations (default: every e2e/gazelle/testdata/*).
#   For example the opt-in run on kubeflow/manifests:
#     git clone https://github.com/kubeflow/manifests /tmp/kubeflow
#     scripts/gazelle-e2e-test.sh /tmp/kubeflow
# Extra flags for bazel build: KRM_BAZEL_FLAGS. Exit status 1 if any directory fails.
# rules_krm and the renderer as in scripts/e2e-test.sh: KRM_E2E_RULES_KRM, KRM_E2E_RENDERER,
# KRM_E2E_FLAGS (scripts/prebuilt-test.sh sets them for the prebuilt renderer).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"
KUSTOMIZE=$ROOT/.bin/kustomize
if [[ ! -x $KUSTOMIZE ]] || [[ $("$KUSTOMIZE" version 2>/dev/null) != v5.8.2 ]]; then
  GOBIN=$ROOT/.bin go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2
fi

if [[ $# -eq 0 ]]; then
  set -- "$ROOT"/e2e/gazelle/testdata/*/
fi

# One workspace directory (so one output base, whose external repositories stay fetched):
# the consumer module e2e/bzlmod (MODULE.bazel and the //:gazelle target) without its app.
ws=$(krm_test_dir gazelle-e2e)/ws
read -r -a extra <<<"${KRM_E2E_FLAGS:-}"
flags=(--disk_cache="$(krm_disk_cache)" --symlink_prefix=/ "${extra[@]}")
trap 'cd "$ws" 2>/dev/null && bazel shutdown >/dev/null 2>&1 || true' EXIT

failures=0
for tree in "$@"; do
  tree=$(cd "$tree" && pwd)
  echo "== $tree"
  mkdir -p "$ws"
  find "$ws" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
  consumer_module "$ROOT/e2e/bzlmod" "$ws" "${KRM_E2E_RULES_KRM:-$ROOT}" "${KRM_E2E_RENDERER:-source}"
  rm -rf "$ws/app"
  tar -C "$tree" --exclude=./WORKSPACE --exclude=./WORKSPACE.bzlmod --exclude=./MODULE.bazel --exclude=./BUILD.bazel -cf - . | tar -C "$ws" -xf -
  cd "$ws"

  start=$(date +%s.%N)
  bazel run "${flags[@]}" //:gazelle 2>"$ws.gazelle.log" || {
    cat "$ws.gazelle.log" >&2
    echo "FAIL: bazel run //:gazelle" >&2
    exit 1
  }
  end=$(date +%s.%N)
  warnings=$(grep -c '^gazelle: ' "$ws.gazelle.log" || true)
  echo "gazelle: $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s (with Bazel's startup and build of gazelle), $warnings warnings (remote bases, missing files: $ws.gazelle.log)"

  # Idempotent: a second run has nothing to change.
  if ! bazel run "${flags[@]}" //:gazelle -- -mode=diff >"$ws.diff" 2>&1; then
    cat "$ws.diff" >&2
    echo "FAIL: a second gazelle run would change BUILD files" >&2
    failures=$((failures + 1))
  fi

  build_status=0
  bazel build "${flags[@]}" ${KRM_BAZEL_FLAGS:-} --keep_going -- //... 2>"$ws.build.log" || build_status=$?
  bin=$(bazel info "${flags[@]}" bazel-bin 2>/dev/null)

  dirs=0 renderable=0 identical=0
  failed=()
  while IFS= read -r dir; do
    dirs=$((dirs + 1))
    if ! "$KUSTOMIZE" build "$dir" >"$ws.want.yaml" 2>/dev/null; then
      continue
    fi
    renderable=$((renderable + 1))
    outs=()
    for f in "$bin/$dir/"*_manifests.yaml; do
      [[ -f $f ]] && outs+=("$f")
    done
    if [[ ${#outs[@]} -ne 1 ]]; then
      failed+=("$dir: ${#outs[@]} files bazel-bin/$dir/*_manifests.yaml, want 1")
    elif ! cmp -s "${outs[0]}" "$ws.want.yaml"; then
      failed+=("$dir: ${outs[0]#"$bin"/} differs from kustomize build $dir")
    else
      identical=$((identical + 1))
    fi
  done < <(find . -path ./bazel-\* -prune -o \( -name kustomization.yaml -o -name kustomization.yml -o -name Kustomization \) -printf '%h\n' |
    sed 's|^\./||' | sort -u)

  echo "kustomization directories: $dirs; kustomize build renders $renderable; bazel-bin byte-identical: $identical (bazel build --keep_going exit $build_status)"
  if [[ ${#failed[@]} -gt 0 ]]; then
    printf 'FAIL: %s\n' "${failed[@]}" >&2
    grep -E '^ERROR: ' "$ws.build.log" | head -20 >&2 || true
    failures=$((failures + ${#failed[@]}))
  fi
  cd "$ROOT"
done

if [[ $failures -gt 0 ]]; then
  echo "gazelle e2e: $failures failures" >&2
  exit 1
fi
echo "gazelle e2e passed"
