#!/usr/bin/env bash
# Checks that krm_kustomization builds are incremental, from Bazel's own execution log:
# on a tree base <- mid <- top (each includes the one before) plus an unrelated `other`
# (a target "renders" when its snapshot action, KrmRender, or its manifests action,
# KrmManifests, runs),
#   1. editing a file of top re-renders exactly one target, top;
#   2. editing a file of base re-runs base, mid and top, and not other;
#   3. reformatting a base file (same content), and editing only its comments (in a
#      resource and in the kustomization file), re-run base only: its snapshot is unchanged
#      (snapshots carry no comments), so Bazel does not re-run what includes it;
# and for functions, on star1 and star2 (both naming the component fncomp, whose Starlark
# transformer owner.star loads lib.star; fncomp's target has no kind attribute: the file
# says it is a Component), star3 (a Starlark transformer of its own) and fnuser (an exec
# function, a krm_function around an sh_binary):
#   4. editing star3's script re-renders star3 only;
#   5. editing the .star file that fncomp's script loads re-runs fncomp (its snapshot carries
#      its files), star1 and star2 only;
#   6. editing the exec function's script re-runs fnuser only;
# and for images, on pinned (its `images` pins app to the digest a genrule computes from
# app.txt, as rules_oci's oci_image would) and pinned_top (includes pinned):
#   7. changing the image (so its digest) re-runs pinned and pinned_top only, and the new
#      digest is in pinned_top's manifests;
# and for stamping (--stamp with a --workspace_status_command printing STABLE_KRM_TEST and
# BUILD_KRM_RUN, which stamped's annotations hold as placeholders):
#   8. the first --stamp build re-runs no render, and runs one KrmStamp per kustomization;
#   9. a changed STABLE_ value re-runs the KrmStamp actions only;
#  10. a changed volatile value alone re-runs nothing;
#  11. back to --nostamp, no action runs and the manifests are the unstamped ones.
#  12. krm_validate_test of top and other: editing a base file re-runs top's only, and a
#      comment-only edit (the same manifests) none.
# Each step also reports the KrmManifests actions it ran (the manifests of the targets whose
# snapshot or sources changed).
# Runs in a copy of the repository (the source tree is never edited) with its own output
# base, kept between runs under $KRM_TEST_DIR (default /tmp/rules_krm-tests). Every run
# writes new values, so no cache can hold its actions.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"

dir=$(krm_test_dir incrementality)
ws=$dir/ws
pkg=$ws/krm_incrementality
copy_repo "$ws"
nonce=$(date +%s%N)

bazel_() {
  (cd "$ws" && bazel --output_base="$dir/output_base" --max_idle_secs=600 "$@")
}
trap 'bazel_ shutdown >/dev/null 2>&1 || true' EXIT

mkdir -p "$pkg"/{base,mid,top,other,fncomp,star1,star2,star3,fnuser,pinned,pinned_top,stamped}
cat >"$pkg/BUILD.bazel" <<'EOF'
load("//rules:defs.bzl", "krm_function", "krm_kustomization", "krm_validate_test")

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

krm_kustomization(
    name = "fncomp",
    srcs = glob(["fncomp/*"]),
    dir = "fncomp",
)

[krm_kustomization(
    name = name,
    srcs = glob([name + "/*"]),
    dir = name,
    deps = [":fncomp"],
) for name in ["star1", "star2"]]

krm_kustomization(
    name = "star3",
    srcs = glob(["star3/*"]),
    dir = "star3",
)

sh_binary(
    name = "mark_bin",
    srcs = ["mark.sh"],
)

krm_function(
    name = "mark",
    binary = ":mark_bin",
)

krm_kustomization(
    name = "fnuser",
    srcs = glob(["fnuser/*"]),
    dir = "fnuser",
    functions = {"./fn/mark": ":mark"},
)

genrule(
    name = "app_digest",
    srcs = ["app.txt"],
    outs = ["app.digest"],
    cmd = "echo sha256:$$(sha256sum $< | cut -d' ' -f1) >$@",
)

krm_kustomization(
    name = "pinned",
    srcs = glob(["pinned/*"]),
    dir = "pinned",
    images = {"app": ":app_digest"},
)

