#!/usr/bin/env bash
# Scale benchmark of the pull-request flow (tools/prdiff, docs/pr-diffs.md) on the generated
# platform monorepo of dev/scripts/bench-gazelle.sh (dev/bench/gen -monorepo: 324 kustomization
# directories), in one run:
#   1. main's CI: `bazel build //...` of the base revision with a disk cache (the base is in it);
#   2. a pull request that edits one leaf base (a configMapGenerator literal);
#   3. prdiff --base main, four times: a CI job (the Bazel servers stopped, the base worktree's
#      output base new), a second run with --no-cache (servers stopped, the base worktree's output
#      base kept, as prdiff keeps it between runs), a rerun (the head's server running, the
#      base's manifests kept by the first run: a fixup pushed, a job retried, a developer), and a
#      CI job given the base's renders (servers stopped, --base-manifests DIR: what main's CI
#      wrote with --write-base-manifests after its build; one Bazel server, the head's);
#   4. the loop teams run today: `kustomize build` (v5.8.2) of every deployment (envs/*/*/*) at
#      both revisions, then `diff -u` of each pair;
#   5. sizes: prdiff's text, Markdown and JSON against the loop's diff, and the objects each names
#      against those whose bytes differ (documents of the kustomize outputs that are not in the
#      other side's output).
# The monorepo is a consumer of rules_krm as the README sets one up (e2e/bzlmod). With
# RENDERER=prebuilt (the default) it uses the prebuilt renderer of a release, made and fetched as
# TestPrebuilt does: this checkout released by dev/scripts/release.sh in a copy, the archive served on
# loopback (dev/testing/releaseserver), Bazel's downloader pointed at it; no Go action. With
# RENDERER=source it builds the renderer from source (e2e/from-source.MODULE.bazel).
# Not a test: it prints figures (and fails if prdiff fails, its affected set differs from bazel
# query's rdeps of the edited base, or a prebuilt consumer's flow has a Go action).
#
# Usage: dev/scripts/bench-prdiff.sh   (APPS=120 TEAMS=20 SEED=1: 324 kustomization directories;
#        RENDERER=prebuilt|source; TSV=FILE appends one line of figures to FILE for
#        dev/scripts/bench-scale.sh: PRDIFF_COLUMNS below)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
export GOTOOLCHAIN=local
# shellcheck source=dev/scripts/bazel-lib.sh
source "$ROOT/dev/scripts/bazel-lib.sh"
KUSTOMIZE_VERSION=v5.8.2
log() { echo "bench-prdiff: $*" >&2; }
# The columns of a TSV line: directories, deployments, affected kustomizations, main's CI build
# and its --write-base-manifests, the four prdiff runs and the loop, in wall seconds.
PRDIFF_COLUMNS="dirs deployments affected main write_base ci_job no_cache rerun given_base loop"
RENDERER=${RENDERER:-prebuilt}
[[ $RENDERER == prebuilt || $RENDERER == source ]] || { echo "bench-prdiff: RENDERER=$RENDERER: want prebuilt or source" >&2; exit 2; }
# shellcheck source=dev/scripts/bench-tools.sh
source "$ROOT/dev/scripts/bench-tools.sh" # KUSTOMIZE

dir=$(krm_test_dir bench-prdiff)
ws=$dir/repo
dc=$(krm_disk_cache)
export TMPDIR=$dir/tmp # where prdiff puts its base worktree
[[ -d $ws ]] && (cd "$ws" && bazel shutdown >/dev/null 2>&1) || true
rm -rf "$ws" "$dir/loop" "$dir/out" "$dir/base-manifests" "$TMPDIR"
mkdir -p "$dir/loop" "$dir/out" "$TMPDIR"
server=
cleanup() {
  if [[ -f $ws/MODULE.bazel ]]; then (cd "$ws" && bazel shutdown >/dev/null 2>&1) || true; fi
  if [[ -n $server ]]; then kill "$server" 2>/dev/null || true; fi
}
trap cleanup EXIT
go run ./dev/bench/gen -out "$ws" -apps "${APPS:=120}" -seed "${SEED:=1}" -monorepo "${TEAMS:=20}"
if [[ $RENDERER == prebuilt ]]; then
  # A release of this checkout, served as github.com's release downloads; the workspace's .bazelrc
  # (committed: both revisions have it) points Bazel's downloader at it.
  log "releasing this checkout (dev/scripts/release.sh)"
  krm_prebuilt_consumer "$dir" "$ws"
  server=$KRM_RELEASE_SERVER
  archive=$KRM_RELEASE_ARCHIVE
