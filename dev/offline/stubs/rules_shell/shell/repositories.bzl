"""Stub of rules_shell's WORKSPACE macros for machines without a registry: the native shell
rules need no repositories and no toolchains."""

# buildifier: disable=unnamed-macro
def rules_shell_dependencies():
    pass

# buildifier: disable=unnamed-macro
def rules_shell_toolchains():
    pass
