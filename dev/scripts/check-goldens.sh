#!/usr/bin/env bash
# Fails if kustomize v5.8.2 no longer agrees with the checked-in differential-test
# goldens (run in CI so that goldens cannot drift from the oracle).
# kustomize is taken from $KUSTOMIZE, else .bin/kustomize (installed if missing); cases with
# --enable-helm run it with --helm-command set to the pinned helm v3.22.0 from $HELM, else
# .bin/helm (installed with `go install helm.sh/helm/v3/cmd/helm@v3.22.0` if missing).
# Extra arguments are passed to `go test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export GOTOOLCHAIN=local
go test ./tools/renderer/dev/difftest -count=1 -run TestDifferential "$@" -oracle
