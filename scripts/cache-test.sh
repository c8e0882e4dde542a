#!/usr/bin/env bash
# Checks that render actions are shared through a disk cache: two separate output bases
# build //examples/... with the same --disk_cache; the first runs every KrmRender action,
# the second runs none (all of them are cache hits) and gets the same manifests.
# Runs in a copy of the repository whose kustomization files get a comment that is new on
# every run, so that the first build cannot find its render actions in the cache. The
# output bases are kept between runs under $KRM_TEST_DIR (default /tmp/rules_krm-tests).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"

dir=$(krm_test_dir cache)
ws=$dir/ws
copy_repo "$ws"
nonce=$(date +%s%N)
while IFS= read -r -d '' k; do
  printf '# cache-test run %s\n' "$nonce" >>"$k"
done < <(find "$ws/examples" -name kustomization.yaml -print0)
disk_cache=$(krm_disk_cache)

bazel_in() {
  local output_base=$1
  shift
  (cd "$ws" && bazel --output_base="$output_base" --max_idle_secs=600 "$@")
}
trap 'for b in a b; do bazel_in "$dir/output_base_$b" shutdown >/dev/null 2>&1 || true; done' EXIT

# The targets to expect rendering (snapshot or manifests actions): every krm_kustomization
# that `bazel build //examples/...` builds or needs (those tagged manual only when another
# target depends on them).
kustomizations=$(bazel_in "$dir/output_base_a" query \
  'kind(krm_kustomization_rule, deps(//examples/... except attr(tags, "manual", //examples/...)))' \
  2>/dev/null | grep -c .)
failures=0
for b in a b; do
  log=$dir/exec_$b.json
  rm -f "$log"
  # --remote_download_outputs=all: Bazel 7 leaves cache hits that are not top-level outputs
  # (the snapshots) in the cache; the comparison below reads them.
  if ! bazel_in "$dir/output_base_$b" build --disk_cache="$disk_cache" --remote_download_outputs=all --execution_log_json_file="$log" \
    //examples/... >"$dir/build_$b.log" 2>&1; then
    cat "$dir/build_$b.log" >&2
    echo "FAIL: build in output base $b failed" >&2
    exit 1
  fi
  executed=$(krm_renders "$log" executed | grep -c . || true)
  cached=$(krm_renders "$log" cached | grep -c . || true)
  echo "output base $b: targets rendered $executed, from the cache $cached ($kustomizations kustomizations)"
  if [[ $b == a ]]; then want_executed=$kustomizations want_cached=0; else want_executed=0 want_cached=$kustomizations; fi
  if [[ $executed -ne $want_executed || $cached -ne $want_cached ]]; then
    echo "FAIL: output base $b: want $want_executed executed and $want_cached cache hits" >&2
    failures=$((failures + 1))
  fi
done

bin_a=$(bazel_in "$dir/output_base_a" info bazel-bin 2>/dev/null)
bin_b=$(bazel_in "$dir/output_base_b" info bazel-bin 2>/dev/null)
n=0
while IFS= read -r -d '' f; do
  rel=${f#"$bin_a"/}
  n=$((n + 1))
  if ! cmp -s "$f" "$bin_b/$rel"; then
    echo "FAIL: $rel differs between the output bases" >&2
    failures=$((failures + 1))
  fi
done < <(find "$bin_a/examples" -name '*.runfiles' -prune -o \( -name '*_manifests.yaml' -o -name '*.krmsnap' \) -print0)
echo "compared $n manifests and snapshots between the output bases"
if [[ $n -eq 0 ]]; then
  echo "FAIL: no outputs to compare" >&2
  failures=$((failures + 1))
fi

if [[ $failures -ne 0 ]]; then
  echo "cache test: $failures check(s) failed (logs in $dir)" >&2
  exit 1
fi
echo "cache test passed"
