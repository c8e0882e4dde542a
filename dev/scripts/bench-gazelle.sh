#!/usr/bin/env bash
# Scale benchmark of the Gazelle + Bazel workflow at one size of a generated platform monorepo
# (dev/bench/gen -monorepo: leaf bases, components, team layers, environments x regions x teams),
# a consumer of rules_krm as the README sets one up (e2e/bzlmod), in one run:
#   1. gazelle: generating every BUILD file (the krm gazelle binary, run natively);
#   2. the CI loop of today: `kustomize build` (v5.8.2) of every deployment (envs/*/*/*), one
#      after the other (what CI scripts do) and with `xargs -P$(nproc)` (the fairest loop on the
#      same cores), against a clean `bazel build //...` with an empty disk cache (the renderer is
#      fetched or built first, with one trivial kustomization, so that only the renders are
#      timed);
#   3. a no-op `bazel build //...`;
#   4. an edit of one leaf base: render actions re-run and wall time;
#   5. a second output base on the disk cache filled by 2 (another CI machine): render actions
#      run (must be 0).
# For each build: Bazel's processes (internal and worker actions), its phases from the JSON
# profile (loading and analysis, execution), targets configured; after the clean build, the
# server's heap after a full GC and the persistent workers' resident memory.
#
# With RENDERER=prebuilt (the default) the renderer is a release of this checkout (dev/scripts/release.sh,
# served on loopback by dev/testing/releaseserver), as a consumer gets it: no Go action; with
# RENDERER=source it is built from source (e2e/from-source.MODULE.bazel).
# Not a test: it prints a table and, with TSV=FILE, appends one line of figures to FILE for
# dev/scripts/bench-scale.sh (its columns: BENCH_COLUMNS below). It fails only if the outputs differ
# from kustomize, the second output base runs renders, or a prebuilt consumer compiles Go.
#
# Usage: dev/scripts/bench-gazelle.sh   (APPS=120 TEAMS=20 SEED=1: 324 kustomization directories;
#        APPS + 4 + 10 * TEAMS in all; RENDERER=prebuilt|source; TSV=FILE; BAZEL_FLAGS="--watchfs ...")
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=dev/scripts/bazel-lib.sh
source "$ROOT/dev/scripts/bazel-lib.sh"
APPS=${APPS:-120}
TEAMS=${TEAMS:-20}
SEED=${SEED:-1}
RENDERER=${RENDERER:-prebuilt}
[[ $RENDERER == prebuilt || $RENDERER == source ]] || { echo "bench-gazelle: RENDERER=$RENDERER: want prebuilt or source" >&2; exit 2; }
log() { echo "bench-gazelle: $*" >&2; }
KUSTOMIZE=$ROOT/.bin/kustomize
if [[ ! -x $KUSTOMIZE ]] || [[ $("$KUSTOMIZE" version 2>/dev/null) != v5.8.2 ]]; then
  GOBIN=$ROOT/.bin go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2
fi

dir=$(krm_test_dir "bench-gazelle-$RENDERER")
ws=$dir/ws
dc=$dir/disk-cache
b1=(--output_base="$dir/output-base-1")
b2=(--output_base="$dir/output-base-2")
b3=(--output_base="$dir/output-base-3")
# Fresh output bases, so that a second run renders everything again.
for b in 1 2 3; do
  [[ -d $dir/output-base-$b ]] && (cd "$ROOT" && bazel --output_base="$dir/output-base-$b" shutdown) || true
  chmod -R u+w "$dir/output-base-$b" 2>/dev/null || true
  rm -rf "$dir/output-base-$b"
done
rm -rf "$dc" "$dir/kustomize" "$ws" "$dir/logs"
mkdir -p "$dc" "$dir/kustomize" "$dir/logs"
KRM_RELEASE_SERVER=
cleanup() {
  for b in "${b1[@]}" "${b2[@]}" "${b3[@]}"; do (cd "$ROOT" && bazel "$b" shutdown >/dev/null 2>&1) || true; done
  [[ -z $KRM_RELEASE_SERVER ]] || kill "$KRM_RELEASE_SERVER" 2>/dev/null || true
}
trap cleanup EXIT
(cd "$ROOT" && go run ./dev/bench/gen -out "$ws" -apps "$APPS" -seed "$SEED" -monorepo "$TEAMS")
if [[ $RENDERER == prebuilt ]]; then
  log "releasing this checkout (dev/scripts/release.sh)"
  krm_prebuilt_consumer "$dir" "$ws"
