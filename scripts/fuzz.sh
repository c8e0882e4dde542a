#!/usr/bin/env bash
# Runs each Go native fuzz target of the renderer for FUZZTIME (default 10s;
# CI uses the default, a longer hunt e.g. FUZZTIME=30m scripts/fuzz.sh).
# A crashing input is saved under the package's testdata/fuzz/FuzzX/ and
# then replayed by every `go test` run: commit it with the fix.
set -euo pipefail
export GOTOOLCHAIN=local
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FUZZTIME=${FUZZTIME:-10s}
while read -r pkg target; do
  echo "== fuzz $target ($pkg, $FUZZTIME)"
  go test "./$pkg" -run='^$' -fuzz="^$target\$" -fuzztime="$FUZZTIME"
done <<'TARGETS'
tools/renderer/internal/load FuzzReadKustomization
tools/renderer/internal/build FuzzBuildResources
tools/renderer/internal/snapshot FuzzDecode
tools/renderer/internal/starlarkfn FuzzBridge
tools/renderer/internal/krmfn FuzzFunctionConfig
tools/renderer/internal/execfn FuzzParseResourceList
tools/renderer/internal/yaml11 FuzzKnown
tools/renderer/internal/yaml11 FuzzEntriesFilter
tools/renderer/internal/yaml11 FuzzApplySmPatch
TARGETS