krm_kustomization(
    name = "pinned_top",
    srcs = glob(["pinned_top/*"]),
    dir = "pinned_top",
    deps = [":pinned"],
)

krm_kustomization(
    name = "stamped",
    srcs = glob(["stamped/*"]),
    dir = "stamped",
)

[krm_validate_test(
    name = name + "_validate_test",
    kustomization = ":" + name,
) for name in ["top", "other"]]
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
# starlark_run NAME SCRIPT: a StarlarkRun config running the script file SCRIPT.
starlark_run() {
  printf 'apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata:\n  name: %s\npath: %s\n' "$1" "$2"
}
printf 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ntransformers:\n- owner.yaml\n' >"$pkg/fncomp/kustomization.yaml"
starlark_run owner owner.star >"$pkg/fncomp/owner.yaml"
printf 'load(":lib.star", "OWNER")\nfor r in ctx.resource_list["items"]:\n    r["metadata"].setdefault("labels", {})["owner"] = OWNER\n' >"$pkg/fncomp/owner.star"
printf 'OWNER = "owner-%s"\n' "$nonce" >"$pkg/fncomp/lib.star"
for d in star1 star2 star3 fnuser; do configmap "$d-$nonce" >"$pkg/$d/configmap.yaml"; done
printf 'resources:\n- configmap.yaml\ncomponents:\n- ../fncomp\n' | tee "$pkg/star1/kustomization.yaml" >"$pkg/star2/kustomization.yaml"
printf 'resources:\n- configmap.yaml\ntransformers:\n- own.yaml\n' >"$pkg/star3/kustomization.yaml"
starlark_run own own.star >"$pkg/star3/own.yaml"
# own_star VALUE: star3's script, setting the annotation own to VALUE.
own_star() {
  printf 'for r in ctx.resource_list["items"]:\n    r["metadata"].setdefault("annotations", {})["own"] = "%s"\n' "$1"
}
own_star "own-$nonce" >"$pkg/star3/own.star"
printf 'resources:\n- configmap.yaml\ngenerators:\n- mark.yaml\n' >"$pkg/fnuser/kustomization.yaml"
printf 'apiVersion: example.com/v1\nkind: Mark\nmetadata:\n  name: mark\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: ./fn/mark\n' >"$pkg/fnuser/mark.yaml"
# mark_sh VALUE: the exec function, a generator of the ConfigMap mark with data.value VALUE.
mark_sh() {
  cat <<SH
#!/bin/sh
cat >/dev/null
cat <<'OUT'
apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: mark}
  data: {value: "$1"}
OUT
SH
}
mark_sh "mark-$nonce" >"$pkg/mark.sh"
chmod +x "$pkg/mark.sh"
printf 'resources:\n- pod.yaml\n' >"$pkg/pinned/kustomization.yaml"
printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: app\nspec:\n  containers:\n  - name: app\n    image: app:v1\n' >"$pkg/pinned/pod.yaml"
printf 'namePrefix: top-\nresources:\n- ../pinned\n' >"$pkg/pinned_top/kustomization.yaml"
echo "app-$nonce" >"$pkg/app.txt"
printf 'resources:\n- configmap.yaml\ncommonAnnotations:\n  stable: "{STABLE_KRM_TEST}"\n  volatile: "{BUILD_KRM_RUN}"\n' >"$pkg/stamped/kustomization.yaml"
configmap "stamped-$nonce" >"$pkg/stamped/configmap.yaml"
# The workspace status command prints the values in $dir/status.txt.
printf '#!/bin/sh\ncat "%s/status.txt"\n' "$dir" >"$dir/status.sh"
chmod +x "$dir/status.sh"

