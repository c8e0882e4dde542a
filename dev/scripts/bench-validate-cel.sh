#!/usr/bin/env bash
# Speed and memory of `krm validate` where it runs the API server's code, against the tools
# that do the same offline, on the same objects (issue 33's scale section):
#   cel     CRD schemas and their CEL rules: `krm validate` (the default build, which hands
#           CRDs to krm_helm) and `krm_helm validate` against kubectl-validate with the same
#           CRDs (--local-crds); every object must be valid for all three.
#   policy  ValidatingAdmissionPolicies (dev/bench/policies/policies.yaml: replica bounds,
#           image registries, no hostPath, route hostnames) on the gateway tree plus
#           dev/bench/policies/violations-httproutes.yaml, and on the synthetic tree plus
#           violations-deployments.yaml: `krm validate --policy` and `krm_helm validate
#           --policy` against `kubectl-kyverno apply` with the same files; each must deny
#           exactly the planted violations (1 and 5 denials, "# expect:" there). krm also
#           checks every object's schema (and CEL rules) in that run; Kyverno only the policies.
#           Kyverno's CLI needs work-arounds (dev/bench/policies/policies.yaml and below):
#           the bindings repeat their policies' resourceRules, and it gets one CRD.
# Each run is timed by /usr/bin/time -v, the tools alternating run by run so that load on a
# shared machine hits them alike.
#
# Usage: dev/scripts/bench-validate-cel.sh
#
# Trees (rendered or generated once, outside the timing):
#   gateway    always: dev/bench/gatewaygen (Gateways and HTTPRoutes, 331 objects by default)
#              with Gateway API v1.7.0's standard CRDs (vendored in
#              tools/renderer/internal/validate/testdata/gateway-api)
#   synthetic  always: `krm build all` of dev/bench/gen's tree (APPS=40: 3978 objects, no CRDs)
#   kubeflow   with KUBEFLOW=DIR and ARGO=DIR, as in dev/scripts/bench-validate.sh: `krm build
#              example` (664 objects, 73 CRDs among them; kubectl-validate gets those CRDs as
#              --local-crds)
#
# Environment:
#   KRM=PATH, KRM_HELM=PATH   krm and krm_helm (default: built from ./tools/renderer, with
#                             krm_helm beside krm)
#   KUBECTL_VALIDATE=PATH     kubectl-validate (default: go install at the pinned version)
#   KYVERNO=PATH              kubectl-kyverno (default: built from the module at the pinned
#                             version: `go install` refuses it for its replace directives)
#   RUNS=5                    interleaved runs of each tool per tree (plus one warm-up each)
#   NAMESPACES=10 GATEWAYS=2 ROUTES=30   the gateway tree (per namespace)
#   APPS=40, SEED=1           the synthetic tree
#   PARTS="cel policy"        which comparisons to run
#   KEEP=1                    keep the temp dir
#
# Output: markdown tables of medians (CPU = user + system) and krm's ratios to each tool; exit
# status 0 if every tool found what it should (see above).
set -euo pipefail
export GOTOOLCHAIN=local

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
RUNS=${RUNS:-5}
APPS=${APPS:-40}
SEED=${SEED:-1}
PARTS=${PARTS:-cel policy}
# kubectl-validate has no release since v0.0.4 (May 2024); the newest commit on the proxy
# embeds the built-in schemas up to Kubernetes 1.35 (krm pins 1.37).
KUBECTL_VALIDATE_VERSION=v0.0.5-0.20260105161640-a97ccfaca20b
KUBECTL_VALIDATE_KUBE=1.35
KYVERNO_VERSION=v1.19.1
GATEWAY_CRDS=$ROOT/tools/renderer/internal/validate/testdata/gateway-api
POLICIES=$ROOT/dev/bench/policies
log() { echo "bench-validate-cel: $*" >&2; }
# shellcheck source=dev/scripts/bench-validate-lib.sh
source "$ROOT/dev/scripts/bench-validate-lib.sh"
bench_setup bench-validate-cel