else
  consumer_module "$ROOT/e2e/bzlmod" "$ws"
fi
rm -rf "$ws/app"
sed -i '/^# A kustomization of another module/,$d; /"krm_golden_test")$/d' "$ws/BUILD.bazel"
dev/scripts/gazelle-binary.sh "$dir/gazelle"
go build -o "$dir/prdiff" ./tools/renderer/prdiff

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# Debian's /etc/bazel/bazelrc turns --sandbox_debug on, which slows every action.
flags=(--disk_cache="$dc" --symlink_prefix=/ --nosandbox_debug)
cd "$ws"
"$dir/gazelle" -repo_root="$ws" 2>"$dir/gazelle.log"
git init -q -b main .
git add -A . && git -c user.name=bench -c user.email=bench@example.com commit -qm base

# 1. main's CI: the base revision's renders go into the disk cache (and, built from source, the
# renderers, so that the base worktree's new output base takes them from there too).
t0=$(now)
bazel build "${flags[@]}" --remote_download_outputs=all //... 2>"$dir/main.log"
main_s=$(secs "$t0" "$(now)")
# ... and keeps the renders of main for the pull requests (the head's build is in the cache).
t0=$(now)
"$dir/prdiff" --write-base-manifests "$dir/base-manifests" --workspace "$ws" --disk-cache "$dc" \
  --bazel-flag=--symlink_prefix=/ --bazel-flag=--nosandbox_debug 2>"$dir/write-base.log"
write_s=$(secs "$t0" "$(now)")
if [[ $RENDERER == prebuilt ]]; then
  grep -qx "$archive" "$dir/served.log" || { echo "FAIL: Bazel did not download $archive from the release server" >&2; exit 1; }
fi
# Output bases are OUTPUT_USER_ROOT/md5(workspace): where each side's profile of its last command is.
output_root=$(dirname "$(bazel info "${flags[@]}" output_base 2>/dev/null)")

# 2. the pull request: one leaf base's literal.
base=bases/$(ls bases | head -1)
git checkout -q -b pr
sed -i 's/^  - LOG_LEVEL=info$/  - LOG_LEVEL=warn/' "$base/kustomization.yaml"
git -c user.name=bench -c user.email=bench@example.com commit -qam "$base: LOG_LEVEL=warn"
want=$(bazel query "kind(krm_kustomization_rule, rdeps(//..., //$base:kustomization.yaml))" 2>/dev/null)

# 3. the flow. The base worktree's output base is new for the first run: expunge what an
# earlier run of this script left at prdiff's fixed worktree path.
# prdiff keeps its state (the base's worktree) in the user's cache directory: the benchmark's own.
state=$dir/cache
mkdir -p "$state"
wt=$state/krm-prdiff/$(printf %s "$ws" | sha256sum | cut -c1-12)/base # prdiff.WorktreePath
if [[ -d $(dirname "$wt") ]]; then
  git worktree add -q --detach --force "$wt" main
  (cd "$wt" && bazel clean --expunge >/dev/null 2>&1 || true)
  git worktree remove --force --force "$wt"
fi
prdiff() { XDG_CACHE_HOME=$state "$dir/prdiff" --base main --workspace "$ws" --disk-cache "$dc" \
  --bazel-flag=--symlink_prefix=/ --bazel-flag=--nosandbox_debug "$@"; }
