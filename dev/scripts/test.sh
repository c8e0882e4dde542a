#!/usr/bin/env bash
# Runs every test of rules_krm: Go unit and differential tests, the tests against a real
# kube-apiserver, the check that the goldens still equal a fresh kustomize v5.8.2 run, lint,
# and the Bazel tests with Bazel 7.7.1 and bzlmod (bazel test //..., also with Bazel 8 and 9
# behaviour; the examples and goldens in WORKSPACE mode; then the Go integration tests of
# dev/testing/integration: rule errors, incrementality, disk cache, the prebuilt renderer, the
# e2e/bzlmod consumer, Gazelle on whole trees, remote cache; skipped with KRM_SKIP_BAZEL=1).
# Installs what it needs (kustomize and buildifier into .bin/, kube-apiserver and etcd built
# from Go modules, Bazel 7.7.1 in a Debian sid chroot, Debian's nginx).
set -euo pipefail
export GOTOOLCHAIN=local
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

echo "== go vet"
go vet ./...
echo "== go test"
go test ./...
# Tests against a real kube-apiserver and etcd on 127.0.0.1 (docs/apiserver.md); the script
# builds both once into a cache (about 10 minutes cold). List packages with such tests here.
echo "== go test -tags apiserver (dev/scripts/install-apiserver.sh)"
dev/scripts/install-apiserver.sh
apiserver_pkgs=(./dev/testing/apiserver/... ./tools/renderer/internal/validate/... ./tools/renderer/internal/cluster/...)
go vet -tags apiserver "${apiserver_pkgs[@]}"
go test -tags apiserver "${apiserver_pkgs[@]}"
# named_tests PATTERN PKG: go test -tags apiserver -run PATTERN PKG, failing when it runs no test
# (a test moved to another package would otherwise pass here unseen).
named_tests() {
  local out
  out=$(go test -tags apiserver -run "$1" "$2" 2>&1) || { echo "$out"; return 1; }
  echo "$out"
  if grep -q 'no tests to run' <<<"$out"; then echo "test.sh: -run $1 ran no test in $2" >&2; return 1; fi
}
named_tests TestClusterCommands ./tools/renderer/internal/cli # krm apply/delete/diff --cluster end to end
named_tests TestTraceLiveObjects ./tools/renderer/internal/cli # krm trace --context: live objects, drift and source lines
named_tests 'TestGenerations|TestApplyWaits|TestWaitForDeploymentController' ./tools/renderer/internal/cli # generation records, trace outputs, apply --wait (kube-controller-manager), krm status
echo "== fuzz: each target briefly (dev/scripts/fuzz.sh)"
dev/scripts/fuzz.sh
echo "== goldens equal a fresh kustomize v5.8.2 run"
dev/scripts/check-goldens.sh
echo "== differential fuzzer: 100 random trees, fixed seeds, one shot and level by level, against kustomize v5.8.2; provenance with and without its fast paths (tools/renderer/dev/fuzzdiff)"
go run ./tools/renderer/dev/fuzzdiff -seed 1 -n 100 -levels -provenance
echo "== example goldens equal a fresh kustomize v5.8.2 run (TestExampleGoldens)"
go vet -tags oracle ./dev/testing/examplegoldens
go test -tags oracle -count=1 -v ./dev/testing/examplegoldens
if [[ -x dev/scripts/buildifier.sh ]]; then
  echo "== buildifier"
  dev/scripts/buildifier.sh
fi
if [[ -x dev/scripts/bazel-test.sh && -z ${KRM_SKIP_BAZEL:-} ]]; then
  # One disk cache for every workspace and output base below (dev/scripts/bazel-lib.sh).
  export KRM_DISK_CACHE=${KRM_DISK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_krm/disk-cache}
  # Bazel 7.7.1 with bzlmod (dev/scripts/install-bazel.sh: on these machines a Debian sid chroot).
  echo "== bazel test //... (Bazel 7.7.1, bzlmod; then --config=strict, Bazel 8 and 9 behaviour)"
  dev/scripts/bazel-test.sh
  # rules_krm's own WORKSPACE (docs/bazel.md). Its Go repositories are named as in deps.bzl,
  # not as go_deps names them, so next to no action is shared with the stages above: a fresh
  # machine fetches and compiles the renderer a second time (docs/performance.md). Hence the
  # examples and goldens only.
  echo "== bazel: WORKSPACE mode (Bazel 7.7.1, --noenable_bzlmod --enable_workspace): build and test //examples/... and the golden tests of rules/tests"
  workspace_mode=(--noenable_bzlmod --enable_workspace)
  dev/scripts/bazel build "${workspace_mode[@]}" --disk_cache="$KRM_DISK_CACHE" //examples/...
  golden_list=$(dev/scripts/bazel query "${workspace_mode[@]}" 'kind("_krm_golden_test rule", //rules/tests/...)')
  [[ -n $golden_list ]] || { echo "test.sh: the query found no golden test in rules/tests" >&2; exit 1; }
  mapfile -t goldens <<<"$golden_list"
  dev/scripts/bazel test "${workspace_mode[@]}" --disk_cache="$KRM_DISK_CACHE" //examples/... "${goldens[@]}"
  # The integration tests in Go (dev/testing/integration, build tag bazel) drive Bazel
  # themselves, one stage each (-v: every check they pass is logged).
  integration=(go test -tags bazel -timeout 60m -count=1 -v ./dev/testing/integration)
  go vet -tags bazel ./dev/testing/...
  if [[ ${KRM_OFFLINE:-1} == 1 ]]; then
    echo "== bazel: the offline chroot sees a checkout deleted and cloned again (TestOfflineChroot)"
    "${integration[@]}" -run '^TestOfflineChroot$'
  fi
  echo "== bazel: rule errors (TestRules*)"
  "${integration[@]}" -run '^TestRules'
  echo "== bazel: incrementality (TestIncrementality)"
  "${integration[@]}" -run '^TestIncrementality$'
  echo "== bazel: disk cache across output bases (TestDiskCache)"
  "${integration[@]}" -run '^TestDiskCache$'
  echo "== bazel: the prebuilt renderer released and fetched; with it e2e/bzlmod (a consumer set up as the README says) and Gazelle on whole trees (TestPrebuilt)"
  "${integration[@]}" -run '^TestPrebuilt$'
  # Debian's nginx has the WebDAV module; the test runs nginx itself, never the package's
  # system service.
  if ! command -v nginx >/dev/null 2>&1; then
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx
  fi
  echo "== bazel: remote cache across checkouts (TestRemoteCache)"
  "${integration[@]}" -run '^TestRemoteCache$'
  # The Bazel of the tests on PATH for the end-to-end tests below (dev/scripts/bazel-lib.sh).
  ROOT=$PWD
  # shellcheck source=dev/scripts/bazel-lib.sh
  source dev/scripts/bazel-lib.sh
  bazel_e2e=(go test -tags bazel -timeout 60m -count=1)
  echo "== bazel: rendered diffs for pull requests end to end, and bazel run @rules_krm//tools/prdiff (docs/pr-diffs.md)"
  "${bazel_e2e[@]}" -run 'TestEndToEnd|TestBzlChange' ./tools/renderer/prdiff/
  echo "== bazel: krm_publish's bazel run script publishes to a bare repository (docs/publish.md)"
  "${bazel_e2e[@]}" -run TestBazelRunPublish ./tools/renderer/internal/publish/
  echo "== bazel: run targets //examples/deploy:prod.apply, .diff, .delete against a real API server (docs/rules.md)"
  "${bazel_e2e[@]}" -tags 'apiserver bazel' ./e2e/deliver
fi
echo "== all tests passed"
