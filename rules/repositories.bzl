"""WORKSPACE helpers of rules_krm.

Users of bzlmod need none of this: rules_krm's MODULE.bazel declares its dependencies and
registers its toolchains (the prebuilt renderer, rules/extensions.bzl). WORKSPACE setups build
the renderer from source.
"""

load("//:deps.bzl", "go_dependencies")

# buildifier: disable=unnamed-macro
def rules_krm_dependencies():
    """Declares the Go modules that rules_krm's renderer is built from (`go_repository` rules).

    Call it in WORKSPACE before `go_rules_dependencies()` and `gazelle_dependencies()`, so
    that the versions the renderer is tested with win. Needs `@bazel_gazelle` (for
    `go_repository`) to be declared first.
    """
    go_dependencies()

# buildifier: disable=unnamed-macro
def rules_krm_register_toolchains():
    """Registers rules_krm's toolchain that builds the renderer from source (`source_toolchain`).

    Call it in WORKSPACE after the Go rules are set up (rules_go's and gazelle's
    dependencies and `go_register_toolchains()`). To use a prebuilt renderer, register
    your own `krm_toolchain`-based toolchain before calling this.
    """
    native.register_toolchains("@rules_krm//rules:source_toolchain")