run() { # NAME FORMAT [FLAG...]: one timed run, its output in $dir/out/NAME.FORMAT
  local t0 code=0 name=$1 format=$2
  shift 2
  t0=$(now)
  prdiff --format "$format" --color never "$@" >"$dir/out/$name.$format" 2>"$dir/out/$name.log" || code=$?
  [[ $code -le 1 ]] || { cat "$dir/out/$name.log" >&2; echo "FAIL: prdiff exit $code" >&2; exit 1; }
  secs "$t0" "$(now)"
}
# profiles NAME: each side's Bazel profile of the run NAME's last command (the build), kept.
profiles() {
  local side path
  for side in head base; do
    path=$ws
    [[ $side == head ]] || path=$wt
    cp "$output_root/$(printf %s "$path" | md5sum | cut -c1-32)/command.profile.gz" "$dir/out/$1-$side.profile.gz" 2>/dev/null || true
  done
}
# phases PROFILE: the build's phases and their seconds, from the profile's phase markers.
phases() {
  [[ -f $1 ]] || { echo "no profile"; return; }
  gzip -dc "$1" | jq -r '[.traceEvents[] | select(.ts != null)] as $e | ($e | map(.ts + (.dur // 0)) | max) as $last
    | ([$e[] | select(.cat == "build phase marker")] | sort_by(.ts)) as $m
    | [range(0; $m | length) as $i | "\($m[$i].name | ascii_downcase) \(((if $i + 1 < ($m | length) then $m[$i + 1].ts else $last end) - $m[$i].ts) / 1e5 | round / 10)"]
    | join(", ")'
}
bazel shutdown 2>/dev/null
first_s=$(run first text)
profiles first
bazel shutdown 2>/dev/null
second_s=$(run second markdown --no-cache)
bazel info "${flags[@]}" >/dev/null 2>&1 # the head's server up
warm_s=$(run warm json)
grep -q "from an earlier run" "$dir/out/warm.log" || { echo "FAIL: the rerun rendered the base again" >&2; exit 1; }
bazel shutdown 2>/dev/null
given_s=$(run given markdown --base-manifests "$dir/base-manifests")
grep -q "the base's manifests from base manifests in" "$dir/out/given.log" || { cat "$dir/out/given.log" >&2; echo "FAIL: prdiff built the base although its renders were given" >&2; exit 1; }
cmp -s "$dir/out/second.markdown" "$dir/out/given.markdown" || { echo "FAIL: the diff from the given base differs from the built base's" >&2; exit 1; }
got=$(prdiff --affected-only 2>/dev/null)
[[ $got == "$want" ]] || { echo "FAIL: prdiff's affected set differs from bazel query rdeps" >&2; diff <(echo "$want") <(echo "$got") >&2; exit 1; }
affected=$(echo "$got" | wc -l)
# The Go actions the affected kustomizations need (the renderer's compilation from source).
mapfile -t targets <<<"$got"
go_actions=$(bazel aquery "${flags[@]}" --output=text "mnemonic('Go.*', deps(set(${targets[*]})))" 2>/dev/null | grep -c '^action ' || true)
if [[ $RENDERER == prebuilt && $go_actions != 0 ]]; then
  echo "FAIL: the affected kustomizations of a prebuilt consumer need $go_actions Go actions" >&2
  exit 1
fi
# Where each run's time went: its Bazel commands and the checkout, from its log.
steps() {
  awk '/^prdiff: \(in / && $5 == "took" { side = ($3 ~ /\/krm-prdiff\/[0-9a-f]+\/base/ ? "base" : "head"); printf "%s%s %s %.1f", sep, side, $4, $6; sep = ", " }
    /^prdiff: the base checked out/{ sub(/.*\(/, ""); sub(/ s\)/, ""); printf "%scheckout %.1f", sep, $0; sep = ", " }
    /from an earlier run/{ printf "%sbase from the first run", sep; sep = ", " }
    /the base.s manifests from base manifests in/{ printf "%sbase given", sep; sep = ", " }' "$dir/out/$1.log"
}

# 4. the loop of today, both revisions in their own checkout.
git worktree add -q --detach "$dir/loop/base" main
git worktree add -q --detach "$dir/loop/head" pr
overlays=(envs/*/*/*)
t0=$(now)
for side in base head; do
  mkdir -p "$dir/loop/$side.out"
  for o in "${overlays[@]}"; do
    "$KUSTOMIZE" build "$dir/loop/$side/$o" >"$dir/loop/$side.out/${o//\//_}.yaml"
  done