else
  consumer_module "$ROOT/e2e/bzlmod" "$ws"
fi
rm -rf "$ws/app"
# Only the generated tree: no golden test of rules_krm's own examples.
sed -i '/^# A kustomization of another module/,$d; /"krm_golden_test")$/d' "$ws/BUILD.bazel"
(cd "$ROOT" && dev/scripts/gazelle-binary.sh "$dir/gazelle")

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# Debian's /etc/bazel/bazelrc turns --sandbox_debug on, which slows every action. BAZEL_FLAGS
# (words) go to every timed command: an A/B of one Bazel option in the same hour.
# shellcheck disable=SC2206
flags=(--disk_cache="$dc" --symlink_prefix=/ --nosandbox_debug ${BAZEL_FLAGS:-})
cd "$ws"

# cpu PID...: user + system seconds the processes have used (0 for one that is gone).
cpu() {
  local pid ticks=0
  for pid in "$@"; do
    [[ -r /proc/$pid/stat ]] && ticks=$((ticks + $(awk '{ print $14 + $15 }' "/proc/$pid/stat")))
  done
  awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }'
}
# workers SERVER: the persistent workers of that Bazel server (not those of other builds on the
# machine).
workers() { pgrep -P "$1" -f -- '--persistent_worker' || true; }
# timed NAME OUTPUT_BASE_FLAG BAZEL ARGS...: one timed Bazel command, its stderr in logs/NAME.log
# and its JSON profile in logs/NAME.profile.gz (no execution log: writing it costs more than
# many actions do); sets $wall, and $server_cpu and $worker_cpu, the seconds of CPU the Bazel
# server and the persistent workers used in it.
timed() {
  local name=$1 base=$2 t0 server s0 w0 w
  shift 2
  server=$(bazel "$base" info server_pid 2>/dev/null)
  s0=$(cpu "$server")
  w0=$(cpu $(workers "$server"))
  t0=$(now)
  bazel "$base" "$@" --profile="$dir/logs/$name.profile.gz" 2>"$dir/logs/$name.log" || { tail -20 "$dir/logs/$name.log" >&2; return 1; }
  wall=$(secs "$t0" "$(now)")
  server_cpu=$(awk -v a="$s0" -v b="$(cpu "$server")" 'BEGIN { printf "%.1f", b - a }')
  w=$(cpu $(workers "$server"))
  worker_cpu=$(awk -v a="$w0" -v b="$w" 'BEGIN { printf "%.1f", b - a }')
  printf '%s\t%s\t%s\n' "$name" "$server_cpu" "$worker_cpu" >>"$dir/logs/cpu.tsv"
}
# processes NAME: Bazel's count of the build's processes ("4 internal, 1348 worker").
processes() { sed -n 's/^INFO: [0-9]* processes*: //p' "$dir/logs/$1.log" | sed 's/\.$//' | tail -1 | grep . || echo "no actions"; }
# count NAME KIND: one count of that line ("internal", "worker", "disk"; 0 when absent).
count() { processes "$1" | tr ',' '\n' | awk -v k="$2" '$2 == k { n = $1 } END { print n + 0 }'; }
# configured NAME: targets configured by the build's analysis.
configured() { sed -n 's/.*packages loaded, \([0-9]*\) targets\{0,1\} configured.*/\1/p' "$dir/logs/$1.log" | tail -1; }
# first_action NAME: seconds from the command's start to its first action, from the profile.
first_action() {
  gzip -dc "$dir/logs/$1.profile.gz" | jq -r '[.traceEvents[] | select(.cat == "action processing" and .ts != null) | .ts] | (min // 0) / 1e4 | round / 100'
}

# 1. gazelle
t0=$(now)
"$dir/gazelle" -repo_root="$ws" 2>"$dir/logs/gazelle.log"
gazelle_s=$(secs "$t0" "$(now)")
kdirs=$(find . \( -name kustomization.yaml -o -name kustomization.yml -o -name Kustomization \) | wc -l)
builds=$(find . -name BUILD.bazel | wc -l)

