#!/usr/bin/env bash
# Builds the release archives of rules_krm (docs/releasing.md):
#   dev/scripts/release.sh [--platforms=P,...] [--no-edit] VERSION OUTDIR
#     the prebuilt renderer, krm-VERSION-PLATFORM.tar.gz for each platform (default: all of
#     linux_amd64 linux_arm64 darwin_amd64 darwin_arm64), each holding krm (the command
#     users run), krm_helm (the full renderer it hands charts and clusters to), krm_nohelm and
#     krm_golden; OUTDIR/SHA256SUMS and OUTDIR/versions-VERSION.bzl (the entry of the
#     integrity table, also printed). Then, unless --no-edit, writes that entry into
#     rules/private/versions.bzl (replacing an entry of VERSION) and VERSION into
#     MODULE.bazel's module(): the release commit holds both.
#   dev/scripts/release.sh --source VERSION OUTDIR
#     the source archive for the Bazel Central Registry, rules_krm-VERSION.tar.gz: the
#     committed tree of HEAD under the prefix rules_krm-VERSION/ (run it on the release commit).
# Reproducible: the same sources and Go release give the same bytes (go build -trimpath
# -buildvcs=false, no build id, CGO off; tar with sorted names, mtime 0, owner 0, gzip -n;
# git archive's times are the commit's). TestPrebuilt (dev/testing/integration) checks it.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export GOTOOLCHAIN=local LC_ALL=C TZ=UTC

ALL_PLATFORMS=(linux_amd64 linux_arm64 darwin_amd64 darwin_arm64)
usage() {
  echo "usage: $0 [--platforms=P,...] [--no-edit] VERSION OUTDIR" >&2
  echo "       $0 --source VERSION OUTDIR" >&2
  exit 2
}

platforms=("${ALL_PLATFORMS[@]}") edit=1 source=0
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --platforms=*) IFS=, read -r -a platforms <<<"${1#--platforms=}" ;;
    --no-edit) edit=0 ;;
    --source) source=1 ;;
    *) usage ;;
  esac
  shift
done
[[ $# -eq 2 ]] || usage
version=$1
mkdir -p "$2"
out=$(cd "$2" && pwd)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] ||
  { echo "release.sh: VERSION must be a semantic version without v (1.2.3, 1.2.3-rc.1), not $version" >&2 && exit 2; }
for p in "${platforms[@]}"; do
  [[ " ${ALL_PLATFORMS[*]} " == *" $p "* ]] ||
    { echo "release.sh: unknown platform $p (known: ${ALL_PLATFORMS[*]})" >&2 && exit 2; }
done

# integrity FILE: its Subresource Integrity, sha256-BASE64.
integrity() {
  local hex
  hex=$(sha256sum "$1" | cut -d' ' -f1)
  # shellcheck disable=SC2059 # the hex digits become \xNN escapes on purpose
  echo "sha256-$(printf "$(sed 's/../\\x&/g' <<<"$hex")" | base64 | tr -d '\n')"
}

# deterministic_tgz DIR OUT FILE...: OUT, a tar.gz of DIR's FILEs that depends on their
# contents only.
deterministic_tgz() {
  local dir=$1 dest=$2
  shift 2
  tar -C "$dir" --format=gnu --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
    --mode=u=rwx,go=rx -cf - "$@" | gzip -9 -n >"$dest"
}

if [[ $source == 1 ]]; then
  # The committed tree only: a change not committed would be missing from the archive.
  if [[ -n $(git -C "$ROOT" status --porcelain --untracked-files=no) ]]; then
    echo "release.sh: warning: uncommitted changes are not in the source archive" >&2
  fi
  archive=$out/rules_krm-$version.tar.gz
  git -C "$ROOT" archive --format=tar --prefix="rules_krm-$version/" HEAD | gzip -9 -n >"$archive"
  echo "$archive $(integrity "$archive")"
  exit 0
fi

# build PLATFORM GO-BUILD-ARGS...: a static binary for PLATFORM (os_arch), without paths, VCS
# data or build id, its version stamped (package cli prints it, in the three renderers).
module=github.com/rules-krm/rules_krm
build() {
  local p=$1
  shift
  (cd "$ROOT" && CGO_ENABLED=0 GOOS=${p%_*} GOARCH=${p#*_} GOFLAGS=-mod=readonly \
    go build -trimpath -buildvcs=false -ldflags "-s -w -buildid= -X $module/tools/renderer/internal/cli.version=$version" "$@")
}

goversion=$(go env GOVERSION)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
entry="    \"$version\": {  # built with $goversion"$'\n'
: >"$out/SHA256SUMS.$$"
for p in $(printf '%s\n' "${platforms[@]}" | sort -u); do
  echo "== krm $version for $p ($goversion)" >&2
  dir=$stage/$p
  mkdir -p "$dir"
  # krm, the default build, links neither Helm nor client-go and starts faster than
  # kustomize; a chart, a cluster command or a persistent worker makes it exec krm_helm, the
  # full renderer beside it (tools/renderer/internal/handoff). Bazel's toolchain runs
  # krm_helm and krm_nohelm directly.
  build "$p" -o "$dir/krm" ./tools/renderer
  build "$p" -o "$dir/krm_helm" ./tools/renderer/krm_helm
  build "$p" -o "$dir/krm_nohelm" ./tools/renderer/krm_nohelm
  build "$p" -o "$dir/krm_golden" ./rules/private/golden
  archive=krm-$version-$p.tar.gz
  deterministic_tgz "$dir" "$out/$archive" krm krm_golden krm_helm krm_nohelm
  (cd "$out" && sha256sum "$archive") >>"$out/SHA256SUMS.$$"
  entry+="        \"$p\": \"$(integrity "$out/$archive")\","$'\n'
done
entry+="    },"
mv "$out/SHA256SUMS.$$" "$out/SHA256SUMS"
echo "$entry" >"$out/versions-$version.bzl"
echo "$entry"

[[ $edit == 1 ]] || exit 0
# The entry of VERSION, first in KRM_VERSIONS (newest first), replacing an older one.
versions=$ROOT/rules/private/versions.bzl
awk -v version="$version" -v entry="$out/versions-$version.bzl" '
  index($0, "    \"" version "\": {") == 1 { skip = 1; next }
  skip { if ($0 == "    },") skip = 0; next }
  /^KRM_VERSIONS = \{\}?$/ {
    print "KRM_VERSIONS = {"
    while ((getline line < entry) > 0) print line
    if ($0 ~ /\}$/) print "}"
    next
  }
  { print }
' "$versions" >"$versions.$$"
mv "$versions.$$" "$versions"
grep -q "^    \"$version\": {" "$versions" ||
  { echo "release.sh: could not write the entry into $versions (no KRM_VERSIONS = { line)" >&2 && exit 1; }
# module()'s version: the first `version = ` of MODULE.bazel, inside module(...).
sed -i '1,/^)/s/^    version = ".*",$/    version = "'"$version"'",/' "$ROOT/MODULE.bazel"
grep -q "^    version = \"$version\",$" "$ROOT/MODULE.bazel" ||
  { echo "release.sh: could not set the version in $ROOT/MODULE.bazel" >&2 && exit 1; }
echo "release.sh: wrote $version into rules/private/versions.bzl and MODULE.bazel" >&2