done
build_s=$(secs "$t0" "$(now)")
t0=$(now)
: >"$dir/loop/diff.txt"
for o in "${overlays[@]}"; do
  diff -u "$dir/loop/base.out/${o//\//_}.yaml" "$dir/loop/head.out/${o//\//_}.yaml" >>"$dir/loop/diff.txt" || true
done
diff_s=$(secs "$t0" "$(now)")
loop_s=$(awk -v a="$build_s" -v b="$diff_s" 'BEGIN { printf "%.2f", a + b }')
git worktree remove --force "$dir/loop/base"
git worktree remove --force "$dir/loop/head"

# 5. objects whose bytes differ: documents of the head's output that the base's lacks.
changed_docs=$(for o in "${overlays[@]}"; do
  f=${o//\//_}.yaml
  awk 'function end() { if (doc != "") { if (from == ARGV[1]) seen[doc] = 1; else if (!(doc in seen)) n++ } doc = "" }
    FNR == 1 { end() } /^---$/ { end(); next } { if (doc == "") from = FILENAME; doc = doc $0 "\n" } END { end(); print n + 0 }' \
    "$dir/loop/base.out/$f" "$dir/loop/head.out/$f"
done | awk '{ s += $1 } END { print s }')
files_changed=$(grep -c '^+++ ' "$dir/loop/diff.txt" || true)
objects=$(jq '.diff.changed + .diff.added + .diff.removed' "$dir/out/warm.json")
renamed=$(jq '[.diff.files[].objects[] | select(.oldName)] | length' "$dir/out/warm.json")
refs=$(jq '[.diff.files[].objects[].references // [] | length] | add' "$dir/out/warm.json")
size() { wc -c <"$1" | tr -d ' '; }

cat <<EOF

The pull-request flow on a generated monorepo (dev/bench/gen -apps $APPS -monorepo $TEAMS -seed $SEED),
the renderer $RENDERER ($go_actions Go actions in the affected kustomizations' dependencies):
$(find . -name kustomization.yaml | wc -l) kustomization directories, ${#overlays[@]} deployments; one leaf base edited ($base);
$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)

| step | wall s | notes |
|---|---:|---|
| main's CI: bazel build //... (fills the disk cache) | $main_s | not part of the flow |
| prdiff, CI job: Bazel servers stopped, new base output base | **$first_s** | $affected affected kustomizations (= bazel query rdeps); $(steps first) |
| prdiff --no-cache: servers stopped, base output base kept | **$second_s** | $(steps second) |
| prdiff rerun: the head's server running, the base's manifests kept | **$warm_s** | $(steps warm) |
| prdiff, CI job given main's renders (--base-manifests): one Bazel server | **$given_s** | $(steps given); main's CI wrote them in $write_s s |
| CI job's base build, Bazel profile (s) | | $(phases "$dir/out/first-base.profile.gz") |
| CI job's head build, Bazel profile (s) | | $(phases "$dir/out/first-head.profile.gz") |
| the loop: kustomize build of every deployment at both revisions | $build_s | $((2 * ${#overlays[@]})) runs |
| the loop: diff -u of each pair | $diff_s | |
| the loop in all | **$loop_s** | loop / prdiff: $(awk -v l="$loop_s" -v a="$first_s" -v b="$second_s" -v c="$warm_s" -v d="$given_s" 'BEGIN { printf "%.1fx (CI job), %.1fx (--no-cache), %.1fx (rerun), %.1fx (given the base)", l / a, l / b, l / c, l / d }') |

| output | bytes | objects named |
|---|---:|---:|
| diff -u of every deployment | $(size "$dir/loop/diff.txt") | $changed_docs documents differ, in $files_changed of ${#overlays[@]} outputs |
| prdiff text | $(size "$dir/out/first.text") | $objects objects ($renamed generator renames paired, $refs references folded under them) |
| prdiff Markdown | $(size "$dir/out/second.markdown") | |
| prdiff JSON | $(size "$dir/out/warm.json") | |
EOF
if [[ -n ${TSV:-} ]]; then
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(find . -name kustomization.yaml | wc -l)" "${#overlays[@]}" "$affected" \
    "$main_s" "$write_s" "$first_s" "$second_s" "$warm_s" "$given_s" "$loop_s" >>"$TSV"
fi
