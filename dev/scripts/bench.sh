#!/usr/bin/env bash
# Speed and memory benchmark: `krm build all` vs `kustomize build all` on a
# synthetic ~4000-resource tree (dev/bench/gen), timed by dev/bench/measure, and the
# parse-and-write floor that no renderer can beat (dev/bench/floor: every input
# file parsed with kyaml and written back, and the rendered output decoded
# into YAML nodes and encoded again: the tree prints 16 times what it reads).
#
# Usage: dev/scripts/bench.sh
#
# Environment:
#   KRM=PATH        binary to benchmark as krm (default: build .bin/krm from ./tools/renderer)
#   KUSTOMIZE=PATH  reference kustomize (default: .bin/kustomize, installed at v5.8.2 if missing)
#   RUNS=5          measured runs of krm
#   WARMUP=1        unmeasured warm-up runs of krm
#   KUSTOMIZE_RUNS=3, KUSTOMIZE_WARMUP=0
#                   the same for kustomize (one kustomize build of the default
#                   tree takes ~60 s of CPU, so it gets fewer runs)
#   APPS=40         app bases in the tree (40 -> 3978 resources)
#   SEED=1          generator seed
#   KEEP=1          keep the temp dir (tree, outputs) instead of deleting it
#
# A full run takes ~4 minutes, nearly all of it kustomize; APPS=4 RUNS=3 gives a
# ~15 s smoke test. Until krm builds, KRM=.bin/kustomize exercises the harness.
#
# Exit status: 0 if both tools succeed and print byte-identical output.
set -euo pipefail
export GOTOOLCHAIN=local

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

KUSTOMIZE_VERSION=v5.8.2
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-1}
KUSTOMIZE_RUNS=${KUSTOMIZE_RUNS:-3}
KUSTOMIZE_WARMUP=${KUSTOMIZE_WARMUP:-0}
APPS=${APPS:-40}
SEED=${SEED:-1}

log() { echo "bench: $*" >&2; }

# --- tools: KUSTOMIZE, kversion, KRM ---------------------------------------
# shellcheck source=dev/scripts/bench-tools.sh
source "$ROOT/dev/scripts/bench-tools.sh"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/krm-bench.XXXXXX")
if [[ ${KEEP:-} == 1 ]]; then
  log "keeping $TMP"
else
  trap 'rm -rf "$TMP"' EXIT
fi

go build -o "$TMP/measure" ./dev/bench/measure
go build -o "$TMP/gen" ./dev/bench/gen
go build -o "$TMP/floor" ./dev/bench/floor

load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')

# --- tree ------------------------------------------------------------------
"$TMP/gen" -out "$TMP/tree" -apps "$APPS" -seed "$SEED"

# --- runs ------------------------------------------------------------------
# measure prints one line of key=value pairs on stdout; progress goes to stderr.
log "kustomize build all: $KUSTOMIZE_WARMUP warm-up + $KUSTOMIZE_RUNS runs ($KUSTOMIZE)"
if ! kline=$("$TMP/measure" -label kustomize -dir "$TMP/tree" -n "$KUSTOMIZE_RUNS" -warmup "$KUSTOMIZE_WARMUP" \
  -stdout "$TMP/kustomize.yaml" -- "$KUSTOMIZE" build all); then
  log "FAILED: kustomize build all did not succeed (or was not deterministic)"
  exit 1
fi
log "krm build all: $WARMUP warm-up + $RUNS runs ($KRM)"
if ! mline=$("$TMP/measure" -label krm -dir "$TMP/tree" -n "$RUNS" -warmup "$WARMUP" \
  -stdout "$TMP/krm.yaml" -- "$KRM" build all); then
  log "FAILED: krm build all did not succeed (or was not deterministic)"
  exit 1
fi

# The floor: parse every input file with kyaml and write it back, decode and
# encode the rendered output (dev/bench/floor).
log "floor: parse and write every input file and the output: $WARMUP warm-up + $RUNS runs"
if ! fline=$("$TMP/measure" -label floor -n "$RUNS" -warmup "$WARMUP" -stdout "$TMP/floor.yaml" -- "$TMP/floor" "$TMP/tree" "$TMP/kustomize.yaml"); then
  log "FAILED: dev/bench/floor"
  exit 1