failures=0
step=0
flags=() # extra build flags (stamping)
# bazel_step COMMAND DESCRIPTION TARGET...: the next step, `bazel COMMAND` of the targets with
# the extra flags, its execution log in $log ($dir/exec<step>.json); stops the test if it fails.
bazel_step() {
  local cmd=$1 what=$2
  shift 2
  step=$((step + 1))
  log=$dir/exec$step.json
  rm -f "$log"
  if ! bazel_ "$cmd" --disk_cache="$(krm_disk_cache)" --execution_log_json_file="$log" ${flags[@]+"${flags[@]}"} \
    "$@" >"$dir/$cmd$step.log" 2>&1; then
    cat "$dir/$cmd$step.log" >&2
    echo "FAIL: $what: bazel $cmd failed" >&2
    exit 1
  fi
}
# build_and_expect DESCRIPTION TARGET...: builds the package and checks that exactly these
# targets rendered (ran KrmRender, KrmManifests or both; no render came from a cache).
# A target's snapshot action runs only when something needs the snapshot (a parent, or a
# component's own check), its manifests action when the manifests are built.
build_and_expect() {
  local what=$1
  shift
  local log
  bazel_step build "$what" //krm_incrementality:all
  local want got cached
  want=$(for s in "$@"; do echo "bazel-out/k8-fastbuild/bin/krm_incrementality/$s"; done | sort)
  got=$(krm_renders "$log" executed)
  cached=$(krm_renders "$log" cached)
  local snapshots manifests
  snapshots=$(execlog -mnemonic KrmRender "$log" | awk -F'\t' '$2 == "executed"' | wc -l)
  manifests=$(execlog -mnemonic KrmManifests "$log" | awk -F'\t' '$2 == "executed"' | wc -l)
  if [[ $got == "$want" && -z $cached ]]; then
    echo "ok: $what: rendered ${*:-no kustomization} ($snapshots KrmRender, $manifests KrmManifests)"
  else
    echo "FAIL: $what: targets rendered:" >&2
    echo "${got:-  (none)}" | sed 's/^/  /' >&2
    echo "  want:" >&2
    echo "$want" | sed 's/^/  /' >&2
    [[ -z $cached ]] || { echo "  and from a cache (a test bug: values should be new):" >&2; echo "$cached" | sed 's/^/  /' >&2; }
    failures=$((failures + 1))
  fi
}

build_and_expect "first build" base mid top other fncomp fnuser star1 star2 star3 pinned pinned_top stamped

printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mid-settings\ndata:\n  top: "%s"\n' "top-edited-$nonce" >"$pkg/top/patch.yaml"
build_and_expect "edit of a top overlay file" top

configmap "base-edited-$nonce" >"$pkg/base/configmap.yaml"
build_and_expect "edit of a base file" base mid top

configmap "base-edited-$nonce" "    " >"$pkg/base/configmap.yaml"
build_and_expect "reformatting of a base file (same snapshot)" base

{
  echo "# a comment-only edit $nonce"
  configmap "base-edited-$nonce" "    " | sed "s/^data:/data: # comment $nonce/"
} >"$pkg/base/configmap.yaml"
build_and_expect "comment-only edit of a base resource (same snapshot)" base

printf '# kustomization comment %s\nresources:\n- configmap.yaml # comment\n' "$nonce" >"$pkg/base/kustomization.yaml"
build_and_expect "comment-only edit of a base kustomization file (same snapshot)" base

own_star "own-edited-$nonce" >"$pkg/star3/own.star"
build_and_expect "edit of a Starlark script" star3

printf 'OWNER = "owner-edited-%s"\n' "$nonce" >"$pkg/fncomp/lib.star"
build_and_expect "edit of a .star file a component's script loads" fncomp star1 star2

mark_sh "mark-edited-$nonce" >"$pkg/mark.sh"
build_and_expect "edit of an exec function" fnuser

echo "app-edited-$nonce" >"$pkg/app.txt"
build_and_expect "change of a pinned image's digest" pinned pinned_top

