#!/usr/bin/env bash
# Speed and memory on real trees: `krm build DIR` vs `kustomize build DIR`,
# each timed by dev/bench/measure in this one run, with a check that both print
# the same bytes.
#
# Usage: dev/scripts/bench-real.sh
#
# Trees:
#   kuberay    always: dev/bench/real/kuberay/config/default-with-webhooks (vendored,
#              see dev/bench/real/README.md): 16 objects, 4 MB, mostly CRDs
#   argo       with ARGO=DIR, a checkout of argoproj/argo-workflows:
#              manifests/quick-start/postgres (55 objects, 12 MB)
#   kubeflow   with KUBEFLOW=DIR, a checkout of kubeflow/manifests, and ARGO:
#              example/ (664 objects, 12 MB). kubeflow's kustomizations name
#              remote bases, which neither tool may fetch here: the script
#              builds a copy whose argo-workflows URLs point into ARGO (at
#              its checked-out version, not the pinned tag) and whose
#              kubernetes-sigs release URLs (jobset, lws) are dropped.
#
# Environment:
#   KRM=PATH, KUSTOMIZE=PATH   binaries (defaults as in dev/scripts/bench.sh)
#   RUNS=3, WARMUP=1           measured and warm-up runs of each tool per tree
#   KEEP=1                     keep the temp dir
#
# Exit status: 0 if every build succeeds and krm's output is byte-identical.
set -euo pipefail
export GOTOOLCHAIN=local

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

KUSTOMIZE_VERSION=v5.8.2
RUNS=${RUNS:-3}
WARMUP=${WARMUP:-1}

log() { echo "bench-real: $*" >&2; }
# shellcheck source=dev/scripts/bench-tools.sh
source "$ROOT/dev/scripts/bench-tools.sh"
# shellcheck source=dev/scripts/bench-kubeflow.sh
source "$ROOT/dev/scripts/bench-kubeflow.sh"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/krm-bench-real.XXXXXX")
if [[ ${KEEP:-} == 1 ]]; then log "keeping $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
go build -o "$TMP/measure" ./dev/bench/measure

names=(kuberay)
dirs=("$ROOT/dev/bench/real/kuberay/config/default-with-webhooks")
if [[ -n ${ARGO:-} ]]; then
  names+=(argo)
  dirs+=("$(cd "$ARGO" && pwd)/manifests/quick-start/postgres")
fi
if [[ -n ${KUBEFLOW:-} ]]; then
  [[ -n ${ARGO:-} ]] || { log "KUBEFLOW needs ARGO (kubeflow's remote argo-workflows bases are read from it)"; exit 2; }
  log "copying $KUBEFLOW with its remote bases made local"
  kf=$TMP/kubeflow
  kubeflow_copy "$KUBEFLOW" "$ARGO" "$kf"
  names+=(kubeflow)
  dirs+=("$kf/example")
fi

field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }
rows=()
status=0
for i in "${!names[@]}"; do
  name=${names[$i]} dir=${dirs[$i]}
  log "$name: kustomize build ($WARMUP warm-up + $RUNS runs)"
  k=$("$TMP/measure" -label kustomize -n "$RUNS" -warmup "$WARMUP" -stdout "$TMP/$name.kustomize.yaml" -- "$KUSTOMIZE" build "$dir" 2>/dev/null)
  log "$name: krm build ($WARMUP warm-up + $RUNS runs)"
  m=$("$TMP/measure" -label krm -n "$RUNS" -warmup "$WARMUP" -stdout "$TMP/$name.krm.yaml" -- "$KRM" build "$dir" 2>/dev/null)
  same=yes
  if ! cmp -s "$TMP/$name.kustomize.yaml" "$TMP/$name.krm.yaml"; then
    same=NO
    status=1
  fi
  rows+=("$name $(field "$m" docs) $(field "$m" stdout_bytes) $(field "$m" median_ms) $(field "$m" cpu_ms) $(field "$m" peak_rss_kb) $(field "$k" median_ms) $(field "$k" cpu_ms) $(field "$k" peak_rss_kb) $same")
done

echo
echo "krm vs kustomize $kversion: \`build DIR\` on real trees, median of $RUNS runs after $WARMUP warm-up"
echo "$(go env GOVERSION) $(go env GOOS)/$(go env GOARCH), $(nproc) CPUs, load avg $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%s\n' "${rows[@]}" | awk '
  BEGIN {
    printf "| %-9s | %5s | %7s | %15s | %15s | %13s | %13s | %12s | %9s |\n", "tree", "docs", "MB out", "krm wall/CPU s", "kust wall/CPU s", "faster (wall)", "faster (CPU)", "RSS krm/kust", "identical"
    printf "|-----------|------:|--------:|----------------:|----------------:|--------------:|-------------:|-------------:|-----------|\n"
  }
  {
    printf "| %-9s | %5d | %7.1f | %7.2f / %5.2f | %7.2f / %5.2f | %12.2fx | %12.2fx | %4d/%4d MB %s| %-9s |\n",
      $1, $2, $3/1e6, $4/1000, $5/1000, $7/1000, $8/1000, ($4 > 0 ? $7/$4 : 0), ($5 > 0 ? $8/$5 : 0),
      $6/1024, $9/1024, "", $10
  }'
if [[ $status != 0 ]]; then
  log "krm output differs from kustomize output (see KEEP=1)"
fi
exit $status
