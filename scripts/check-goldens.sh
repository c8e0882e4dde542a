#!/usr/bin/env bash
# Fails if kustomize v5.8.2 no longer agrees with the checked-in differential-test
# goldens (run in CI so that goldens cannot drift from the oracle).
# kustomize is taken from $KUSTOMIZE, else .bin/kustomize (installed if missing).
# Extra arguments are passed to `go test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export GOTOOLCHAIN=local
go test ./tools/renderer/difftest -count=1 -run TestDifferential "$@" -oracle
