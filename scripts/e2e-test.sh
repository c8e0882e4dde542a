#!/usr/bin/env bash
# Builds and tests e2e/smoke, a workspace that uses rules_krm as a user would
# (local_repository + load("@rules_krm//rules:defs.bzl", ...)): its golden tests, one of
# them on a kustomization of the rules_krm repository itself, the <name>_manifests target,
# and the golden update targets.
# Extra arguments go to `bazel test`.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"
"$ROOT/scripts/install-bazel.sh"

cd "$ROOT/e2e/smoke"
trap 'bazel shutdown >/dev/null 2>&1 || true' EXIT
# No convenience symlinks in the source tree: outputs are found with `bazel info`.
flags=(--disk_cache="$(krm_disk_cache)" --symlink_prefix=/)

bazel test "${flags[@]}" "$@" -- //...

bazel build "${flags[@]}" //app/prod:prod_manifests
bin=$(bazel info "${flags[@]}" bazel-bin 2>/dev/null)
if ! cmp "$bin/app/prod/prod_manifests.yaml" app/prod/prod_manifests.golden.yaml; then
  echo "FAIL: //app/prod:prod_manifests is not the golden" >&2
  exit 1
fi
echo "ok: bazel build //app/prod:prod_manifests"

# The golden is up to date: the update target leaves it as it is.
out=$(bazel run "${flags[@]}" //app/prod:prod_golden_test.update 2>&1)
if ! grep -q "app/prod/prod_manifests.golden.yaml is up to date" <<<"$out"; then
  echo "$out" >&2
  echo "FAIL: bazel run //app/prod:prod_golden_test.update" >&2
  exit 1
fi
echo "ok: bazel run //app/prod:prod_golden_test.update (up to date)"

# A golden of another repository cannot be updated.
if out=$(bazel run "${flags[@]}" //:rules_krm_prod_golden_test.update 2>&1) ||
  ! grep -q "not a source file of the main repository" <<<"$out"; then
  echo "$out" >&2
  echo "FAIL: updating a golden of another repository should fail" >&2
  exit 1
fi
echo "ok: bazel run //:rules_krm_prod_golden_test.update refuses a golden of another repository"
echo "e2e test passed"
