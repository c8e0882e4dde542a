#!/usr/bin/env bash
# `bazel test //...` of rules_krm with Bazel 7.7.1 and bzlmod (dev/scripts/install-bazel.sh), twice:
# as it is, and with --config=strict (the Bazel 8 and 9 behaviour of .bazelrc). Set
# KRM_DISK_CACHE=DIR to share a disk cache between clones and after `bazel clean`.
# Extra arguments go to `bazel test` (e.g. --test_output=all).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=dev/scripts/bazel-lib.sh
source "$ROOT/dev/scripts/bazel-lib.sh"
cd "$ROOT"

args=(--disk_cache="$(krm_disk_cache)")
echo "-- bazel mod graph (the module graph resolves)"
bazel mod graph >/dev/null
echo "-- bazel test //..."
bazel test "${args[@]}" "$@" -- //...
echo "-- bazel test --config=strict //... (Bazel 8 and 9 behaviour)"
bazel test "${args[@]}" --config=strict "$@" -- //...
