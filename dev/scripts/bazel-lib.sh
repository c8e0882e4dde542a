# Helpers for the scripts that run Bazel: bazel-test.sh, the benchmarks (source
# it; it sets nothing else up). The integration tests are Go: dev/testing/bazeltest.
# Needs ROOT (the repository) to be set by the sourcing script.

# The Bazel of the tests (dev/scripts/install-bazel.sh): on machines without a registry
# (KRM_OFFLINE=1, the default) Bazel 7.7.1 in a chroot, through dev/offline/bazel7/bin/bazel.
if [[ ${KRM_OFFLINE:-1} == 1 ]]; then
  PATH=$ROOT/dev/offline/bazel7/bin:$PATH
fi
"$ROOT/dev/scripts/install-bazel.sh" >&2

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

# execlog FILE: one line per spawn of a Bazel execution log (MNEMONIC, executed|cached,
# outputs), from dev/execlog, built once per run.
execlog() {
  if [[ -z ${_KRM_EXECLOG:-} ]]; then
    _KRM_EXECLOG=$(krm_test_dir tools)/execlog
    (cd "$ROOT" && go build -o "$_KRM_EXECLOG" ./dev/execlog)
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

# consumer_module SRC DEST [RULES_KRM [prebuilt|source]]: a copy of the consumer module SRC
# (e2e/bzlmod) in DEST, its local_path_override pointing at RULES_KRM (default: this
# checkout), and on machines without a registry (KRM_OFFLINE=1, the default here) the lines
# of dev/offline/bazel7/consumer.MODULE.bazel. With "source" (the default) the module
# opts in to the renderer built from source (a checkout's version has no prebuilt release);
# "prebuilt" leaves the default, for a RULES_KRM made by krm_release_copy.
consumer_module() {
  mkdir -p "$2"
  (cd "$1" && tar --exclude='./bazel-*' -cf - .) | (cd "$2" && tar -xf -)
  sed -i "s|path = \"\.\./\.\.\"|path = \"${3:-$ROOT}\"|" "$2/MODULE.bazel"
  if [[ ${KRM_OFFLINE:-1} == 1 ]]; then
    cat "$ROOT/dev/offline/bazel7/consumer.MODULE.bazel" >>"$2/MODULE.bazel"
  fi
  if [[ ${4:-source} == source ]]; then
    cat "$ROOT/e2e/from-source.MODULE.bazel" >>"$2/MODULE.bazel"
  fi
}

# krm_release_copy DEST VERSION DL: DEST, a copy of this checkout released as TestPrebuilt
# releases it (dev/testing/integration/prebuilt_test.go): dev/scripts/release.sh VERSION for this
# machine's platform writes the archive into DL/vVERSION and its integrity into DEST's
# rules/private/versions.bzl. Serve DL with dev/testing/releaseserver. The copy leaves out
# what bazeltest.CopyRepo does: version control, tools, e2e workspaces, Bazel outputs.
krm_release_copy() {
  rm -rf "$1" "$3/v$2"
  mkdir -p "$1"
  (cd "$ROOT" && tar --exclude=./.git --exclude=./.bin --exclude=./e2e --exclude='./bazel-*' -cf - .) | (cd "$1" && tar -xf -)
  "$1/scripts/release.sh" --platforms="$(go env GOOS)_$(go env GOARCH)" "$2" "$3/v$2" >/dev/null
}

# krm_prebuilt_consumer DIR WS: WS becomes a consumer of a release of this checkout, made and
# fetched as TestPrebuilt does: released by dev/scripts/release.sh into DIR/release (a version of its
# own, so that no output base holds it already), served on loopback by dev/testing/releaseserver
# (its pid in KRM_RELEASE_SERVER: kill it when done), WS's .bazelrc pointing Bazel's downloader at
# it with a repository cache of its own. Sets KRM_RELEASE_ARCHIVE, the path Bazel must download.
krm_prebuilt_consumer() {
  local dir=$1 ws=$2 version
  version=0.0.1-bench.$(date +%s)
  KRM_RELEASE_ARCHIVE=/v$version/krm-$version-$(go env GOOS)_$(go env GOARCH).tar.gz
  rm -rf "$dir/release" "$dir/repository-cache" "$dir/downloader.cfg" "$dir/served.log"
  krm_release_copy "$dir/rules_krm" "$version" "$dir/release"
  (cd "$ROOT" && go build -o "$dir/releaseserver" ./dev/testing/releaseserver)
  "$dir/releaseserver" -dir "$dir/release" -downloader-config "$dir/downloader.cfg" -served "$dir/served.log" &
  KRM_RELEASE_SERVER=$!
  for _ in $(seq 100); do [[ -f $dir/downloader.cfg ]] && break; sleep 0.1; done
  [[ -f $dir/downloader.cfg ]] || { echo "FAIL: dev/testing/releaseserver wrote no downloader config" >&2; return 1; }
  consumer_module "$ROOT/e2e/bzlmod" "$ws" "$dir/rules_krm" prebuilt
  printf 'common --experimental_downloader_config=%s\ncommon --repository_cache=%s\n' "$dir/downloader.cfg" "$dir/repository-cache" >>"$ws/.bazelrc"
}
