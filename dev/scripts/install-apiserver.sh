#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager and etcd from the Go module proxy for the tests that need a real API
# server (dev/testing/apiserver, `go test -tags apiserver`). The versions are those of the
# modules in dev/testing/apiserver/build/{kube-apiserver,etcd}: their go.mod and go.sum pin
# them (docs/apiserver.md says how to bump); kube-controller-manager is a package of the
# kube-apiserver module, built in the same go build from the same k8s.io/kubernetes. Nothing prebuilt is downloaded.
#
# The binaries go to $KRM_APISERVER_BIN, default ${KRM_APISERVER_HOME:-/var/cache/rules_krm-apiserver}/bin,
# where the harness looks for them. Does nothing when that directory holds binaries built from
# the same go.mod and go.sum. Cold, kube-apiserver takes about 10 minutes on 2 cores.
# Prints the directory.
set -euo pipefail
export GOTOOLCHAIN=local
export GOFLAGS=-mod=readonly

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
src=$PWD/dev/testing/apiserver/build
bin=${KRM_APISERVER_BIN:-${KRM_APISERVER_HOME:-/var/cache/rules_krm-apiserver}/bin}

if ! mkdir -p "$bin" 2>/dev/null || [ ! -w "$bin" ]; then
  echo "install-apiserver.sh: cannot write $bin: set KRM_APISERVER_HOME (or KRM_APISERVER_BIN) to a writable directory" >&2
  exit 1
fi

# build NAME MODULE LDFLAGS [PACKAGE=BINARY...]: builds the module in $src/NAME (each
# PACKAGE of it into $bin/BINARY; default . into $bin/NAME) in one go build, unless the stamps
# next to the binaries name the same module version and go.mod/go.sum. One go build shares one
# link of the module's packages and one build cache: kube-controller-manager costs what its
# own packages do beside kube-apiserver.
build() {
  local name=$1 module=$2 ldflags=$3
  shift 3
  local targets=("$@") dir=$src/$name version stamp
  [ ${#targets[@]} -gt 0 ] || targets=(".=$name")
  version=$(cd "$dir" && go list -m -f '{{.Version}}' "$module")
  stamp="$module $version $(cat "$dir/go.mod" "$dir/go.sum" | sha256sum | cut -d' ' -f1)"
  local t pkgs=() bins=() fresh=1
  for t in "${targets[@]}"; do
    pkgs+=("${t%%=*}")
    bins+=("${t#*=}")
    if [ ! -x "$bin/${t#*=}" ] || [ "$(cat "$bin/.${t#*=}.stamp" 2>/dev/null)" != "$stamp" ]; then
      fresh=0
    fi
  done
  if [ $fresh = 1 ]; then
    echo "install-apiserver.sh: ${bins[*]} $version up to date" >&2
    return
  fi
  echo "install-apiserver.sh: building ${bins[*]} $version (kube-apiserver and kube-controller-manager: about 10 and 5 minutes cold on 2 cores)" >&2
  local start=$SECONDS tmp=$bin/.$name.tmp
  # Written next to the final binaries and renamed: an interrupted build leaves no binary.
  rm -rf "$tmp" && mkdir -p "$tmp"
  (cd "$dir" && nice -n 10 go build -trimpath -ldflags "$ldflags" -o "$tmp/" "${pkgs[@]}")
  local i
  for i in "${!pkgs[@]}"; do
    local out=$tmp/$(basename "$(cd "$dir" && go list -f '{{.ImportPath}}' "${pkgs[$i]}")")
    mv -f "$out" "$bin/${bins[$i]}"
    echo "$stamp" >"$bin/.${bins[$i]}.stamp"
  done
  rm -rf "$tmp"
  echo "install-apiserver.sh: built ${bins[*]} $version in $((SECONDS - start)) s" >&2
}

build etcd go.etcd.io/etcd/server/v3 ""

# A real version string (the default is v0.0.0-master): /version and the emulation version
# the server derives from it match the release.
kube_version=$(cd "$src/kube-apiserver" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
IFS=. read -r kube_major kube_minor _ <<<"${kube_version#v}"
vpkg=k8s.io/component-base/version
build kube-apiserver k8s.io/kubernetes \
  "-X $vpkg.gitVersion=$kube_version -X $vpkg.gitMajor=$kube_major -X $vpkg.gitMinor=$kube_minor -X $vpkg.gitTreeState=clean" \
  .=kube-apiserver ./kube-controller-manager=kube-controller-manager

echo "$bin"
