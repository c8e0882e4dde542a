#!/usr/bin/env bash
# Runs every test of rules_krm: Go unit and differential tests, the check that
# the goldens still equal a fresh kustomize v5.8.2 run, and lint.
# Installs what it needs (kustomize into .bin/, buildifier into .bin/).
set -euo pipefail
export GOTOOLCHAIN=local
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "== go vet"
go vet ./...
echo "== go test"
go test ./...
echo "== goldens equal a fresh kustomize v5.8.2 run"
scripts/check-goldens.sh
if [[ -x scripts/buildifier.sh ]]; then
  echo "== buildifier"
  scripts/buildifier.sh
fi
if [[ -x scripts/bazel-test.sh && -z ${KRM_SKIP_BAZEL:-} ]]; then
  echo "== bazel"
  scripts/bazel-test.sh
fi
echo "== all tests passed"
