#!/usr/bin/env bash
# Runs each Go native fuzz target of the renderer for FUZZTIME (default 10s;
# CI uses the default, a longer hunt e.g. FUZZTIME=30m dev/scripts/fuzz.sh).
# A crashing input is saved under the package's testdata/fuzz/FuzzX/ and
# then replayed by every `go test` run: commit it with the fix.
set -euo pipefail
export GOTOOLCHAIN=local
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
FUZZTIME=${FUZZTIME:-10s}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# fuzz PKG TARGET: one run. Go's fuzzer can fail a run with only "context deadline exceeded"
# when -fuzztime ends while a worker is busy (minimizing, or between inputs); that names no
# input and writes none. Such a run is repeated once; any other failure (a crashing input,
# saved under testdata/fuzz/) fails at once.
fuzz() {
  local status=0
  go test "./$1" -run='^$' -fuzz="^$2\$" -fuzztime="$FUZZTIME" 2>&1 | tee "$out" || status=$?
  if [[ $status -ne 0 ]] && grep -q 'context deadline exceeded' "$out" && ! grep -q 'Failing input written to' "$out"; then
    echo "== fuzz $2: the run ended on Go's fuzzer deadline without a failing input; once more"
    go test "./$1" -run='^$' -fuzz="^$2\$" -fuzztime="$FUZZTIME"
    return
  fi
  return "$status"
}
# Every Fuzz target of the repository, found in the test files (sorted: a fixed order).
grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' tools gazelle | sort |
  while IFS=: read -r file decl; do
    target=${decl#func }
    pkg=$(dirname "$file")
    echo "== fuzz $target ($pkg, $FUZZTIME)"
    fuzz "$pkg" "$target" </dev/null
  done
