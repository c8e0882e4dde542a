# Sourced by the scripts beside it. Each variable can be set in the environment.
# KRM_BAZEL7_HOME holds the chroot (root/), the Go module copies of rules_go and gazelle
# (mods/), Bazel's output user root (out/) and the generated bazelrc. It is outside /tmp
# so that /tmp can be bound into the chroot.
KRM_BAZEL7_HOME=${KRM_BAZEL7_HOME:-/var/cache/rules_krm-bazel7}
B7_ROOT=$KRM_BAZEL7_HOME/root
B7_RULES_GO=${B7_RULES_GO:-v0.63.0}
B7_GAZELLE=${B7_GAZELLE:-v0.53.0}
B7_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
