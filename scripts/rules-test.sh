#!/usr/bin/env bash
# Checks the errors of krm_kustomization that Bazel tests cannot check (a failing build; the
# analysis errors are bazel-skylib analysis tests in rules/tests/analysis):
# the fixtures in rules/tests/hermetic (tagged manual) must fail, naming the target to fix,
# the images fixtures in rules/tests/images (manual) too, //examples/functions:latest
# (manual) must fail with its validator's message, and the krm_validate_test of a misspelt
# field (rules/tests/validate, manual) must fail naming it.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"
cd "$ROOT"

pkg=//rules/tests/hermetic
failures=0
# expect_failure TARGET TEXT... [-- BAZEL FLAGS]: `bazel build TARGET` must fail and print
# every TEXT.
expect_failure() {
  local target=$1
  shift
  local texts=() flags=()
  while [[ $# -gt 0 && $1 != -- ]]; do texts+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift && flags=("$@")
  local out
  if out=$(bazel build --disk_cache="$(krm_disk_cache)" "${flags[@]}" "$target" 2>&1); then
    echo "FAIL: bazel build ${flags[*]} $target succeeded" >&2
    failures=$((failures + 1))
    return
  fi
  # Messages name workspace paths and labels, never a sandbox, the execution root or a
  # temporary directory.
  if grep '^Error:' <<<"$out" | grep -qE '/execroot/|sandbox|/tmp/|'"$ROOT"; then
    echo "$out" >&2
    echo "FAIL: bazel build ${flags[*]} $target: the error names an absolute path" >&2
    failures=$((failures + 1))
    return
  fi
  for t in "${texts[@]}"; do
    if ! grep -qF -- "$t" <<<"$out"; then
      echo "$out" >&2
      echo "FAIL: bazel build ${flags[*]} $target: the error does not say: $t" >&2
      failures=$((failures + 1))
      return
    fi
  done
  echo "ok: bazel build ${flags[*]} $target fails saying: ${texts[*]}"
}

# Undeclared inputs fail the same way with and without a sandbox: the renderer reads only the
# files the action declares (its --input flags), whatever the spawn strategy: in a sandbox,
# as a local process, or in a persistent worker (outside the sandbox; Bazel's default for the
# render actions).
for strategy in sandboxed local worker,sandboxed; do
  flags=(--spawn_strategy=$strategy)
  # A base named in resources but not in deps.
  expect_failure "$pkg:missing_dep" \
    "'../base' (resources of rules/tests/hermetic/missing_dep/kustomization.yaml) is not a declared input: add the krm_kustomization target of rules/tests/hermetic/base to deps of $pkg:missing_dep" \
    -- "${flags[@]}"
  # A file named in resources but not in srcs.
  expect_failure "$pkg:missing_src" \
    "'configmap.yaml' (resources of rules/tests/hermetic/missing_src/kustomization.yaml) is not a declared input: add rules/tests/hermetic/missing_src/configmap.yaml to srcs of $pkg:missing_src" \
    -- "${flags[@]}"
  # A component's patch not in its srcs: the component's own target fails, naming itself,
  # and so does the overlay that uses it (the stale output of an undeclared file cannot be).
  expect_failure "$pkg:component_missing_patch" \
    '"color.yaml" is not a declared input: add rules/tests/hermetic/component_missing_patch/color.yaml to srcs of '"$pkg:component_missing_patch" \
    -- "${flags[@]}"
  # A component named in components but not in deps.
  expect_failure "$pkg:missing_component" \
    "'../component' (components of rules/tests/hermetic/missing_component/kustomization.yaml) is not a declared input: add the krm_kustomization target of rules/tests/hermetic/component to deps of $pkg:missing_component" \
    -- "${flags[@]}"
done
# A base kustomize cannot build alone: its manifests fail, while the target using it builds
# (rules/tests/alone:top_golden_test).
expect_failure //rules/tests/alone:base_manifests \
  "field specified in var '{IP Service.v1.[noGrp] {spec.clusterIP}}' not found in corresponding resource"
# kind = "Component" on a Kustomization.
expect_failure "$pkg:kind_mismatch" \
  "rules/tests/hermetic/kind_mismatch/kustomization.yaml has kind Kustomization, but $pkg:kind_mismatch says kind = \"Component\""
# openapi set in the file, not on the target: reading a base from its snapshot is refused.
expect_failure "$pkg:missing_openapi" \
  "rules/tests/hermetic/missing_openapi/kustomization.yaml sets openapi, whose schema kustomize applies to everything rendered after it: the bases cannot be read from snapshots: set openapi = True on $pkg:missing_openapi (Gazelle does)"
# A Starlark script (path: of a StarlarkRun) not in srcs, and a .star file it loads not in srcs.
expect_failure "$pkg:missing_star" '"set_owner.star" is not a declared input: add rules/tests/hermetic/missing_star/set_owner.star to srcs of '"$pkg:missing_star"
expect_failure "$pkg:missing_star_load" 'cannot load lib/owner.star' \
  '"lib/owner.star" is not a declared input: add rules/tests/hermetic/missing_star_load/lib/owner.star to srcs of '"$pkg:missing_star_load"
# An exec function not declared in functions: it does not run, even with its file in srcs.
expect_failure "$pkg:undeclared_function" 'exec path "./fn/set-owner"' 'is not a declared function' \
  "add it to the functions attribute of $pkg:undeclared_function" 'functions = {"./fn/set-owner": ":my_function"}'
# images: a digest file without a digest (the renderer's error names the image, the file and
# the label).
expect_failure //rules/tests/images:bad_digest 'image app: digest file bazel-out/' \
  '/rules/tests/images/latest.digest (from //rules/tests/images:latest_digest): "latest" is not an image digest'
# A chart inheriting the including kustomization's namespace, read from a snapshot: the
# error names the attribute that makes the parents render it from sources.
expect_failure //rules/tests/helm:team_missing_attribute \
  "base '../shared' inflates a helm chart without a namespace; kustomize gives it the namespace \"team-a\"" \
  'set helm_inherits_namespace = True on the krm_kustomization whose file has that helmCharts entry'
# A chart whose files are not in srcs: the lean renderer (no Helm) ran, and says what to add.
expect_failure //rules/tests/helm:chart_not_in_srcs 'rules/tests/helm/shared/kustomization.yaml' \
  "add the chart's files (its Chart.yaml, or the packaged .tgz) to srcs of the krm_kustomization inflating it"
# A tree that sets openapi renders bad_digest from its sources, with bad_digest's pins.
expect_failure //rules/tests/images:openapi 'image app: digest file bazel-out/' \
  '/rules/tests/images/latest.digest (from //rules/tests/images:latest_digest): "latest" is not an image digest'
# The example validator (a Starlark validator in a component) rejects a :latest image.
expect_failure //examples/functions:latest 'StarlarkRun \"no-latest\"' \
  'images must be pinned to a version (not :latest, not untagged): Deployment shop/debug, container shell: busybox:latest; Deployment shop/debug, container setup: alpine'

# krm_validate_test: a misspelt field (rules/tests/validate, manual) fails the test; the log
# names the object, the field and the line, and test.xml is krm's JUnit report (a test case
# per object), not the one Bazel writes for a test that writes none.
expect_test_failure() {
  local target=$1 log xml
  shift
  if bazel test --disk_cache="$(krm_disk_cache)" "$target" >/dev/null 2>&1; then
    echo "FAIL: bazel test $target passed" >&2
    failures=$((failures + 1))
    return
  fi
  log=$(bazel info bazel-testlogs 2>/dev/null)/$(sed -e 's|^//||' -e 's|:|/|' <<<"$target")
  xml=$log/test.xml
  log=$log/test.log
  for t in "$@"; do
    if ! grep -qF -- "$t" "$log" "$xml"; then
      cat "$log" "$xml" >&2
      echo "FAIL: bazel test $target: its log and test.xml do not say: $t" >&2
      failures=$((failures + 1))
      return
    fi
  done
  echo "ok: bazel test $target fails saying: $*"
}
expect_test_failure //rules/tests/validate:misspelt_validate_test \
  'rules/tests/validate/misspelt_manifests.yaml:7: Deployment/shop/web: spec.replica: unknown field "spec.replica"' \
  '1 objects, 1 invalid' '<testcase name="Deployment/shop/web"' '<failure message="1 errors; first: spec.replica: unknown field'
# With provenance, the error starts with the source line of the field.
expect_test_failure //rules/tests/validate:misspelt_provenance_validate_test \
  'rules/tests/validate/misspelt/deploy.yaml:6: Deployment/shop/web: spec.replica: unknown field "spec.replica" (rendered at rules/tests/validate/misspelt_provenance_manifests.yaml:'
expect_test_failure //rules/tests/validate:custom_strict_validate_test \
  'Widget/shop/blue: no schema for example.com/v1 Widget' 'Gadget/shop/anything: no schema for gadgets.example.com/v1alpha1 Gadget' \
  '2 objects, 2 invalid'

# Generated inputs (rules/tests/generated): the manifests equal what kustomize prints for the
# same tree with the generated files written in place.
gen=rules/tests/generated
bazel build --disk_cache="$(krm_disk_cache)" "//$gen:app_manifests" "//$gen:app_kustomization" \
  "//$gen:build_info" "//$gen:replicas_patch" "//$gen:app_env"
bin=$(bazel info bazel-bin 2>/dev/null)
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/$gen"
cp -R "$gen/." "$tree/$gen/"
for f in app/kustomization.yaml app/build-info.yaml app/replicas-patch.yaml app/app.env; do
  cp "$bin/$gen/$f" "$tree/$gen/$f"
done
KUSTOMIZE=${KUSTOMIZE:-$ROOT/.bin/kustomize}
if [[ ! -x $KUSTOMIZE ]]; then
  GOBIN=$ROOT/.bin go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2
fi
if ! "$KUSTOMIZE" build "$tree/$gen/app" >"$tree/expected.yaml"; then
  echo "FAIL: kustomize build of $gen/app with the generated files in place failed" >&2
  failures=$((failures + 1))
elif ! cmp -s "$tree/expected.yaml" "$bin/$gen/app_manifests.yaml"; then
  diff -u "$tree/expected.yaml" "$bin/$gen/app_manifests.yaml" >&2 || true
  echo "FAIL: //$gen:app differs from kustomize build with the generated files in place" >&2
  failures=$((failures + 1))
else
  echo "ok: //$gen:app (generated kustomization, resource, patch, env file; a file of another package) = kustomize build in place"
fi

# Persistent workers: the render actions may run in one (no sandbox needed: the renderer
# reads only declared inputs), except those running an exec function, a process of its own
# that only the sandbox confines.
# workers_of TARGET: 1 if TARGET's KrmRender action may run in a worker, else 0.
workers_of() {
  if bazel aquery "mnemonic(\"KrmRender\", $1)" 2>/dev/null | grep -q 'supports-workers: 1'; then
    echo 1
  else
    echo 0
  fi
}
for check in "//rules/tests/images:app 1" "//examples/functions:exec 0"; do
  read -r target want <<<"$check"
  got=$(workers_of "$target")
  if [[ $got != "$want" ]]; then
    echo "FAIL: $target: KrmRender may run in a worker: $got, want $want" >&2
    failures=$((failures + 1))
  else
    echo "ok: $target: KrmRender may run in a persistent worker: $([[ $want == 1 ]] && echo yes || echo "no (it runs an exec function)")"
  fi
done

if [[ $failures -ne 0 ]]; then
  echo "rules test: $failures check(s) failed" >&2
  exit 1
fi
echo "rules test passed"