fi

# field LINE KEY: value of KEY in a measure output line.
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }

k_ms=$(field "$kline" median_ms); k_min=$(field "$kline" min_ms); k_max=$(field "$kline" max_ms)
k_cpu=$(field "$kline" cpu_ms); k_rss=$(field "$kline" peak_rss_kb); k_docs=$(field "$kline" docs)
m_ms=$(field "$mline" median_ms); m_min=$(field "$mline" min_ms); m_max=$(field "$mline" max_ms)
m_cpu=$(field "$mline" cpu_ms); m_rss=$(field "$mline" peak_rss_kb); m_docs=$(field "$mline" docs)
f_ms=$(field "$fline" median_ms); f_cpu=$(field "$fline" cpu_ms); f_rss=$(field "$fline" peak_rss_kb)

identical=yes
cmp -s "$TMP/kustomize.yaml" "$TMP/krm.yaml" || identical=no

# --- report ----------------------------------------------------------------
ncpu=$(nproc 2>/dev/null || echo '?')
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
{
  echo
  echo "krm vs kustomize $kversion: \`build all\` on dev/bench/gen tree (apps=$APPS seed=$SEED, $k_docs documents)"
  echo "$(go env GOVERSION) $(go env GOOS)/$(go env GOARCH), $ncpu CPUs${cpu_model:+ ($cpu_model)}, load avg at start $load_start"
  echo "median of $RUNS runs after $WARMUP warm-up (kustomize: $KUSTOMIZE_RUNS after $KUSTOMIZE_WARMUP); krm=${KRM#"$ROOT"/} kustomize=${KUSTOMIZE#"$ROOT"/}"
  echo
  awk -v km="$k_ms" -v kmin="$k_min" -v kmax="$k_max" -v kc="$k_cpu" -v kr="$k_rss" \
      -v mm="$m_ms" -v mmin="$m_min" -v mmax="$m_max" -v mc="$m_cpu" -v mr="$m_rss" -v kv="$kversion" \
      -v fm="$f_ms" -v fc="$f_cpu" -v fr="$f_rss" 'BEGIN {
    printf "| %-16s | %14s | %17s | %13s | %11s |\n", "tool", "median wall ms", "min-max wall ms", "median CPU ms", "peak RSS MB"
    printf "|%s|%s|%s|%s|%s|\n", "------------------", "---------------:", "------------------:", "--------------:", "------------:"
    printf "| %-16s | %14.1f | %17s | %13.1f | %11.1f |\n", "krm", mm, sprintf("%.1f-%.1f", mmin, mmax), mc, mr/1024
    printf "| %-16s | %14.1f | %17s | %13.1f | %11.1f |\n", "kustomize " kv, km, sprintf("%.1f-%.1f", kmin, kmax), kc, kr/1024
    printf "| %-16s | %14.1f | %17s | %13.1f | %11.1f |\n", "floor", fm, "", fc, fr/1024
    printf "\n"
    printf "time   kustomize/krm: %.2fx (wall), %.2fx (CPU)\n", (mm > 0 ? km/mm : 0), (mc > 0 ? kc/mc : 0)
    printf "time   krm/floor:     %.2fx (wall), %.2fx (CPU)\n", (fm > 0 ? mm/fm : 0), (fc > 0 ? mc/fc : 0)
    printf "memory krm/kustomize: %.3fx (peak RSS)\n", (kr > 0 ? mr/kr : 0)
  }'
  echo "output byte-identical: $identical (kustomize $k_docs docs, krm $m_docs docs)"
}

if [[ $identical != yes ]]; then
  {
    echo
    echo "WARNING: krm output differs from kustomize output -- the timings above are not comparable"
    echo "diff -u kustomize.yaml krm.yaml | head -60:"
    diff -u "$TMP/kustomize.yaml" "$TMP/krm.yaml" | head -60 || true
    if [[ ${KEEP:-} == 1 ]]; then echo "(full outputs kept in $TMP)"; fi
  } >&2
  exit 1
fi
