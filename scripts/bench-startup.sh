#!/usr/bin/env bash
# Start-up benchmark: `krm build` vs `kustomize build` of a trivial
# kustomization (one ConfigMap), where the cost is the process's start-up.
# The two tools run alternately, one run each per round, so that both see the
# same load; the script prints each tool's median CPU (user+system) and wall
# time and the krm/kustomize ratios of this one run.
#
# Usage: scripts/bench-startup.sh
#
# Environment:
#   KRM=PATH        binary to benchmark as krm (default: build .bin/krm from ./tools/renderer)
#   KUSTOMIZE=PATH  reference kustomize (default: .bin/kustomize, installed at v5.8.2 if missing)
#   RUNS=100        runs of each tool
#
# Exit status: 0 if both tools succeed and print byte-identical output.
set -euo pipefail
export GOTOOLCHAIN=local

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

KUSTOMIZE_VERSION=v5.8.2
RUNS=${RUNS:-100}

log() { echo "bench-startup: $*" >&2; }

# shellcheck source=scripts/bench-tools.sh
source "$ROOT/scripts/bench-tools.sh"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/krm-startup.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
go build -o "$TMP/measure" ./bench/measure

mkdir "$TMP/tree"
printf 'resources:\n- cm.yaml\n' >"$TMP/tree/kustomization.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  k: v\n' >"$TMP/tree/cm.yaml"

"$KRM" build "$TMP/tree" >"$TMP/krm.yaml"
"$KUSTOMIZE" build "$TMP/tree" >"$TMP/kustomize.yaml"
if ! cmp -s "$TMP/krm.yaml" "$TMP/kustomize.yaml"; then
  log "FAILED: krm and kustomize print different output"
  diff "$TMP/kustomize.yaml" "$TMP/krm.yaml" >&2 || true
  exit 1
fi

# One run per measure call: measure prints "... median_ms=W ... cpu_ms=C ...".
one() {
  "$TMP/measure" -n 1 -warmup 0 -label "$1" -- "$2" build "$TMP/tree" 2>/dev/null |
    tr ' ' '\n' | awk -F= '$1 == "median_ms" { w = $2 } $1 == "cpu_ms" { c = $2 } END { print c, w }'
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
log "$RUNS alternating runs of each: $KRM, $KUSTOMIZE ($kversion)"
for ((i = 0; i < RUNS; i++)); do
  one krm "$KRM" >>"$TMP/krm.txt"
  one kustomize "$KUSTOMIZE" >>"$TMP/kustomize.txt"
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')

# median FILE COLUMN
median() { cut -d' ' -f"$2" "$1" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

kc=$(median "$TMP/krm.txt" 1) kw=$(median "$TMP/krm.txt" 2)
uc=$(median "$TMP/kustomize.txt" 1) uw=$(median "$TMP/kustomize.txt" 2)
printf '%-10s %10s %10s\n' tool cpu_ms wall_ms
printf '%-10s %10.2f %10.2f\n' krm "$kc" "$kw" kustomize "$uc" "$uw"
awk -v kc="$kc" -v kw="$kw" -v uc="$uc" -v uw="$uw" \
  'BEGIN { printf "%-10s %10.2f %10.2f\n", "ratio", kc / uc, kw / uw }'
echo "runs=$RUNS load_start=$load_start load_end=$load_end"
