#!/usr/bin/env bash
# Scale benchmark of the Gazelle + Bazel workflow on a generated platform monorepo
# (bench/gen -monorepo: leaf bases, components, team layers, environments x regions x teams),
# in one run:
#   1. gazelle: generating every BUILD file (the krm gazelle binary, run natively);
#   2. CI loop of today: `kustomize build` (v5.8.2) of every top-level overlay (envs/*/*/*),
#      one after the other, against a clean `bazel build //...` with an empty disk cache
#      (the renderer is built first, so that only the renders are timed; its build is
#      reported on its own line);
#   3. a no-op `bazel build //...`;
#   4. an edit of one leaf base: render actions re-run and wall time;
#   5. a second output base on the disk cache filled by 2: render actions run (must be 0).
# Not a test: it prints figures (and fails only if the outputs differ from kustomize or
# the second output base runs renders).
#
# Usage: scripts/bench-gazelle.sh   (APPS=120 TEAMS=20 SEED=1: 324 kustomization directories)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"
APPS=${APPS:-120}
TEAMS=${TEAMS:-20}
SEED=${SEED:-1}

KUSTOMIZE=$ROOT/.bin/kustomize
if [[ ! -x $KUSTOMIZE ]] || [[ $("$KUSTOMIZE" version 2>/dev/null) != v5.8.2 ]]; then
  GOBIN=$ROOT/.bin go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2
fi

dir=$(krm_test_dir bench-gazelle)
ws=$dir/ws
dc=$dir/disk-cache
rm -rf "$dc" "$dir/kustomize" "$ws"
mkdir -p "$dc" "$dir/kustomize"
(cd "$ROOT" && go run ./bench/gen -out "$ws" -apps "$APPS" -seed "$SEED" -monorepo "$TEAMS")
consumer_module "$ROOT/e2e/bzlmod" "$ws"
rm -rf "$ws/app"
# Only the generated tree: no golden test of rules_krm's own examples.
sed -i '/^# A kustomization of another module/,$d; /"krm_golden_test")$/d' "$ws/BUILD.bazel"
(cd "$ROOT" && scripts/gazelle-binary.sh "$dir/gazelle")

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
b1=(--output_base="$dir/output-base-1")
b2=(--output_base="$dir/output-base-2")
# Fresh output bases, so that a second run renders everything again (the tools come from the
# shared disk cache).
for b in 1 2; do
  [[ -d $dir/output-base-$b ]] && (cd "$ROOT" && bazel --output_base="$dir/output-base-$b" shutdown) || true
  chmod -R u+w "$dir/output-base-$b" 2>/dev/null || true
  rm -rf "$dir/output-base-$b"
done
# Debian's /etc/bazel/bazelrc turns --sandbox_debug on, which slows every action.
flags=(--disk_cache="$dc" --symlink_prefix=/ --nosandbox_debug)
trap 'cd "$ws" && bazel "${b1[@]}" shutdown >/dev/null 2>&1; bazel "${b2[@]}" shutdown >/dev/null 2>&1 || true' EXIT
cd "$ws"

# 1. gazelle
t0=$(now)
"$dir/gazelle" -repo_root="$ws" 2>"$dir/gazelle.log"
t1=$(now)
gazelle_s=$(secs "$t0" "$t1")
kdirs=$(find . \( -name kustomization.yaml -o -name kustomization.yml -o -name Kustomization \) | wc -l)
builds=$(find . -name BUILD.bazel | wc -l)

# 2. kustomize loop vs clean Bazel build. The renderer (and Bazel's external repositories)
# first, through the disk cache the project's other scripts share: they are built once per
# machine, not per change. The timed builds use the empty disk cache $dc. Render actions run
# the renderers built for the exec configuration (the full one, and the lean one without
# Helm that actions without a chart run), so they are prebuilt as a genrule's tools (the
# package krm_prebuild, outside the rendered tree), not as targets of their own.
mkdir -p krm_prebuild
cat >krm_prebuild/BUILD.bazel <<'BUILD'
genrule(
    name = "renderer",
    outs = ["version.txt"],
    cmd = "$(execpath @rules_krm//tools/renderer:krm) version >$@ && $(execpath @rules_krm//tools/renderer:krm_nohelm) version >>$@",
    tools = [
        "@rules_krm//tools/renderer:krm",
        "@rules_krm//tools/renderer:krm_nohelm",
    ],
)
BUILD
# --remote_download_outputs=all: the tools must be in the output base, not only in the shared
# disk cache (Bazel 7 builds without the bytes), for the timed builds on the empty cache.
prebuild=(--disk_cache="$(krm_disk_cache)" --remote_download_outputs=all --symlink_prefix=/ --nosandbox_debug)
t0=$(now)
# The gazelle binary (//:gazelle, part of //...) is a tool built once per machine as well.
bazel "${b1[@]}" build "${prebuild[@]}" //krm_prebuild:renderer //:gazelle 2>"$dir/renderer.log"
t1=$(now)
renderer_s=$(secs "$t0" "$t1")

