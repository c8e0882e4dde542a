#!/usr/bin/env bash
# Regenerates the real-history pairs of `krm diff`'s oracle test
# (tools/renderer/internal/rdiff/testdata/real, README.md there): for each
# OWNER+NAME/PAIR/SOURCE, `kustomize build` (v5.8.2) of its directory at its old
# and new commit into old.yaml and new.yaml, and each repository's LICENSE at
# the newest commit of its pairs.
#
# Usage: dev/scripts/rdiff-real-pairs.sh GITROOT [PAIR...]
#   GITROOT holds one git directory (bare or not, with history) per repository:
#   GITROOT/OWNER+NAME/repo (the layout of a `git clone --mirror
#   https://github.com/OWNER/NAME GITROOT/OWNER+NAME/repo`).
#   PAIR: only these pairs (OWNER+NAME/PAIR); default all.
# A SOURCE names, one per line: `repo: OWNER/NAME`, `old: COMMIT`, `new: COMMIT`,
# `dir: DIR` (the kustomization built), `extract: PATH...` (what of the tree
# the build reads; default DIR's first component) and `change:` (what the commit
# changed, for the README).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export GOTOOLCHAIN=local
[[ $# -ge 1 ]] || { sed -n '2,17p' "$0" >&2; exit 2; }
GITROOT=$(cd "$1" && pwd)
shift
DATA=$ROOT/tools/renderer/internal/rdiff/testdata/real

KUSTOMIZE=$ROOT/.bin/kustomize
if [[ ! -x $KUSTOMIZE ]] || [[ $("$KUSTOMIZE" version 2>/dev/null) != v5.8.2 ]]; then
  GOBIN=$ROOT/.bin go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/rdiff-real.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

field() { sed -n "s/^$1: *//p" "$2"; }

# render GITDIR COMMIT DIR EXTRACT OUT: DIR of COMMIT's tree built into OUT.
render() {
  local tree=$TMP/tree
  rm -rf "$tree"
  mkdir -p "$tree"
  # shellcheck disable=SC2086 # EXTRACT is a list of paths
  git --git-dir="$1" archive "$2" $4 | tar -x -C "$tree"
  [[ -d $tree/$3 ]] || { echo "$3 is not in $2" >&2; exit 1; }
  "$KUSTOMIZE" build "$tree/$3" >"$5.tmp"
  mv "$5.tmp" "$5"
}

if [[ $# -gt 0 ]]; then
  sources=()
  for p in "$@"; do sources+=("$DATA/$p/SOURCE"); done
else
  sources=("$DATA"/*/*/SOURCE)
fi
for src in "${sources[@]}"; do
  pair=$(dirname "$src")
  repo=$(field repo "$src")
  gitdir=$GITROOT/${repo/\//+}/repo
  [[ -d $gitdir ]] || { echo "$src: no git directory $gitdir" >&2; exit 1; }
  dir=$(field dir "$src")
  extract=$(field extract "$src")
  extract=${extract:-${dir%%/*}}
  echo "${pair#"$DATA"/}: $repo $dir" >&2
  render "$gitdir" "$(field old "$src")" "$dir" "$extract" "$pair/old.yaml"
  render "$gitdir" "$(field new "$src")" "$dir" "$extract" "$pair/new.yaml"
done

# Each repository's licence, from the newest commit any of its pairs names.
for repodir in "$DATA"/*/; do
  src=$(ls "$repodir"*/SOURCE | head -1)
  repo=$(field repo "$src")
  gitdir=$GITROOT/${repo/\//+}/repo
  newest=$(for s in "$repodir"*/SOURCE; do field new "$s"; done |
    xargs git --git-dir="$gitdir" rev-list --no-walk --date-order | sed -n 1p)
  git --git-dir="$gitdir" show "$newest:LICENSE" >"$repodir/LICENSE"
done
