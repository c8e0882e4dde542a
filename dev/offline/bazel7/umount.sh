#!/usr/bin/env bash
# Unmounts everything under the chroot, deepest first (the chroot stays for the next run).
. "$(dirname "$0")/env.sh"
for m in $(findmnt -rn -o TARGET | grep "^$B7_ROOT/" | sort -r); do umount -l "$m" || true; done