overlays=(envs/*/*/*)
t0=$(now)
for o in "${overlays[@]}"; do
  "$KUSTOMIZE" build "$o" >"$dir/kustomize/${o//\//_}.yaml"
done
t1=$(now)
kustomize_s=$(secs "$t0" "$t1")

t0=$(now)
bazel "${b1[@]}" build "${flags[@]}" --execution_log_json_file="$dir/clean.json" //... 2>"$dir/clean.log"
t1=$(now)
clean_s=$(secs "$t0" "$t1")
clean_renders=$(krm_renders "$dir/clean.json" executed | wc -l)
# What else the timed build ran: it must not have compiled the renderer.
clean_compiles=$(grep -c '"mnemonic": "GoCompilePkg"' "$dir/clean.json" || true)
bin=$(bazel "${b1[@]}" info "${flags[@]}" bazel-bin 2>/dev/null)
for o in "${overlays[@]}"; do
  cmp -s "$dir/kustomize/${o//\//_}.yaml" "$bin/$o/$(basename "$o")_manifests.yaml" || {
    echo "FAIL: bazel-bin/$o differs from kustomize build $o" >&2
    exit 1
  }
done

# 3. no-op (the second one: `bazel info` above may leave the first to reload packages)
bazel "${b1[@]}" build "${flags[@]}" //... 2>/dev/null
t0=$(now)
bazel "${b1[@]}" build "${flags[@]}" //... 2>/dev/null
t1=$(now)
noop_s=$(secs "$t0" "$t1")

# 4. one leaf base edited
base=bases/$(ls bases | head -1)
sed -i 's/^  - LOG_LEVEL=info$/  - LOG_LEVEL=warn/' "$base/kustomization.yaml"
t0=$(now)
bazel "${b1[@]}" build "${flags[@]}" --execution_log_json_file="$dir/edit.json" //... 2>/dev/null
t1=$(now)
edit_s=$(secs "$t0" "$t1")
edit_renders=$(krm_renders "$dir/edit.json" executed | wc -l)
sed -i 's/^  - LOG_LEVEL=warn$/  - LOG_LEVEL=info/' "$base/kustomization.yaml"
affected=$(bazel "${b1[@]}" query "kind(krm_kustomization_rule, rdeps(//..., //$base))" 2>/dev/null | wc -l)

# 5. a second output base (another clone, another CI worker) on the same disk cache, its
# renderer built first as in 2.
bazel "${b2[@]}" build "${prebuild[@]}" //krm_prebuild:renderer //:gazelle 2>>"$dir/renderer.log"
t0=$(now)
bazel "${b2[@]}" build "${flags[@]}" --execution_log_json_file="$dir/second.json" //... 2>"$dir/second.log"
t1=$(now)
second_s=$(secs "$t0" "$t1")
second_renders=$(krm_renders "$dir/second.json" executed | wc -l)
second_cached=$(krm_renders "$dir/second.json" cached | wc -l)

cat <<EOF

Gazelle + Bazel on a generated monorepo (bench/gen -apps $APPS -monorepo $TEAMS -seed $SEED):
$kdirs kustomization directories, ${#overlays[@]} top-level overlays; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)

| step | wall s | notes |
|---|---:|---|
| gazelle (all BUILD files) | $gazelle_s | $builds BUILD files, $(grep -c '^gazelle: ' "$dir/gazelle.log" || true) warnings |
| kustomize build of every top-level overlay (CI loop) | $kustomize_s | ${#overlays[@]} runs, one after the other |
| bazel build //..., empty disk cache | $clean_s | $clean_renders render actions, $clean_compiles Go compilations; outputs byte-identical to kustomize |
| (once per machine: Bazel external repositories + krm renderer, shared disk cache) | $renderer_s | not in the line above |
| no-op bazel build //... | $noop_s | |
| one leaf base edited ($base) | $edit_s | $edit_renders render actions re-ran ($affected kustomization targets depend on it) |
| second output base, shared disk cache | $second_s | $second_renders render actions ran, $second_cached from the cache |

kustomize loop / clean bazel build: $(awk -v k="$kustomize_s" -v b="$clean_s" 'BEGIN { printf "%.1fx", k / b }')
EOF
if [[ $second_renders -ne 0 ]]; then
  echo "FAIL: the second output base ran $second_renders renders" >&2
  exit 1
fi