# expect_stamps DESCRIPTION N: the last build ran N KrmStamp actions (none from a cache).
expect_stamps() {
  local got cached
  got=$(execlog -mnemonic KrmStamp "$dir/exec$step.json" | awk -F'\t' '$2 == "executed"' | grep -c . || true)
  cached=$(execlog -mnemonic KrmStamp "$dir/exec$step.json" | awk -F'\t' '$2 == "cached"' | grep -c . || true)
  if [[ $got -eq $2 && $cached -eq 0 ]]; then
    echo "ok: $1: ran $got KrmStamp actions"
  else
    echo "FAIL: $1: ran $got KrmStamp actions ($cached from a cache), want $2" >&2
    failures=$((failures + 1))
  fi
}
n_kustomizations=12 # every krm_kustomization of the package: fncomp, a component without kind, declares (empty) manifests too
flags=(--stamp --workspace_status_command="$dir/status.sh")
printf 'STABLE_KRM_TEST stable-%s\nBUILD_KRM_RUN run-%s-1\n' "$nonce" "$nonce" >"$dir/status.txt"
build_and_expect "first --stamp build"
expect_stamps "first --stamp build" "$n_kustomizations"
printf 'STABLE_KRM_TEST stable-edited-%s\nBUILD_KRM_RUN run-%s-2\n' "$nonce" "$nonce" >"$dir/status.txt"
build_and_expect "a changed STABLE_ value"
expect_stamps "a changed STABLE_ value" "$n_kustomizations"
printf 'STABLE_KRM_TEST stable-edited-%s\nBUILD_KRM_RUN run-%s-3\n' "$nonce" "$nonce" >"$dir/status.txt"
build_and_expect "a changed volatile value alone"
expect_stamps "a changed volatile value alone" 0
bin=$(bazel_ info "${flags[@]}" bazel-bin 2>/dev/null)
stamped=$bin/krm_incrementality/stamped_manifests.stamped.yaml
if grep -q "stable: stable-edited-$nonce" "$stamped" && grep -q "volatile: run-$nonce-2" "$stamped"; then
  echo "ok: stamped's manifests have the stable value and the volatile one of the last stamping"
else
  echo "FAIL: stamped's stamped manifests:" >&2
  cat "$stamped" >&2
  failures=$((failures + 1))
fi
flags=()
build_and_expect "back to --nostamp"
expect_stamps "back to --nostamp" 0

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

app_digest=sha256:$(echo "app-edited-$nonce" | sha256sum | cut -d' ' -f1)
for check in "star3:own: own-edited-$nonce" "star1:owner: owner-edited-$nonce" \
  "star2:owner: owner-edited-$nonce" "fnuser:value: mark-edited-$nonce" \
  "pinned_top:image: app@$app_digest" "stamped:stable: '{STABLE_KRM_TEST}'"; do
  name=${check%%:*}
  if grep -qF "${check#*:}" "$bin/krm_incrementality/${name}_manifests.yaml"; then
    echo "ok: $name's manifests have the edit"
  else
    echo "FAIL: $name's manifests lack ${check#*:}:" >&2
    cat "$bin/krm_incrementality/${name}_manifests.yaml" >&2
    failures=$((failures + 1))
  fi
done

# test_and_expect DESCRIPTION TEST...: `bazel test` of the package's krm_validate_tests ran
# exactly these (Bazel's action cache skipped the others: their manifests did not change).
test_and_expect() {
  local what=$1
  shift
  local log
  bazel_step test "$what" //krm_incrementality:top_validate_test //krm_incrementality:other_validate_test
  local want got
  want=$(printf '%s\n' "$@" | sed '/^$/d' | sort)
  got=$(execlog -mnemonic TestRunner "$log" | awk -F'\t' '$2 == "executed" { print $3 }' | tr ',' '\n' |
    sed -n 's|^bazel-out/[^/]*/testlogs/krm_incrementality/\([^/]*\)/.*|\1|p' | sort -u)
  if [[ $got == "$want" ]]; then
    echo "ok: $what: ran ${*:-no validate test}"
  else
    echo "FAIL: $what: validate tests run: ${got:-(none)}; want: ${want:-(none)}" >&2
    failures=$((failures + 1))
  fi
}
test_and_expect "validate tests, first run" top_validate_test other_validate_test
configmap "base-validated-$nonce" >"$pkg/base/configmap.yaml"
test_and_expect "validate tests after an edit of a base file" top_validate_test
{
  echo "# a comment-only edit $nonce"
  configmap "base-validated-$nonce"
} >"$pkg/base/configmap.yaml"
test_and_expect "validate tests after a comment-only edit of a base file (same manifests)"

if [[ $failures -ne 0 ]]; then
  echo "incrementality test: $failures check(s) failed (logs in $dir)" >&2
  exit 1
fi
echo "incrementality test passed"