if [[ -z ${KRM:-} ]]; then
  go build -o "$TMP/krm" ./tools/renderer
  go build -o "$TMP/krm_helm" ./tools/renderer/krm_helm
  KRM=$TMP/krm
  KRM_HELM=${KRM_HELM:-$TMP/krm_helm}
fi
: "${KRM_HELM:?KRM_HELM must be set with KRM}"
export KRM_HELM # the helper krm hands CRDs and policies to
if [[ -z ${KUBECTL_VALIDATE:-} ]]; then
  log "installing kubectl-validate $KUBECTL_VALIDATE_VERSION"
  GOBIN=$TMP go install "sigs.k8s.io/kubectl-validate@$KUBECTL_VALIDATE_VERSION"
  KUBECTL_VALIDATE=$TMP/kubectl-validate
fi
if [[ -z ${KYVERNO:-} ]]; then
  log "building kubectl-kyverno $KYVERNO_VERSION (a few minutes)"
  dir=$(go mod download -json "github.com/kyverno/kyverno@$KYVERNO_VERSION" | sed -n 's/.*"Dir": "\(.*\)",$/\1/p')
  (cd "$dir" && go build -o "$TMP/kubectl-kyverno" ./cmd/cli/kubectl-kyverno)
  KYVERNO=$TMP/kubectl-kyverno
fi

# --- trees --------------------------------------------------------------------------------
# crds_of FILE: the CustomResourceDefinitions among FILE's documents.
crds_of() {
  awk 'function flush() { if (doc ~ /(^|\n)kind: CustomResourceDefinition\n/) printf "---\n%s", doc; doc = "" }
    /^---$/ {flush(); next} {doc = doc $0 "\n"} END {flush()}' "$1"
}
go build -o "$TMP/gatewaygen" ./dev/bench/gatewaygen
"$TMP/gatewaygen" -out "$TMP/gateway.yaml" -namespaces "${NAMESPACES:-10}" -gateways "${GATEWAYS:-2}" -routes "${ROUTES:-30}"
names=(gateway)
bench_trees
declare -A crd_dir=([gateway]=$GATEWAY_CRDS [synthetic]="")
if [[ -n ${KUBEFLOW:-} ]]; then
  mkdir "$TMP/kubeflow-crds"
  crds_of "$TMP/kubeflow.yaml" > "$TMP/kubeflow-crds/crds.yaml"
  crd_dir[kubeflow]=$TMP/kubeflow-crds
