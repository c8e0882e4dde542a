#!/usr/bin/env bash
# Start-up benchmark: `krm build` vs `kustomize build` of a trivial
# kustomization (one ConfigMap), where the cost is the process's start-up.
# The tools run alternately, one run each per round, so that all see the same
# load; the script prints each tool's median CPU (user+system) and wall time
# and its ratios to kustomize's in this one run.
#
# By default it measures the two builds of krm: `krm` (./tools/renderer, what `go build` and
# `go install` make: Helm and client-go not linked; charts, cluster commands and workers run
# in krm_helm beside it) and `krm_helm` (./tools/renderer/krm_helm: Helm linked in,
# initialised in every process). It checks first that the first renders the helm example
# (examples/helm) as the second does.
#
# Usage: dev/scripts/bench-startup.sh
#
# Environment:
#   KRM=PATH        binary to benchmark as krm (default: .bin/krm, built from ./tools/renderer,
#                   with .bin/krm_helm beside it)
#   KRM_LINKED=PATH a second krm to measure alongside (default, when KRM is unset:
#                   .bin/krm_helm, Helm linked in; empty: none)
#   KUSTOMIZE=PATH  reference kustomize (default: .bin/kustomize, installed at v5.8.2 if missing)
#   RUNS=100        runs of each tool
#
# Exit status: 0 if the tools succeed and print byte-identical output.
set -euo pipefail
export GOTOOLCHAIN=local

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

KUSTOMIZE_VERSION=v5.8.2
RUNS=${RUNS:-100}

log() { echo "bench-startup: $*" >&2; }

user_krm=${KRM:-}
# shellcheck source=dev/scripts/bench-tools.sh
source "$ROOT/dev/scripts/bench-tools.sh" # builds .bin/krm and .bin/krm_helm when KRM is unset

TMP=$(mktemp -d "${TMPDIR:-/tmp}/krm-startup.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
go build -o "$TMP/measure" ./dev/bench/measure

if [[ -z $user_krm ]]; then
  LINKED=${KRM_LINKED-$ROOT/.bin/krm_helm}
  # Helm support is still there: the chart is rendered, by krm_helm.
  "$KRM" build --enable-helm examples/helm >"$TMP/helm-default.yaml"
  "$ROOT/.bin/krm_helm" build --enable-helm examples/helm >"$TMP/helm-linked.yaml"
  if ! cmp -s "$TMP/helm-default.yaml" "$TMP/helm-linked.yaml"; then
    log "FAILED: krm renders examples/helm differently from krm_helm"
    exit 1
  fi
else
  LINKED=${KRM_LINKED:-}
fi

mkdir "$TMP/tree"
printf 'resources:\n- cm.yaml\n' >"$TMP/tree/kustomization.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  k: v\n' >"$TMP/tree/cm.yaml"

"$KUSTOMIZE" build "$TMP/tree" >"$TMP/kustomize.yaml"
for bin in "$KRM" ${LINKED:+"$LINKED"}; do
  "$bin" build "$TMP/tree" >"$TMP/krm.yaml"
  if ! cmp -s "$TMP/krm.yaml" "$TMP/kustomize.yaml"; then
    log "FAILED: $bin and kustomize print different output"
    diff "$TMP/kustomize.yaml" "$TMP/krm.yaml" >&2 || true
    exit 1
  fi
done

# One run per measure call: measure prints "... median_ms=W ... cpu_ms=C ...".
one() {
  "$TMP/measure" -n 1 -warmup 0 -label "$1" -- "$2" build "$TMP/tree" 2>/dev/null |
    tr ' ' '\n' | awk -F= '$1 == "median_ms" { w = $2 } $1 == "cpu_ms" { c = $2 } END { print c, w }'
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
log "$RUNS alternating runs of each: $KRM${LINKED:+, $LINKED}, $KUSTOMIZE ($kversion)"
for ((i = 0; i < RUNS; i++)); do
  one krm "$KRM" >>"$TMP/krm.txt"
  [[ -z $LINKED ]] || one krm_linked "$LINKED" >>"$TMP/linked.txt"
  one kustomize "$KUSTOMIZE" >>"$TMP/kustomize.txt"
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')

# median FILE COLUMN
median() { cut -d' ' -f"$2" "$1" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

uc=$(median "$TMP/kustomize.txt" 1) uw=$(median "$TMP/kustomize.txt" 2)
printf '%-10s %10s %10s %10s %10s\n' tool cpu_ms wall_ms cpu_ratio wall_ratio
row() {
  local c w
  c=$(median "$2" 1) w=$(median "$2" 2)
  awk -v t="$1" -v c="$c" -v w="$w" -v uc="$uc" -v uw="$uw" \
    'BEGIN { printf "%-10s %10.2f %10.2f %10.2f %10.2f\n", t, c, w, c / uc, w / uw }'
}
row krm "$TMP/krm.txt"
[[ -z $LINKED ]] || row krm_linked "$TMP/linked.txt"
row kustomize "$TMP/kustomize.txt"
echo "runs=$RUNS load_start=$load_start load_end=$load_end"
