#!/usr/bin/env bash
# Builds kube-apiserver and etcd from the Go module proxy for the tests that need a real API
# server (dev/testing/apiserver, `go test -tags apiserver`). The versions are those of the
# modules in dev/testing/apiserver/build/{kube-apiserver,etcd}: their go.mod and go.sum pin
# them (docs/apiserver.md says how to bump). Nothing prebuilt is downloaded.
#
# The binaries go to $KRM_APISERVER_BIN, default ${KRM_APISERVER_HOME:-/var/cache/rules_krm-apiserver}/bin,
# where the harness looks for them. Does nothing when that directory holds binaries built from
# the same go.mod and go.sum. Cold, kube-apiserver takes about 10 minutes on 2 cores.
# Prints the directory.
set -euo pipefail
export GOTOOLCHAIN=local
export GOFLAGS=-mod=readonly

cd "$(dirname "${BASH_SOURCE[0]}")/.."
src=$PWD/dev/testing/apiserver/build
bin=${KRM_APISERVER_BIN:-${KRM_APISERVER_HOME:-/var/cache/rules_krm-apiserver}/bin}

if ! mkdir -p "$bin" 2>/dev/null || [ ! -w "$bin" ]; then
  echo "install-apiserver.sh: cannot write $bin: set KRM_APISERVER_HOME (or KRM_APISERVER_BIN) to a writable directory" >&2
  exit 1
fi

# build NAME MODULE [LDFLAGS]: builds $src/NAME into $bin/NAME unless the stamp next to it
# names the same module version and go.mod/go.sum.
build() {
  local name=$1 module=$2 ldflags=${3:-}
  local dir=$src/$name version stamp
  version=$(cd "$dir" && go list -m -f '{{.Version}}' "$module")
  stamp="$module $version $(cat "$dir/go.mod" "$dir/go.sum" | sha256sum | cut -d' ' -f1)"
  if [ -x "$bin/$name" ] && [ "$(cat "$bin/.$name.stamp" 2>/dev/null)" = "$stamp" ]; then
    echo "install-apiserver.sh: $name $version is up to date" >&2
    return
  fi
  echo "install-apiserver.sh: building $name $version (kube-apiserver: about 10 minutes cold on 2 cores)" >&2
  local start=$SECONDS
  # Written next to the final binary and renamed: an interrupted build leaves no binary.
  (cd "$dir" && nice -n 10 go build -trimpath -ldflags "$ldflags" -o "$bin/.$name.tmp" .)
  mv -f "$bin/.$name.tmp" "$bin/$name"
  echo "$stamp" >"$bin/.$name.stamp"
  echo "install-apiserver.sh: built $name $version in $((SECONDS - start)) s" >&2
}

build etcd go.etcd.io/etcd/server/v3

# A real version string (the default is v0.0.0-master): /version and the emulation version
# the server derives from it match the release.
kube_version=$(cd "$src/kube-apiserver" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
IFS=. read -r kube_major kube_minor _ <<<"${kube_version#v}"
vpkg=k8s.io/component-base/version
build kube-apiserver k8s.io/kubernetes \
  "-X $vpkg.gitVersion=$kube_version -X $vpkg.gitMajor=$kube_major -X $vpkg.gitMinor=$kube_minor -X $vpkg.gitTreeState=clean"

echo "$bin"