fi
gateway_crd_flags=()
for f in "$GATEWAY_CRDS"/*.yaml; do gateway_crd_flags+=(--crd "$f"); done

# --- runs ---------------------------------------------------------------------------------
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
status=0
cel_rows=()
policy_rows=()
# compare ROWS-VAR TREE OBJECTS ORACLE-LABEL: rows "tree tool objects ..." of krm and
# krm_helm against the oracle's medians.
compare() {
  local -n rows_ref=$1
  local t=$2 objects=$3 oracle=$4 k
  for k in krm krm_helm; do
    rows_ref+=("$t $k $objects $(col "$t.$k" 1) $(col "$t.$k" 2) $(col "$t.$k" 3) $(col "$t.$oracle" 1) $(col "$t.$oracle" 2) $(col "$t.$oracle" 3)")
  done
}
# interleave TREE CMD-VARS...: a warm-up of each command, then RUNS rounds of one run each;
# CMD-VAR names an array holding the command, its label the name without "_cmd". A non-zero
# exit is recorded, not fatal: the caller checks each tool's output.
interleave() {
  local t=$1 v i
  shift
  for v in "$@"; do
    local -n c=$v
    timed warmup "$TMP/$t.${v%_cmd}.out" "${c[@]}" || true
  done
  for ((i = 0; i < RUNS; i++)); do
    for v in "$@"; do
      local -n c=$v
      timed "$t.${v%_cmd}" "$TMP/$t.${v%_cmd}.out" "${c[@]}" || true
    done
  done
}

kv_issue115='^(Cluster)?Role(Binding)?\.rbac\.authorization\.k8s\.io "[^"]*:[^"]*" is invalid: metadata\.name: Invalid value: "[^"]*": a lowercase RFC 1123 subdomain'
# shellcheck disable=SC2034 # the *_cmd arrays are read by interleave, by name
if [[ " $PARTS " == *" cel "* ]]; then
  for t in "${names[@]}"; do
    f=$TMP/$t.yaml
    objects=$(grep -c '^kind:' "$f" || true)
    flags=()
    kv_flags=(--version "$KUBECTL_VALIDATE_KUBE")
    if [[ $t == gateway ]]; then flags=("${gateway_crd_flags[@]}"); fi
    if [[ -n ${crd_dir[$t]} ]]; then kv_flags+=(--local-crds "${crd_dir[$t]}"); fi
    krm_cmd=("$KRM" validate "${flags[@]}" "$f")
    krm_helm_cmd=("$KRM_HELM" validate "${flags[@]}" "$f")
    kv_cmd=("$KUBECTL_VALIDATE" "${kv_flags[@]}" "$f")
    log "cel: $t: $objects objects, $(du -m "$f" | cut -f1) MB: warm-up, then $RUNS interleaved runs of each"
    interleave "$t" krm_cmd krm_helm_cmd kv_cmd
    for k in krm krm_helm; do
      s=$(grep -E '^[0-9]+ objects, ' "$TMP/$t.$k.out" | tail -1)
      log "cel: $t: $k: $s"
      [[ $s == *", 0 invalid" ]] || { log "cel: $t: $k found an object invalid (see KEEP=1)"; status=1; }
    done
    # kubectl-validate checks every name as an RFC 1123 subdomain, RBAC's too, which the API
    # server checks as path segments ("system:..." is valid): kubernetes-sigs/kubectl-validate#115.
    # Those are counted apart; any other error fails the run.
    kv_rbac=$(grep -cE "$kv_issue115" "$TMP/$t.kv.out" || true)
    kv_other=$(grep ' is invalid: ' "$TMP/$t.kv.out" | grep -cvE "$kv_issue115" || true)
    log "cel: $t: kubectl-validate: $kv_other objects invalid, $kv_rbac more by its RBAC name bug (#115)"
    if ((kv_other)); then
      grep ' is invalid: ' "$TMP/$t.kv.out" | grep -vE "$kv_issue115" | head -5 >&2
      status=1
    fi
    compare cel_rows "$t" "$objects" kv
  done
fi

# krm_denials OUT: "POLICY KIND/NAMESPACE/NAME" per denial in krm's report OUT.
krm_denials() {
  sed -n -E "s#^[^ ]+: ([A-Za-z]+)/([^ :]+)(: [^ ]+)?: ValidatingAdmissionPolicy '([^']+)' .* denied request: .*#\4 \1/\2#p" "$1" | sort
}
# kyverno_denials OUT: the same from `kubectl-kyverno apply`'s report.
kyverno_denials() {
  sed -n -E "s#^policy ([^ ]+) -> resource ([^/]+)/([^/]+)/([^ ]+) failed:.*#\1 \3/\2/\4#p" "$1" | sort
}

# shellcheck disable=SC2034 # the *_cmd arrays are read by interleave, by name
if [[ " $PARTS " == *" policy "* ]]; then
  # Kyverno's CLI maps only the last CRD of an API group it is given to a resource (the others'
  # objects fail "failed to map gvk to gvr", skipped with --continue-on-fail), and reads its
  # CRD files again for every object (processor/policy_processor.go, ApplyPoliciesOnResource):
  # 8 times the CPU on the synthetic tree. So each tree is a row of its own, Kyverno gets the
  # HTTPRoute CRD (the one kind of the group a policy matches) for the gateway tree only, and
  # kubeflow's tree (73 CRDs) is left out.
  declare -A violations=([gateway]=httproutes [synthetic]=deployments)
  for t in gateway synthetic; do
    inputs=("$TMP/$t.yaml" "$POLICIES/violations-${violations[$t]}.yaml")
    objects=$(cat "${inputs[@]}" | grep -c '^kind:' || true)
    flags=()
    ky_flags=()
    if [[ $t == gateway ]]; then
      flags=("${gateway_crd_flags[@]}")
      ky_flags=(--crd-paths "$GATEWAY_CRDS/gateway.networking.k8s.io_httproutes.yaml")
    fi
    krm_cmd=("$KRM" validate "${flags[@]}" --policy "$POLICIES/policies.yaml" "${inputs[@]}")
    krm_helm_cmd=("$KRM_HELM" validate "${flags[@]}" --policy "$POLICIES/policies.yaml" "${inputs[@]}")
    kyverno_cmd=("$KYVERNO" apply "$POLICIES/policies.yaml" --resource "${inputs[0]}" --resource "${inputs[1]}"
      "${ky_flags[@]}" --remove-color --continue-on-fail)
    log "policy: $t: $objects objects (with ${inputs[1]##*/}): warm-up, then $RUNS interleaved runs of each"
    interleave "$t.policy" krm_cmd krm_helm_cmd kyverno_cmd
    expected=$(sed -n -E 's/^# expect: //p' "${inputs[1]}" | sort)
    for k in krm krm_helm kyverno; do
      if [[ $k == kyverno ]]; then got=$(kyverno_denials "$TMP/$t.policy.$k.out"); else got=$(krm_denials "$TMP/$t.policy.$k.out"); fi
      if [[ $got == "$expected" ]]; then
        log "policy: $t: $k denied exactly the $(wc -l <<< "$expected") planted violations"
      else
        log "policy: $t: $k's denials differ from the planted ones:"
        diff <(echo "$expected") <(echo "$got") | head -10 >&2 || true
        status=1
      fi
    done
    compare policy_rows "$t.policy" "$objects" kyverno
  done
