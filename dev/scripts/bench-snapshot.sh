#!/usr/bin/env bash
# Cost of the Bazel path: the top render of the synthetic tree (dev/bench/gen)
# from its bases' snapshots, as krm_kustomization's actions run it, vs `krm
# build all` from sources. Every other kustomization is rendered to a
# snapshot first, level by level (bases, layers, envs, regions); then the
# top's two actions are timed against `krm build all` in the same run: its
# manifests (KrmManifests, `krm render all --manifests`, the one a build of
# the top runs) and its snapshot (KrmRender, `krm render all --snapshot`,
# run only for a parent). The manifests must be the build's.
#
# Usage: dev/scripts/bench-snapshot.sh
#
# Environment:
#   KRM=PATH        binary (default: build .bin/krm from ./tools/renderer)
#   RUNS=5, WARMUP=1, APPS=40, SEED=1, KEEP=1   as in dev/scripts/bench.sh
set -euo pipefail
export GOTOOLCHAIN=local

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-1}
APPS=${APPS:-40}
SEED=${SEED:-1}

log() { echo "bench-snapshot: $*" >&2; }

if [[ -z ${KRM:-} ]]; then
  log "building .bin/krm"
  go build -o .bin/krm ./tools/renderer
  KRM=$ROOT/.bin/krm
fi
KRM=$(cd "$(dirname "$KRM")" && pwd)/$(basename "$KRM")

TMP=$(mktemp -d "${TMPDIR:-/tmp}/krm-bench-snapshot.XXXXXX")
if [[ ${KEEP:-} == 1 ]]; then log "keeping $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
go build -o "$TMP/measure" ./dev/bench/measure
go build -o "$TMP/gen" ./dev/bench/gen
"$TMP/gen" -out "$TMP/tree" -apps "$APPS" -seed "$SEED" >&2
cd "$TMP/tree"

# Render each level from the snapshots of the levels below it.
deps=()
mkdir -p "$TMP/snap"
for level in bases layers envs regions; do
  for dir in "$level"/*/; do
    dir=${dir%/}
    snap=$TMP/snap/${dir//\//_}.json
    "$KRM" render "$dir" --snapshot "$snap" "${deps[@]}"
    deps+=(--dep "$dir=$snap")
  done
done
log "rendered $((${#deps[@]} / 2)) snapshots ($(du -sh "$TMP/snap" | cut -f1))"

field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }
log "krm build all: $WARMUP warm-up + $RUNS runs"
b=$("$TMP/measure" -label build -n "$RUNS" -warmup "$WARMUP" -stdout "$TMP/build.yaml" -- "$KRM" build all)
log "krm render all --manifests from snapshots: $WARMUP warm-up + $RUNS runs"
m=$("$TMP/measure" -label manifests -n "$RUNS" -warmup "$WARMUP" -- \
  "$KRM" render all --manifests "$TMP/render-run.yaml" "${deps[@]}")
log "krm render all --snapshot from snapshots: $WARMUP warm-up + $RUNS runs"
s=$("$TMP/measure" -label snapshot -n "$RUNS" -warmup "$WARMUP" -- \
  "$KRM" render all --snapshot "$TMP/all.json" "${deps[@]}")
"$KRM" render all --manifests "$TMP/render.yaml" "${deps[@]}"
same=yes
cmp -s "$TMP/build.yaml" "$TMP/render.yaml" || same=no
log "top snapshot: $(du -h "$TMP/all.json" | cut -f1)"

echo
echo "krm: top render of dev/bench/gen (apps=$APPS) from snapshots vs \`krm build all\`, median of $RUNS runs"
echo "$(nproc) CPUs, load avg $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v bm="$(field "$b" median_ms)" -v bc="$(field "$b" cpu_ms)" -v br="$(field "$b" peak_rss_kb)" \
    -v mm="$(field "$m" median_ms)" -v mc="$(field "$m" cpu_ms)" -v mr="$(field "$m" peak_rss_kb)" \
    -v sm="$(field "$s" median_ms)" -v sc="$(field "$s" cpu_ms)" -v sr="$(field "$s" peak_rss_kb)" 'BEGIN {
  printf "| %-38s | %14s | %13s | %11s |\n", "step", "median wall ms", "median CPU ms", "peak RSS MB"
  printf "|----------------------------------------|---------------:|--------------:|------------:|\n"
  printf "| %-38s | %14.1f | %13.1f | %11.1f |\n", "krm build all (sources)", bm, bc, br/1024
  printf "| %-38s | %14.1f | %13.1f | %11.1f |\n", "krm render all --manifests (snapshots)", mm, mc, mr/1024
  printf "| %-38s | %14.1f | %13.1f | %11.1f |\n", "krm render all --snapshot (snapshots)", sm, sc, sr/1024
  printf "\nmanifests/build: %.2fx (wall), %.2fx (CPU)\n", (bm > 0 ? mm/bm : 0), (bc > 0 ? mc/bc : 0)
  printf "snapshot/build: %.2fx (wall), %.2fx (CPU)\n", (bm > 0 ? sm/bm : 0), (bc > 0 ? sc/bc : 0)
}'
echo "manifests identical: $same"
[[ $same == yes ]]
