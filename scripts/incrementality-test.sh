#!/usr/bin/env bash
# Checks that krm_kustomization builds are incremental, from Bazel's own execution log:
# on a tree base <- mid <- top (each includes the one before) plus an unrelated `other`,
#   1. editing a file of top re-runs exactly one KrmRender action, top's;
#   2. editing a file of base re-runs base, mid and top, and not other;
#   3. reformatting a base file (same content) re-runs base only: its snapshot is unchanged,
#      so Bazel does not re-run the kustomizations that include it.
# Runs in a copy of the repository (the source tree is never edited) with its own output
# base, kept between runs under $KRM_TEST_DIR (default /tmp/rules_krm-tests). Every run
# writes new values, so no cache can hold its actions.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"
"$ROOT/scripts/install-bazel.sh"

dir=$(krm_test_dir incrementality)
ws=$dir/ws
pkg=$ws/krm_incrementality
copy_repo "$ws"
nonce=$(date +%s%N)

bazel_() {
  (cd "$ws" && bazel --output_base="$dir/output_base" --max_idle_secs=600 "$@")
}
trap 'bazel_ shutdown >/dev/null 2>&1 || true' EXIT

mkdir -p "$pkg"/{base,mid,top,other}
cat >"$pkg/BUILD.bazel" <<'EOF'
load("//rules:defs.bzl", "krm_kustomization")

krm_kustomization(
    name = "base",
    srcs = glob(["base/*.yaml"]),
    dir = "base",
)

krm_kustomization(
    name = "mid",
    srcs = glob(["mid/*.yaml"]),
    dir = "mid",
    deps = [":base"],
)

krm_kustomization(
    name = "top",
    srcs = glob(["top/*.yaml"]),
    dir = "top",
    deps = [":mid"],
)

krm_kustomization(
    name = "other",
    srcs = glob(["other/*.yaml"]),
    dir = "other",
)
EOF
printf 'resources:\n- configmap.yaml\n' >"$pkg/base/kustomization.yaml"
# configmap VALUE [INDENT]: a ConfigMap whose data.value is VALUE.
configmap() {
  local i=${2:-  }
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n%sname: settings\ndata:\n%svalue: "%s"\n' "$i" "$i" "$1"
}
configmap "base-$nonce" >"$pkg/base/configmap.yaml"
printf 'namePrefix: mid-\nresources:\n- ../base\ncommonAnnotations:\n  run: "%s"\n' "$nonce" >"$pkg/mid/kustomization.yaml"
printf 'namespace: top\nresources:\n- ../mid\npatches:\n- path: patch.yaml\n' >"$pkg/top/kustomization.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mid-settings\ndata:\n  top: "%s"\n' "top-$nonce" >"$pkg/top/patch.yaml"
printf 'resources:\n- configmap.yaml\n' >"$pkg/other/kustomization.yaml"
configmap "other-$nonce" >"$pkg/other/configmap.yaml"

failures=0
step=0
# build_and_expect DESCRIPTION SNAPSHOT...: builds the package and checks that exactly the
# KrmRender actions writing these snapshots ran (and no render came from a cache).
build_and_expect() {
  local what=$1
  shift
  step=$((step + 1))
  local log=$dir/exec$step.json
  rm -f "$log"
  if ! bazel_ build --disk_cache="$(krm_disk_cache)" --execution_log_json_file="$log" \
    //krm_incrementality:all >"$dir/build$step.log" 2>&1; then
    cat "$dir/build$step.log" >&2
    echo "FAIL: $what: build failed" >&2
    exit 1
  fi
  local want got cached
  want=$(for s in "$@"; do echo "bazel-out/k8-fastbuild/bin/krm_incrementality/$s.krmsnap"; done | sort)
  got=$(krm_renders "$log" executed)
  cached=$(krm_renders "$log" cached)
  if [[ $got == "$want" && -z $cached ]]; then
    echo "ok: $what: ran KrmRender for $(echo "$@")"
  else
    echo "FAIL: $what: KrmRender actions run:" >&2
    echo "${got:-  (none)}" | sed 's/^/  /' >&2
    echo "  want:" >&2
    echo "$want" | sed 's/^/  /' >&2
    [[ -z $cached ]] || { echo "  and from a cache (a test bug: values should be new):" >&2; echo "$cached" | sed 's/^/  /' >&2; }
    failures=$((failures + 1))
  fi
}

build_and_expect "first build" base mid top other

printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mid-settings\ndata:\n  top: "%s"\n' "top-edited-$nonce" >"$pkg/top/patch.yaml"
build_and_expect "edit of a top overlay file" top

configmap "base-edited-$nonce" >"$pkg/base/configmap.yaml"
build_and_expect "edit of a base file" base mid top

configmap "base-edited-$nonce" "    " >"$pkg/base/configmap.yaml"
build_and_expect "reformatting of a base file (same snapshot)" base

# The edits show in the manifests.
bin=$(bazel_ info bazel-bin 2>/dev/null)
if grep -q "value: base-edited-$nonce" "$bin/krm_incrementality/top_manifests.yaml" &&
  grep -q "top: top-edited-$nonce" "$bin/krm_incrementality/top_manifests.yaml"; then
  echo "ok: top's manifests have both edits"
else
  echo "FAIL: top's manifests lack the edits:" >&2
  cat "$bin/krm_incrementality/top_manifests.yaml" >&2
  failures=$((failures + 1))
fi

if [[ $failures -ne 0 ]]; then
  echo "incrementality test: $failures check(s) failed (logs in $dir)" >&2
  exit 1
fi
echo "incrementality test passed"
