#!/usr/bin/env bash
# The pull-request flow end to end (tools/prdiff, docs/pr-diffs.md): the Go test
# tools/renderer/prdiff/e2e_test.go (build tag bazel_e2e) makes a git repository of the
# e2e/bzlmod consumer with a base and a head commit, runs the flow with Bazel and compares
# the affected set with bazel query and the output with goldens (-update rewrites them:
# scripts/prdiff-test.sh -update); TestBzlChange checks that a .bzl change affects only the
# packages that load it, and that a rerun takes the base's manifests from the first. Then `bazel run @rules_krm//tools/prdiff` in that
# repository. Extra arguments go to go test.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"
export KRM_DISK_CACHE=$(krm_disk_cache)
export KRM_TEST_DIR=${KRM_TEST_DIR:-${TMPDIR:-/tmp}/rules_krm-tests}

cd "$ROOT"
go test -tags bazel_e2e -count=1 -timeout 60m -run 'TestEndToEnd|TestBzlChange' ./tools/renderer/prdiff/ -args "$@"

# The Bazel target, from the consumer the test left: its affected set. `bazel run` would start
# it inside the offline Bazel's chroot, where `bazel` is not this wrapper: have Bazel write the
# script `bazel run` runs (same binary, runfiles and BUILD_WORKSPACE_DIRECTORY) and run it here.
ws=$KRM_TEST_DIR/prdiff/repo/deploy
cd "$ws"
trap 'bazel shutdown >/dev/null 2>&1 || true' EXIT
bazel run --disk_cache="$KRM_DISK_CACHE" --script_path="$ws.run.sh" @rules_krm//tools/prdiff 2>"$ws.log" || {
  cat "$ws.log" >&2
  echo "FAIL: bazel run @rules_krm//tools/prdiff" >&2
  exit 1
}
got=$(cd / && "$ws.run.sh" --base main --affected-only 2>"$ws.log") || {
  cat "$ws.log" >&2
  echo "FAIL: bazel run @rules_krm//tools/prdiff -- --base main --affected-only" >&2
  exit 1
}
want='//app/base:base
//app/components/probe:probe
//app/dev:dev
//app/prod:prod
//app/staging:staging'
if [[ $got != "$want" ]]; then
  printf 'got:\n%s\nwant:\n%s\n' "$got" "$want" >&2
  echo "FAIL: bazel run @rules_krm//tools/prdiff -- --base main --affected-only" >&2
  exit 1
fi
echo "ok: bazel run @rules_krm//tools/prdiff -- --base main --affected-only"
echo "prdiff test passed"
