# Helpers for the scripts that test the Bazel rules (source it; it sets nothing else up).
# Needs ROOT (the repository) to be set by the sourcing script.

# The disk cache shared by the Bazel tests: $KRM_DISK_CACHE, else one under ~/.cache.
krm_disk_cache() {
  local dir=${KRM_DISK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_krm/disk-cache}
  mkdir -p "$dir"
  echo "$dir"
}

# Where the Bazel tests keep their workspace copies and output bases between runs
# (output bases keep their fetched external repositories, which makes reruns fast).
krm_test_dir() {
  local dir=${KRM_TEST_DIR:-${TMPDIR:-/tmp}/rules_krm-tests}/$1
  mkdir -p "$dir"
  echo "$dir"
}

# copy_repo DEST: a copy of the repository without version control, tools, Bazel outputs
# and e2e workspaces (a workspace to edit without touching the source tree).
copy_repo() {
  rm -rf "$1"
  mkdir -p "$1"
  (cd "$ROOT" && tar --exclude=./.git --exclude=./.bin --exclude='./bazel-*' --exclude=./e2e -cf - .) |
    (cd "$1" && tar -xf -)
}

# execlog FILE: one line per spawn of a Bazel execution log (MNEMONIC, executed|cached,
# outputs), from tools/execlog, built once per run.
execlog() {
  if [[ -z ${_KRM_EXECLOG:-} ]]; then
    _KRM_EXECLOG=$(krm_test_dir tools)/execlog
    (cd "$ROOT" && go build -o "$_KRM_EXECLOG" ./tools/execlog)
  fi
  "$_KRM_EXECLOG" "$@"
}

# krm_renders FILE STATE: the krm_kustomization targets whose render actions (KrmRender,
# writing the snapshot, KrmRenderOrigins, the snapshot with origins, or KrmManifests, writing
# the manifests) in the execution log FILE
# were STATE (executed or cached), as their output path without the suffix (one per line,
# sorted, each once).
krm_renders() {
  execlog "$1" | awk -F'\t' -v state="$2" '($1 == "KrmRender" || $1 == "KrmRenderOrigins" || $1 == "KrmManifests") && $2 == state {
    n = split($3, outs, ",")
    for (i = 1; i <= n; i++) {
      if (outs[i] ~ /\.origins\.krmsnap$/) { sub(/\.origins\.krmsnap$/, "", outs[i]); print outs[i] }
      else if (outs[i] ~ /\.krmsnap$/) { sub(/\.krmsnap$/, "", outs[i]); print outs[i] }
      else if (outs[i] ~ /_manifests\.yaml$/) { sub(/_manifests\.yaml$/, "", outs[i]); print outs[i] }
    }
  }' | sort -u
}

# gazelle_workspace DIR: writes into DIR the files of the e2e/gazelle consumer workspace
# (WORKSPACE, BUILD.bazel), its relative paths to rules_krm made absolute.
gazelle_workspace() {
  mkdir -p "$1"
  local f
  for f in WORKSPACE WORKSPACE.bzlmod BUILD.bazel; do
    sed "s|path = \"\.\./\.\.|path = \"$ROOT|" "$ROOT/e2e/gazelle/$f" >"$1/$f"
  done
}
