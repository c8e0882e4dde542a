# shellcheck shell=bash
# Sourced by the validation benchmarks (dev/scripts/bench-validate.sh, dev/scripts/bench-validate-cel.sh),
# which set ROOT, APPS, SEED and log: their temp dir, the trees they share, timed runs and
# medians.
# shellcheck source=dev/scripts/bench-kubeflow.sh
source "$ROOT/dev/scripts/bench-kubeflow.sh"

# bench_setup NAME: checks GNU time and KUBEFLOW's ARGO, and makes TMP (krm-NAME.XXXXXX),
# removed on exit unless KEEP=1.
bench_setup() {
  [[ -x /usr/bin/time ]] || { log "needs GNU time at /usr/bin/time (apt-get install time)"; exit 2; }
  if [[ -n ${KUBEFLOW:-} && -z ${ARGO:-} ]]; then
    log "KUBEFLOW needs ARGO (kubeflow's remote argo-workflows bases are read from it)"
    exit 2
  fi
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/krm-$1.XXXXXX")
  if [[ ${KEEP:-} == 1 ]]; then log "keeping $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
}

# bench_trees: rendered once by $KRM, outside the timing, into $TMP/NAME.yaml, NAME appended to
# the array names: synthetic (dev/bench/gen's tree, APPS and SEED: `krm build all`) and, with
# KUBEFLOW and ARGO, kubeflow (`krm build example` of a copy with its remote bases made local).
bench_trees() {
  go build -o "$TMP/gen" ./dev/bench/gen
  "$TMP/gen" -out "$TMP/tree" -apps "$APPS" -seed "$SEED"
  (cd "$TMP/tree" && "$KRM" build all) > "$TMP/synthetic.yaml"
  names+=(synthetic)
  if [[ -n ${KUBEFLOW:-} ]]; then
    log "copying $KUBEFLOW with its remote bases made local"
    kubeflow_copy "$KUBEFLOW" "$ARGO" "$TMP/kubeflow"
    "$KRM" build "$TMP/kubeflow/example" > "$TMP/kubeflow.yaml"
    names+=(kubeflow)
  fi
}

# timed LABEL OUT CMD...: one run of CMD, its output in OUT; appends "cpu_s wall_s rss_kb"
# (CPU = user + system) to $TMP/LABEL.times and returns CMD's exit status.
timed() {
  local label=$1 out=$2 rc=0
  shift 2
  /usr/bin/time -v -o "$TMP/time.txt" "$@" > "$out" 2>&1 || rc=$?
  awk -F': ' '
    /User time/ {u = $2} /System time/ {s = $2} /Maximum resident/ {r = $2}
    /Elapsed \(wall clock\)/ {n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i]}
    END {printf "%.3f %.3f %d\n", u + s, w, r}' "$TMP/time.txt" >> "$TMP/$label.times"
  return $rc
}

# run LABEL OUT CMD...: timed, and the script stops (exit 1) if CMD fails.
run() {
  local label=$1 out=$2
  shift 2
  if ! timed "$label" "$out" "$@"; then
    log "FAILED: $label: $* (see $out)"
    tail -5 "$out" >&2
    exit 1
  fi
}

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
# col LABEL N: the median of column N (1 CPU, 2 wall, 3 RSS) of LABEL's runs.
col() { awk -v c="$2" '{print $c}' "$TMP/$1.times" | median; }
