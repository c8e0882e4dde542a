#!/usr/bin/env bash
# Installs the Bazel the tests run: Bazel 7.7.1 with bzlmod. On these machines (no registry
# but the Go module proxy and Debian's archive) that is Debian's bazel-bootstrap 7.7.1 in a
# sid chroot, run through dev/offline/bazel7/bin/bazel (dev/offline/bazel7/setup.sh,
# about two minutes the first time; a second run only checks). With KRM_OFFLINE=0 it checks
# that `bazel` (Bazel 7.7.1 or newer, e.g. bazelisk with .bazelversion) is on PATH.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [[ ${KRM_OFFLINE:-1} == 1 ]]; then
  exec "$ROOT/dev/offline/bazel7/setup.sh"
fi
command -v bazel >/dev/null || { echo "install-bazel.sh: no bazel on PATH (KRM_OFFLINE=0)" >&2; exit 1; }
