#!/usr/bin/env bash
# Installs Bazel if needed (scripts/install-bazel.sh) and runs `bazel test //...`.
# Set KRM_DISK_CACHE=DIR to share a disk cache between clones and after `bazel clean`.
# Extra arguments go to `bazel test` (e.g. --test_output=all).
set -euo pipefail

cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

scripts/install-bazel.sh

args=()
if [ -n "${KRM_DISK_CACHE:-}" ]; then
  mkdir -p "$KRM_DISK_CACHE"
  args+=("--disk_cache=$KRM_DISK_CACHE")
fi

bazel test "${args[@]}" "$@" -- //...