fi

table() { # TITLE ORACLE ROWS...
  local title=$1 oracle=$2
  shift 2
  echo
  echo "$title"
  echo
  printf '%s\n' "$@" | awk -v o="$oracle" '
    BEGIN {
      printf "| tree | krm build | objects | krm CPU / wall s | %s CPU / wall s | krm faster (CPU) | krm faster (wall) | peak RSS krm / %s |\n", o, o
      printf "|---|---|--:|--:|--:|--:|--:|--:|\n"
    }
    {
      printf "| %s | %s | %d | %.2f / %.2f | %.2f / %.2f | %.2fx | %.2fx | %d / %d MB |\n",
        $1, $2, $3, $4, $5, $7, $8, ($4 > 0 ? $7 / $4 : 0), ($5 > 0 ? $8 / $5 : 0), $6 / 1024, $9 / 1024
    }'
}
echo
echo "median of $RUNS interleaved runs; $(go env GOVERSION) $(go env GOOS)/$(go env GOARCH), $(nproc) CPUs, load avg $load_start at start, $(cut -d' ' -f1-3 /proc/loadavg) at end"
if ((${#cel_rows[@]})); then
  table "CRD schemas and CEL rules: krm validate vs kubectl-validate $KUBECTL_VALIDATE_VERSION (--version $KUBECTL_VALIDATE_KUBE, same CRDs)" kubectl-validate "${cel_rows[@]}"
fi
if ((${#policy_rows[@]})); then
  table "ValidatingAdmissionPolicies: krm validate --policy vs kubectl-kyverno $KYVERNO_VERSION apply (same policies and objects)" kyverno "${policy_rows[@]}"
fi
if [[ $status != 0 ]]; then log "a tool did not find what it should (see KEEP=1)"; fi
exit $status
