#!/usr/bin/env bash
# Cost of provenance: `krm build all` without and with `--provenance
# --provenance-manifest FILE` on the synthetic ~4000-resource tree
# (dev/bench/gen), in interleaved runs so that load on the machine hits both
# alike. Prints median wall and CPU time of each and the overhead in percent.
#
# Usage: dev/scripts/bench-provenance.sh
#
# Environment:
#   KRM=PATH          binary to benchmark (default: build .bin/krm from ./tools/renderer)
#   RUNS=7            measured runs of each mode (interleaved: off, on, off, on, ...)
#   WARMUP=1          unmeasured warm-up runs of each mode
#   APPS=40, SEED=1   dev/bench/gen tree (40 apps -> 3978 resources)
#   MAX_OVERHEAD=10   fail (exit 1) when the median CPU overhead exceeds this
#                     many percent; empty disables the check
#   KEEP=1            keep the temp dir (tree, outputs, manifest)
#
# Also checks that the output with provenance is the output without it plus
# only the provenance.rules-krm.dev/ annotations, and that both are
# deterministic across runs.
set -euo pipefail
export GOTOOLCHAIN=local

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

RUNS=${RUNS:-7}
WARMUP=${WARMUP:-1}
APPS=${APPS:-40}
SEED=${SEED:-1}
MAX_OVERHEAD=${MAX_OVERHEAD-10}

log() { echo "bench-provenance: $*" >&2; }

if [[ -z ${KRM:-} ]]; then
  log "building .bin/krm"
  go build -o .bin/krm ./tools/renderer
  KRM=$ROOT/.bin/krm
fi
case $KRM in */*) KRM=$(cd "$(dirname "$KRM")" && pwd)/$(basename "$KRM") ;; *) KRM=$(command -v "$KRM") ;; esac

TMP=$(mktemp -d "${TMPDIR:-/tmp}/krm-bench-prov.XXXXXX")
if [[ ${KEEP:-} == 1 ]]; then
  log "keeping $TMP"
else
  trap 'rm -rf "$TMP"' EXIT
fi
go build -o "$TMP/measure" ./dev/bench/measure
go build -o "$TMP/gen" ./dev/bench/gen
"$TMP/gen" -out "$TMP/tree" -apps "$APPS" -seed "$SEED" >&2

field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }

# run MODE: one measured run; appends "wall cpu rss sha" to $TMP/MODE.runs.
run() {
  local mode=$1 n=$2 warm=$3 line
  local -a cmd=("$KRM" build all)
  if [[ $mode == on ]]; then cmd+=(--provenance --provenance-manifest "$TMP/provenance.json"); fi
  if ! line=$("$TMP/measure" -label "$mode" -dir "$TMP/tree" -n "$n" -warmup "$warm" \
    -stdout "$TMP/$mode.yaml" -- "${cmd[@]}" 2>/dev/null); then
    log "FAILED: krm build all ($mode)"
    exit 1
  fi
  echo "$(field "$line" median_ms) $(field "$line" cpu_ms) $(field "$line" peak_rss_kb) $(field "$line" sha256) $(field "$line" docs)" >>"$TMP/$mode.runs"
}

log "warm-up: $WARMUP run(s) of each mode"
for ((i = 0; i < WARMUP; i++)); do
  "$TMP/measure" -dir "$TMP/tree" -n 1 -warmup 0 -- "$KRM" build all >/dev/null 2>&1
  "$TMP/measure" -dir "$TMP/tree" -n 1 -warmup 0 -- "$KRM" build all --provenance >/dev/null 2>&1
done
log "$RUNS interleaved runs of each mode ($KRM)"
for ((i = 0; i < RUNS; i++)); do
  run off 1 0
  run on 1 0
done

for mode in off on; do
  if [[ $(cut -d' ' -f4 "$TMP/$mode.runs" | sort -u | wc -l) != 1 ]]; then
    log "FAILED: output of krm build all ($mode) differs between runs"
    exit 1
  fi
done

# Strip the provenance annotations (and an annotations: key left empty).
awk '
  /^    provenance\.rules-krm\.dev\// { next }
  held != "" { if ($0 ~ /^    /) print held; held = "" }
  /^  annotations:$/ { held = $0; next }
  { print }
  END { if (held != "") print held }
' "$TMP/on.yaml" >"$TMP/on-stripped.yaml"
identical=yes
cmp -s "$TMP/off.yaml" "$TMP/on-stripped.yaml" || identical=no

median() { sort -n | awk '{a[NR] = $1} END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
stat() { cut -d' ' -f"$2" "$TMP/$1.runs" | median; }

off_wall=$(stat off 1) on_wall=$(stat on 1)
off_cpu=$(stat off 2) on_cpu=$(stat on 2)
off_rss=$(cut -d' ' -f3 "$TMP/off.runs" | sort -n | tail -1)
on_rss=$(cut -d' ' -f3 "$TMP/on.runs" | sort -n | tail -1)
docs=$(head -1 "$TMP/on.runs" | cut -d' ' -f5)
manifest_kb=$(($(wc -c <"$TMP/provenance.json") / 1024))

ncpu=$(nproc 2>/dev/null || echo '?')
{
  echo
  echo "krm build all, without vs with --provenance --provenance-manifest (dev/bench/gen apps=$APPS seed=$SEED, $docs documents)"
  echo "$(go env GOVERSION) $(go env GOOS)/$(go env GOARCH), $ncpu CPUs, load avg $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
  echo "median of $RUNS interleaved runs after $WARMUP warm-up"
  echo
  awk -v ow="$off_wall" -v nw="$on_wall" -v oc="$off_cpu" -v nc="$on_cpu" -v orss="$off_rss" -v nrss="$on_rss" 'BEGIN {
    printf "| %-15s | %14s | %13s | %11s |\n", "mode", "median wall ms", "median CPU ms", "peak RSS MB"
    printf "|%s|%s|%s|%s|\n", "-----------------", "---------------:", "--------------:", "------------:"
    printf "| %-15s | %14.1f | %13.1f | %11.1f |\n", "off", ow, oc, orss / 1024
    printf "| %-15s | %14.1f | %13.1f | %11.1f |\n", "provenance", nw, nc, nrss / 1024
    printf "\n"
    printf "overhead: %+.1f%% wall, %+.1f%% CPU, %+.1f%% peak RSS\n", (nw / ow - 1) * 100, (nc / oc - 1) * 100, (nrss / orss - 1) * 100
  }'
  echo "provenance manifest: ${manifest_kb} KiB; output without the annotations identical to plain output: $identical"
}

if [[ $identical != yes ]]; then
  log "FAILED: output with provenance is not the plain output plus provenance annotations"
  diff "$TMP/off.yaml" "$TMP/on-stripped.yaml" | head -20 >&2 || true
  exit 1
fi
if [[ -n $MAX_OVERHEAD ]]; then
  if ! awk -v oc="$off_cpu" -v nc="$on_cpu" -v max="$MAX_OVERHEAD" 'BEGIN { exit !((nc / oc - 1) * 100 <= max) }'; then
    log "FAILED: CPU overhead above ${MAX_OVERHEAD}%"
    exit 1
  fi
fi