# 2. The renderer (and Bazel's external repositories) first, through the disk cache the
# project's other scripts share: fetched or built once per machine, not per change. One trivial
# kustomization outside the rendered tree makes Bazel fetch the toolchain and start its worker,
# as a developer's machine or a CI machine with a kept output base has them.
mkdir -p krm_prebuild
cat >krm_prebuild/kustomization.yaml <<'YAML'
resources:
- configmap.yaml
YAML
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: prebuild\n' >krm_prebuild/configmap.yaml
cat >krm_prebuild/BUILD.bazel <<'BUILD'
load("@rules_krm//rules:defs.bzl", "krm_kustomization")

krm_kustomization(
    name = "prebuild",
    srcs = ["configmap.yaml", "kustomization.yaml"],
)
BUILD
# --remote_download_outputs=all: the tools must be in the output base, not only in the shared
# disk cache (Bazel 7 builds without the bytes), for the timed builds on the empty cache.
# shellcheck disable=SC2206
prebuild=(--disk_cache="$(krm_disk_cache)" --remote_download_outputs=all --symlink_prefix=/ --nosandbox_debug ${BAZEL_FLAGS:-})
t0=$(now)
# The gazelle binary (//:gazelle, part of //...) is a tool built once per machine as well.
bazel "${b1[@]}" build "${prebuild[@]}" //krm_prebuild:prebuild //:gazelle 2>"$dir/logs/renderer.log" || { tail -20 "$dir/logs/renderer.log" >&2; exit 1; }
renderer_s=$(secs "$t0" "$(now)")
if [[ $RENDERER == prebuilt ]]; then
  grep -qx "$KRM_RELEASE_ARCHIVE" "$dir/served.log" || { echo "FAIL: Bazel did not download $KRM_RELEASE_ARCHIVE from the release server" >&2; exit 1; }
fi

overlays=(envs/*/*/*)
t0=$(now)
for o in "${overlays[@]}"; do
  "$KUSTOMIZE" build "$o" >"$dir/kustomize/${o//\//_}.yaml" 2>>"$dir/logs/kustomize.log"
done
loop_s=$(secs "$t0" "$(now)")
t0=$(now)
# One kustomize process an overlay, nothing else: xargs runs `kustomize build DIR -o FILE`.
for o in "${overlays[@]}"; do printf '%s -o %s\n' "$o" "$dir/kustomize/par_${o//\//_}.yaml"; done |
  xargs -P"$(nproc)" -L1 "$KUSTOMIZE" build 2>/dev/null
ploop_s=$(secs "$t0" "$(now)")

timed clean "${b1[@]}" build "${flags[@]}" //...
clean_s=$wall clean_server=$server_cpu clean_worker=$worker_cpu
# Every action but Bazel's own internal ones is a render in a worker: a Go compilation or any
# other process would show as processwrapper-sandbox, linux-sandbox or local.
others=$(processes clean | tr ',' '\n' | awk '$2 != "internal" && $2 != "worker" { n += $1 } END { print n + 0 }')
if [[ $others != 0 ]]; then
  echo "FAIL: the clean build ran $others actions other than renders in workers: $(processes clean)" >&2
  exit 1
