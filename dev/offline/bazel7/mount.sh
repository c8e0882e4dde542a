#!/usr/bin/env bash
# mount.sh [DIR...]: binds /proc, /sys, /dev, the host's Go (read-only), $KRM_BAZEL7_HOME's
# mods, out and rc, /tmp, $TMPDIR, $HOME/.cache, this checkout and each DIR into the chroot at the
# same paths, so that paths (bazel-bin, output bases, workspaces) mean the same inside and out.
# Idempotent.
set -euo pipefail
. "$(dirname "$0")/env.sh"
R=$B7_ROOT
mountpoint -q "$R/proc" || mount -t proc proc "$R/proc"
mountpoint -q "$R/sys" || mount --rbind /sys "$R/sys"
mountpoint -q "$R/dev" || mount --rbind /dev "$R/dev"
goroot=$(go env GOROOT)
mkdir -p "$R$goroot"
mountpoint -q "$R$goroot" || mount --bind -o ro "$goroot" "$R$goroot"
echo "$goroot" >"$R/etc/host-goroot"
mkdir -p "$KRM_BAZEL7_HOME/mods" "$KRM_BAZEL7_HOME/out" "$KRM_BAZEL7_HOME/rc" "$KRM_BAZEL7_HOME/gomod" "$HOME/.cache"
checkout=$(cd "$B7_HERE/../../.." && pwd)
for d in "$KRM_BAZEL7_HOME/mods" "$KRM_BAZEL7_HOME/out" "$KRM_BAZEL7_HOME/rc" "$KRM_BAZEL7_HOME/gomod" /tmp ${TMPDIR:-} "$HOME/.cache" "$checkout" "$@"; do
  d=$(cd "$d" && pwd -P)
  # Already visible: the directory itself or one above it is bound. A bind whose source was
  # deleted since (a checkout removed and cloned again at the same path) still counts as a
  # mountpoint but shows the deleted directory, where Bazel's getcwd() fails: replace it.
  p=$d covered=0
  while [ "$p" != / ]; do
    if mountpoint -q "$R$p" && [ "$p" != /dev ] && [ "$p" != /sys ] && [ "$p" != /proc ]; then
      if [ "$(stat -c %d:%i "$p")" = "$(stat -c %d:%i "$R$p")" ]; then covered=1; break; fi
      umount -l "$R$p"
      continue
    fi
    p=$(dirname "$p")
  done
  [ $covered = 1 ] && continue
  mkdir -p "$R$d"
  mount --bind "$d" "$R$d"
done
