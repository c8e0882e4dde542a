#!/usr/bin/env bash
# inchroot.sh DIR CMD...: runs CMD in the chroot, in DIR (bound at the same path), with the host's Go.
set -e
. "$(dirname "$0")/env.sh"
dir=$1; shift
goroot=$(cat "$B7_ROOT/etc/host-goroot")
exec chroot "$B7_ROOT" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
  PATH="$goroot/bin:/usr/sbin:/usr/bin:/sbin:/bin" GOTOOLCHAIN=local \
  ${GOPROXY:+GOPROXY=$GOPROXY} ${GOFLAGS:+GOFLAGS=$GOFLAGS} \
  bash -c 'cd "$0" && exec "$@"' "$dir" "$@"
