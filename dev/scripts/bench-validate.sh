#!/usr/bin/env bash
# Speed and memory of `krm validate` against kubeconform v0.8.0 on the same objects with the
# same schemas: the pinned Kubernetes v1.37 OpenAPI v3 documents and the CRDs among the
# objects, written as kubeconform's JSON Schema files by
# tools/renderer/dev/kubeconform (strict like kubeconform's "-strict"
# schemas). Both run strict, from rendered YAML on disk; each run is timed by /usr/bin/time -v,
# the two tools alternating run by run so that load on a shared machine hits both alike.
#
# (dev/scripts/bench-validate-cel.sh compares the API server's checks, CEL rules and admission
# policies, with kubectl-validate and Kyverno's CLI.)
#
# Usage: dev/scripts/bench-validate.sh
#
# Trees:
#   synthetic  always: `krm build all` of dev/bench/gen's tree (APPS=40: 3978 objects)
#   kubeflow   with KUBEFLOW=DIR (a checkout of kubeflow/manifests) and ARGO=DIR (of
#              argoproj/argo-workflows): `krm build example` (664 objects, many large
#              CRDs), its remote bases made local as dev/scripts/bench-real.sh does
#
# Environment:
#   KRM=PATH         krm binary (default: built from ./tools/renderer)
#   KRM_BASE=PATH    another krm binary (an older build) to run in the same interleaving: its
#                    rows, "TREE@base", compare it with kubeconform likewise
#   KUBECONFORM=PATH kubeconform binary (default: go install ...@v0.8.0 into the temp dir)
#   RUNS=7           interleaved runs of each tool per tree (plus one unmeasured warm-up each)
#   APPS=40, SEED=1  the synthetic tree
#   KEEP=1           keep the temp dir
#
# Output: a markdown table of medians (CPU = user + system) and krm's ratios; exit status 0 if
# every run succeeded and both tools found every object valid.
set -euo pipefail
export GOTOOLCHAIN=local

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
RUNS=${RUNS:-7}
APPS=${APPS:-40}
SEED=${SEED:-1}
KUBECONFORM_VERSION=v0.8.0
log() { echo "bench-validate: $*" >&2; }
# shellcheck source=dev/scripts/bench-validate-lib.sh
source "$ROOT/dev/scripts/bench-validate-lib.sh"
bench_setup bench-validate

if [[ -z ${KRM:-} ]]; then
  go build -o "$TMP/krm" ./tools/renderer
  KRM=$TMP/krm
fi
if [[ -z ${KUBECONFORM:-} ]]; then
  log "installing kubeconform $KUBECONFORM_VERSION"
  GOBIN=$TMP go install "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION"
  KUBECONFORM=$TMP/kubeconform
fi
go build -o "$TMP/schemas" ./tools/renderer/dev/kubeconform

# --- trees: rendered once, outside the timing ---------------------------------------------
names=()
bench_trees

# --- schemas: the same for both tools ----------------------------------------------------
# kubeconform gets the built-in schemas and every tree's CRDs, krm the built-in schemas
# (embedded) and the CRDs among the objects it validates.
files=()
for n in "${names[@]}"; do files+=("$TMP/$n.yaml"); done
"$TMP/schemas" -out "$TMP/jsonschema" "${files[@]}"
location="$TMP/jsonschema/{{ .Group }}/{{ .ResourceAPIVersion }}/{{ .ResourceKind }}.json"

# --- runs --------------------------------------------------------------------------------
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
rows=()
status=0
for n in "${names[@]}"; do
  f=$TMP/$n.yaml
  objects=$(grep -c '^kind:' "$f" || true)
  krm=("$KRM" validate "$f")
  kc=("$KUBECONFORM" -strict -summary -schema-location "$location" "$f")
  log "$n: $objects objects, $(du -m "$f" | cut -f1) MB: warm-up, then $RUNS interleaved runs of each"
  run warmup "$TMP/$n.krm.out" "${krm[@]}"
  run warmup "$TMP/$n.kc.out" "${kc[@]}"
  for ((i = 0; i < RUNS; i++)); do
    run "$n.krm" "$TMP/$n.krm.out" "${krm[@]}"
    run "$n.kc" "$TMP/$n.kc.out" "${kc[@]}"
    if [[ -n ${KRM_BASE:-} ]]; then
      run "$n.base" "$TMP/$n.base.out" "$KRM_BASE" validate "$f"
    fi
  done
  krm_summary=$(tail -1 "$TMP/$n.krm.out")
  kc_summary=$(tail -1 "$TMP/$n.kc.out")
  log "$n: krm: $krm_summary; kubeconform: $kc_summary"
  [[ $krm_summary == *", 0 invalid" ]] || status=1
  [[ $kc_summary == *"Invalid: 0, Errors: 0"* ]] || status=1
  rows+=("$n $objects $(col "$n.krm" 1) $(col "$n.krm" 2) $(col "$n.krm" 3) $(col "$n.kc" 1) $(col "$n.kc" 2) $(col "$n.kc" 3)")
  if [[ -n ${KRM_BASE:-} ]]; then
    cmp -s "$TMP/$n.krm.out" "$TMP/$n.base.out" || { log "$n: KRM_BASE's report differs"; status=1; }
    rows+=("$n@base $objects $(col "$n.base" 1) $(col "$n.base" 2) $(col "$n.base" 3) $(col "$n.kc" 1) $(col "$n.kc" 2) $(col "$n.kc" 3)")
  fi
done

echo
echo "krm validate vs kubeconform $KUBECONFORM_VERSION (-strict, same schemas), median of $RUNS interleaved runs"
echo "$(go env GOVERSION) $(go env GOOS)/$(go env GOARCH), $(nproc) CPUs, load avg $load_start at start, $(cut -d' ' -f1-3 /proc/loadavg) at end"
echo
printf '%s\n' "${rows[@]}" | awk '
  BEGIN {
    printf "| tree | objects | krm CPU / wall s | kubeconform CPU / wall s | krm faster (CPU) | krm faster (wall) | peak RSS krm / kubeconform |\n"
    printf "|---|--:|--:|--:|--:|--:|--:|\n"
  }
  {
    printf "| %s | %d | %.2f / %.2f | %.2f / %.2f | %.2fx | %.2fx | %d / %d MB |\n",
      $1, $2, $3, $4, $6, $7, ($3 > 0 ? $6 / $3 : 0), ($4 > 0 ? $7 / $4 : 0), $5 / 1024, $8 / 1024
  }'
if [[ $status != 0 ]]; then log "an object was found invalid (see KEEP=1)"; fi
exit $status
