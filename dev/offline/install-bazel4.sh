#!/usr/bin/env bash
# Legacy (WORKSPACE mode, no longer in CI): installs Debian bookworm's bazel-bootstrap (Bazel 4.2.3) plus the
# Debian-packaged rule sets that WORKSPACE points at (skylib, platforms, rules_java).
# Needs root (no sudo). Does nothing when `bazel` is on PATH and those rule sets are there.
set -euo pipefail

have_all=1
command -v bazel >/dev/null 2>&1 || have_all=0
for d in /usr/share/bazel/tools/skylib /usr/share/bazel/tools/platforms /usr/share/bazel/rules/java; do
  [ -d "$d" ] || have_all=0
done
if [ "$have_all" = 1 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-bazel.sh: bazel is missing and this script must run as root to install it" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y \
  bazel-bootstrap bazel-skylib bazel-platforms bazel-rules-java

command -v bazel >/dev/null
