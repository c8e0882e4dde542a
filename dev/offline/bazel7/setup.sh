#!/usr/bin/env bash
# Installs Bazel 7.7.1 for these offline machines, once (a second run only checks):
#   1. a Debian sid chroot (Bazel 7.7.1 needs a newer libc than bookworm) with Debian's
#      bazel-bootstrap, git and CA certificates: mmdebstrap from Debian's archive, about 1 min;
#   2. rules_go and gazelle from the Go module proxy (they are Go modules), for --override_module;
# Root, on the bookworm host. Nothing here is what a user with network needs.
set -euo pipefail
. "$(dirname "$0")/env.sh"
R=$B7_ROOT
mkdir -p "$KRM_BAZEL7_HOME"

if [ ! -x "$R/usr/bin/bazel" ]; then
  command -v mmdebstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap; }
  if [ ! -x "$R/usr/bin/apt-get" ]; then
    # sid's Release file can look expired against a machine's clock.
    mmdebstrap --variant=minbase --aptopt='Acquire::Check-Valid-Until "false"' \
      sid "$R" http://deb.debian.org/debian
  fi
  cp -L /etc/resolv.conf "$R/etc/resolv.conf"
  # Egress may pass a proxy whose CA only the host trusts.
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$R/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$R/usr/local/share/ca-certificates/"
  fi
  "$B7_HERE/mount.sh"
  chroot "$R" bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q bazel-bootstrap git ca-certificates && update-ca-certificates' >&2
fi
"$B7_HERE/mount.sh"

M=$KRM_BAZEL7_HOME/mods
stamp="$M/.done-$B7_RULES_GO-$B7_GAZELLE"
if [ ! -e "$stamp" ]; then
  # Empty it, not remove it: mount.sh has bound this very directory into the chroot, where a
  # new one of the same name would not be seen.
  mkdir -p "$M" "$KRM_BAZEL7_HOME/gomod"
  find "$M" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
  dl() {
    "$B7_HERE/inchroot.sh" "$KRM_BAZEL7_HOME/gomod" bash -c "GOFLAGS=-mod=mod go mod download -json $1" |
      sed -n 's/.*"Dir": "\(.*\)".*/\1/p'
  }
  cp -a "$R$(dl "github.com/bazelbuild/rules_go@$B7_RULES_GO")" "$M/rules_go"
  cp -a "$R$(dl "github.com/bazelbuild/bazel-gazelle@$B7_GAZELLE")" "$M/gazelle"
  # gazelle's go.work names ./v2, a Go module of its own that the release's zip lacks.
  cp -a "$R$(dl github.com/bazel-contrib/bazel-gazelle/v2@v2.0.0-3)" "$M/gazelle/v2"
  chmod -R u+w "$M"
  touch "$M/gazelle/v2/go.sum" # listed by gazelle's go_repository_tools_srcs.bzl
  # Module zips drop the executable bit.
  find "$M" -type f \( -name '*.sh' -o -name '*.bash' -o -name '*.py' \) -exec chmod +x {} +
  touch "$stamp"
fi