fi
# What the server and its workers hold once every kustomization is analysed and rendered.
heap_mb=$(bazel "${b1[@]}" info "${flags[@]}" used-heap-size-after-gc 2>/dev/null | sed 's/MB$//')
server=$(bazel "${b1[@]}" info server_pid 2>/dev/null)
pids=$(workers "$server" | paste -sd, -)
worker_mb=0
[[ -z $pids ]] || worker_mb=$(ps -o rss= -p "$pids" | awk '{ s += $1 } END { printf "%d", s / 1024 }')
bin=$(bazel "${b1[@]}" info "${flags[@]}" bazel-bin 2>/dev/null)
for o in "${overlays[@]}"; do
  f=${o//\//_}.yaml
  cmp -s "$dir/kustomize/$f" "$bin/$o/$(basename "$o")_manifests.yaml" || {
    echo "FAIL: bazel-bin/$o differs from kustomize build $o" >&2
    exit 1
  }
  cmp -s "$dir/kustomize/$f" "$dir/kustomize/par_$f" || { echo "FAIL: the parallel loop's $o differs" >&2; exit 1; }
done

# 3. no-op (the second one: `bazel info` above may leave the first to reload packages)
bazel "${b1[@]}" build "${flags[@]}" //... 2>/dev/null
timed noop "${b1[@]}" build "${flags[@]}" //...
noop_s=$wall noop_server=$server_cpu

# 4. one leaf base edited
base=bases/$(ls bases | head -1)
sed -i 's/^  - LOG_LEVEL=info$/  - LOG_LEVEL=warn/' "$base/kustomization.yaml"
timed edit "${b1[@]}" build "${flags[@]}" //...
edit_s=$wall edit_server=$server_cpu edit_worker=$worker_cpu
sed -i 's/^  - LOG_LEVEL=warn$/  - LOG_LEVEL=info/' "$base/kustomization.yaml"
affected=$(bazel "${b1[@]}" query "kind(krm_kustomization_rule, rdeps(//..., //$base))" 2>/dev/null | wc -l)

# 5. a second output base (another clone, another CI worker) on the same disk cache, its
# renderer fetched first as in 2.
bazel "${b2[@]}" build "${prebuild[@]}" //krm_prebuild:prebuild //:gazelle 2>>"$dir/logs/renderer.log" || { tail -20 "$dir/logs/renderer.log" >&2; exit 1; }
timed second "${b2[@]}" build "${flags[@]}" //...
second_s=$wall second_server=$server_cpu
second_renders=$(count second worker)
second_cached=$(count second disk)

# 6. loading and analysis alone: a fresh server on a third output base whose external
# repositories are fetched (as in 2, then the server stopped), `--nobuild`: what a CI machine
# with a kept repository cache pays before its first action.
bazel "${b3[@]}" build "${prebuild[@]}" --nobuild //krm_prebuild:prebuild //:gazelle 2>>"$dir/logs/renderer.log" || { tail -20 "$dir/logs/renderer.log" >&2; exit 1; }
bazel "${b3[@]}" shutdown 2>/dev/null
t0=$(now)
bazel "${b3[@]}" build "${flags[@]}" --nobuild //... 2>"$dir/logs/analysis.log"
analysis_s=$(secs "$t0" "$(now)")
bazel "${b3[@]}" shutdown 2>/dev/null

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }'; }
notes() { echo "$(processes "$1"); first action at $(first_action "$1") s; CPU: Bazel server $2 s, workers $3 s"; }
cat <<EOF

Gazelle + Bazel on a generated monorepo (dev/bench/gen -apps $APPS -monorepo $TEAMS -seed $SEED), renderer $RENDERER:
$kdirs kustomization directories, ${#overlays[@]} deployments (envs/*/*/*); $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)

| step | wall s | notes |
|---|---:|---|
| gazelle (all BUILD files) | $gazelle_s | $builds BUILD files, $(grep -c '^gazelle: ' "$dir/logs/gazelle.log" || true) warnings |
| kustomize build of every deployment, one after the other | $loop_s | ${#overlays[@]} runs |
| the same with xargs -P$(nproc) | $ploop_s | |
| bazel build //..., empty disk cache | **$clean_s** | $(ratio "$loop_s" "$clean_s") the loop, $(ratio "$ploop_s" "$clean_s") the parallel loop; $(configured clean) targets configured; $(notes clean "$clean_server" "$clean_worker"); outputs byte-identical to kustomize |
| (once per machine: external repositories + renderer) | $renderer_s | not in the line above |
| no-op bazel build //... | **$noop_s** | $(notes noop "$noop_server" 0) |
| one leaf base edited ($base) | **$edit_s** | $affected kustomizations depend on it; $(notes edit "$edit_server" "$edit_worker") |
| second output base, shared disk cache | **$second_s** | $second_renders rendered, $second_cached from the cache; $(notes second "$second_server" 0) |
| loading and analysis alone: a fresh server, external repositories fetched (--nobuild) | $analysis_s | $(configured analysis) targets configured |
| Bazel server heap after the clean build (after GC) | $heap_mb MB | persistent workers: $worker_mb MB resident |
EOF
if [[ -n ${TSV:-} ]]; then
  # BENCH_COLUMNS: dirs deployments gazelle loop ploop clean noop edit second heap_mb worker_mb
  #   clean_internal clean_worker second_internal analysis clean_server_cpu clean_worker_cpu
  printf '%s\n' "$kdirs ${#overlays[@]} $gazelle_s $loop_s $ploop_s $clean_s $noop_s $edit_s $second_s $heap_mb $worker_mb $(count clean internal) $(count clean worker) $(count second internal) $analysis_s $clean_server $clean_worker" | tr ' ' '\t' >>"$TSV"
fi
if [[ $second_renders -ne 0 ]]; then
  echo "FAIL: the second output base ran $second_renders renders" >&2
  exit 1
fi
