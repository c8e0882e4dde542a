#!/usr/bin/env bash
# Valid and invalid objects that `krm validate` finds in the real trees, by two builds of krm
# side by side, so that a new check that turns a valid object invalid shows (issue 33): every
# kustomization under dev/bench/real, e2e/gazelle and examples (Components left out), rendered
# by KRM with alpha plugins, exec functions and Helm allowed (one that does not render is
# listed), and with KUBEFLOW and ARGO kubeflow's example/ (as dev/scripts/bench-validate.sh makes it).
#
# Usage: KRM_BASE=PATH dev/scripts/validate-real-counts.sh
#
# Environment:
#   KRM=PATH       the krm to check (default: built from ./tools/renderer, krm_helm beside it)
#   KRM_BASE=PATH  the krm to compare with (an older build), required
#   KEEP=1         keep the temp dir
#
# Output: per tree the objects and how many each build finds invalid, then every error that only
# one build reports. Exit status 1 if KRM finds an object invalid that KRM_BASE does not.
set -euo pipefail
export GOTOOLCHAIN=local

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
log() { echo "validate-real-counts: $*" >&2; }
# shellcheck source=dev/scripts/bench-validate-lib.sh
source "$ROOT/dev/scripts/bench-validate-lib.sh"
: "${KRM_BASE:?KRM_BASE must name an older krm}"
bench_setup validate-real-counts
if [[ -z ${KRM:-} ]]; then
  go build -o "$TMP/krm" ./tools/renderer
  go build -o "$TMP/krm_helm" ./tools/renderer/krm_helm
  KRM=$TMP/krm
fi

dirs=()
while IFS= read -r k; do
  grep -q '^kind: Component' "$k" || dirs+=("$(dirname "$k")")
done < <(find dev/bench/real e2e/gazelle examples -name kustomization.yaml | sort)
mkdir "$TMP/out"
trees=()
for d in "${dirs[@]}"; do
  o=$TMP/out/${d//\//_}.yaml
  if "$KRM" build --enable-alpha-plugins --enable-exec --enable-helm "$d" > "$o" 2> "$TMP/err"; then
    trees+=("$d")
  else
    log "$d does not render: $(tail -1 "$TMP/err" | cut -c1-200)"
  fi
done
if [[ -n ${KUBEFLOW:-} ]]; then
  kubeflow_copy "$KUBEFLOW" "$ARGO" "$TMP/kubeflow"
  "$KRM" build "$TMP/kubeflow/example" > "$TMP/out/kubeflow.yaml" 2> /dev/null
  trees+=(kubeflow)
fi

# errors OUT: the error lines of a report, notes and the summary left out.
errors() { grep -v -e '^note: ' -e '^[0-9]* objects, ' "$1" | sort || true; }
status=0
total=(0 0 0)
echo "| tree | objects | invalid (base) | invalid (krm) |"
echo "|---|--:|--:|--:|"
for t in "${trees[@]}"; do
  o=$TMP/out/${t//\//_}.yaml
  [[ $t == kubeflow ]] && o=$TMP/out/kubeflow.yaml
  "$KRM_BASE" validate "$o" > "$o.base" 2>&1 || true
  "$KRM" validate "$o" > "$o.krm" 2>&1 || true
  read -r n _ bi _ < <(grep -E '^[0-9]+ objects, ' "$o.base" | tr -d ,)
  read -r _ _ ki _ < <(grep -E '^[0-9]+ objects, ' "$o.krm" | tr -d ,)
  echo "| $t | $n | $bi | $ki |"
  total=($((total[0] + n)) $((total[1] + bi)) $((total[2] + ki)))
  if ! diff <(errors "$o.base") <(errors "$o.krm") > "$o.diff"; then
    log "$t: errors that one build reports (< base, > krm):"
    cat "$o.diff" >&2
    grep -q '^>' "$o.diff" && status=1
  fi
done
echo "| all ${#trees[@]} | ${total[0]} | ${total[1]} | ${total[2]} |"
exit $status
