#!/usr/bin/env bash
# The scale benchmark (docs/performance.md, "Scale"): scripts/bench-gazelle.sh at each size of
# the generated monorepo, one after the other in one run, its figures appended to one TSV, then
# the plot of time against size drawn from that TSV (dev/bench/plot).
#
# Usage: scripts/bench-scale.sh OUT.tsv OUT.svg
#   SIZES="120:20 120:100 296:270"  APPS:TEAMS per size (APPS + 4 + 10 * TEAMS directories, TEAMS <= APPS:
#                                   324, 1,124 and 3,000); RUNS=1 rounds over the sizes;
#   RENDERER=prebuilt|source        as scripts/bench-gazelle.sh.
# Each size's table goes to stdout as bench-gazelle.sh prints it.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local
[[ $# -eq 2 ]] || { echo "usage: scripts/bench-scale.sh OUT.tsv OUT.svg" >&2; exit 2; }
tsv=$(realpath -m "$1")
svg=$(realpath -m "$2")
SIZES=${SIZES:-120:20 120:100 296:270}
RUNS=${RUNS:-1}
{
  echo "# scripts/bench-scale.sh $(date -u +%Y-%m-%d) $(git -C "$ROOT" rev-parse --short HEAD) RENDERER=${RENDERER:-prebuilt}, $(nproc) CPUs"
  echo "# dirs deployments gazelle loop ploop clean noop edit second heap_mb worker_mb clean_internal clean_worker second_internal analysis clean_server_cpu clean_worker_cpu"
} >"$tsv"
for _ in $(seq "$RUNS"); do
  for size in $SIZES; do
    APPS=${size%%:*} TEAMS=${size##*:} TSV=$tsv "$ROOT/scripts/bench-gazelle.sh"
  done
done
(cd "$ROOT" && go run ./dev/bench/plot "$tsv") >"$svg.tmp"
mv "$svg.tmp" "$svg"
echo "bench-scale: figures in $tsv, plot in $svg" >&2
