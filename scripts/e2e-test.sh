#!/usr/bin/env bash
# Builds and tests e2e/bzlmod, a module that uses rules_krm as the README tells users
# (bazel_dep + Gazelle's usual lines), in a scratch copy (scripts/bazel-lib.sh consumer_module):
# its BUILD files are what `bazel run //:gazelle` writes (-mode=diff), its golden tests pass
# (one on a kustomization of rules_krm itself), <name>_manifests is the golden, and the
# golden update targets work.
# Extra arguments go to `bazel test`. scripts/prebuilt-test.sh runs it on a released copy of
# rules_krm with the prebuilt renderer: KRM_E2E_RULES_KRM (the copy; default this checkout,
# whose version has no release: the renderer is then built from source), KRM_E2E_RENDERER
# (prebuilt or source) and KRM_E2E_FLAGS (Bazel flags: the downloader config).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"

ws=$(krm_test_dir e2e-bzlmod)/ws
rm -rf "$ws"
consumer_module "$ROOT/e2e/bzlmod" "$ws" "${KRM_E2E_RULES_KRM:-$ROOT}" "${KRM_E2E_RENDERER:-source}"
cd "$ws"
trap 'bazel shutdown >/dev/null 2>&1 || true' EXIT
read -r -a extra <<<"${KRM_E2E_FLAGS:-}"
flags=(--disk_cache="$(krm_disk_cache)" "${extra[@]}")

if ! bazel run "${flags[@]}" //:gazelle -- -mode=diff >"$ws.gazelle.diff" 2>&1; then
  cat "$ws.gazelle.diff" >&2
  echo "FAIL: e2e/bzlmod's BUILD files are not what bazel run //:gazelle writes" >&2
  exit 1
fi
echo "ok: bazel run //:gazelle -- -mode=diff (Gazelle under bzlmod: nothing to change)"

bazel test "${flags[@]}" "$@" -- //...

bazel build "${flags[@]}" //app/prod:prod_manifests
if ! cmp bazel-bin/app/prod/prod_manifests.yaml app/prod/prod_manifests.golden.yaml; then
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

# A golden of another module cannot be updated.
if out=$(bazel run "${flags[@]}" //:rules_krm_prod_golden_test.update 2>&1) ||
  ! grep -q "not a source file of the main repository" <<<"$out"; then
  echo "$out" >&2
  echo "FAIL: updating a golden of another module should fail" >&2
  exit 1
fi
echo "ok: bazel run //:rules_krm_prod_golden_test.update refuses a golden of another module"
echo "e2e test passed"
