#!/usr/bin/env bash
# The scale benchmark (docs/performance.md, "Scale"): dev/scripts/bench-gazelle.sh and
# dev/scripts/bench-prdiff.sh (the pull-request flow; PRDIFF=0 leaves it out) at each size of the
# generated monorepo, one after the other in one run, each size's figures one line of one TSV
# (BENCH_COLUMNS, then PRDIFF_COLUMNS from their third on), then the plot of time against size
# drawn from that TSV (dev/bench/plot).
#
# Usage: dev/scripts/bench-scale.sh OUT.tsv OUT.svg
#   SIZES="120:20 120:100 296:270"  APPS:TEAMS per size (APPS + 4 + 10 * TEAMS directories, TEAMS <= APPS:
#                                   324, 1,124 and 3,000); RUNS=1 rounds over the sizes;
#   RENDERER=prebuilt|source        as dev/scripts/bench-gazelle.sh.
# Each size's table goes to stdout as bench-gazelle.sh prints it.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export GOTOOLCHAIN=local
[[ $# -eq 2 ]] || { echo "usage: dev/scripts/bench-scale.sh OUT.tsv OUT.svg" >&2; exit 2; }
tsv=$(realpath -m "$1")
svg=$(realpath -m "$2")
SIZES=${SIZES:-120:20 120:100 296:270}
RUNS=${RUNS:-1}
{
  echo "# dev/scripts/bench-scale.sh $(date -u +%Y-%m-%d) $(git -C "$ROOT" rev-parse --short HEAD) RENDERER=${RENDERER:-prebuilt}, $(nproc) CPUs"
  echo "# dirs deployments gazelle loop ploop clean noop edit second heap_mb worker_mb clean_internal clean_worker second_internal analysis clean_server_cpu clean_worker_cpu affected pr_main pr_write_base pr_ci_job pr_no_cache pr_rerun pr_given_base pr_loop"
} >"$tsv"
for _ in $(seq "$RUNS"); do
  for size in $SIZES; do
    line=$(mktemp)
    APPS=${size%%:*} TEAMS=${size##*:} TSV=$line "$ROOT/dev/scripts/bench-gazelle.sh"
    if [[ ${PRDIFF:-1} != 0 ]]; then
      pr=$(mktemp)
      APPS=${size%%:*} TEAMS=${size##*:} TSV=$pr "$ROOT/dev/scripts/bench-prdiff.sh"
      paste "$line" <(cut -f3- "$pr") >>"$tsv"
      rm -f "$pr"
    else
      cat "$line" >>"$tsv"
    fi
    rm -f "$line"
  done
done
(cd "$ROOT" && go run ./dev/bench/plot "$tsv") >"$svg.tmp"
mv "$svg.tmp" "$svg"
echo "bench-scale: figures in $tsv, plot in $svg" >&2
