"""Implementation of `krm_toolchain`."""

load(":providers.bzl", "KrmRendererInfo")

# The toolchain type that rules using the renderer declare in `toolchains`.
KRM_TOOLCHAIN_TYPE = "@rules_krm//rules:toolchain_type"

def _krm_toolchain_impl(ctx):
    renderer = KrmRendererInfo(
        executable = ctx.executable.renderer,
        files_to_run = ctx.attr.renderer[DefaultInfo].files_to_run,
    )
    return [
        platform_common.ToolchainInfo(renderer = renderer),
    ]

krm_toolchain = rule(
    implementation = _krm_toolchain_impl,
    doc = """Declares a krm renderer for the `@rules_krm//rules:toolchain_type` toolchain type.

rules_krm registers a default toolchain that builds the renderer from source
(`@rules_krm//tools/renderer:krm`). To use a prebuilt renderer instead, declare a
`krm_toolchain` and a `toolchain` for it, and register that toolchain before the
default one (toolchains registered first win):

```starlark
load("@rules_krm//rules:defs.bzl", "krm_toolchain")

krm_toolchain(
    name = "prebuilt_krm",
    renderer = "@my_prebuilt_krm//:krm",
)

toolchain(
    name = "prebuilt_krm_toolchain",
    exec_compatible_with = ["@platforms//os:linux", "@platforms//cpu:x86_64"],
    toolchain = ":prebuilt_krm",
    toolchain_type = "@rules_krm//rules:toolchain_type",
)
```

The toolchain's `ToolchainInfo` has one field, `renderer`, a `KrmRendererInfo`.""",
    attrs = {
        "renderer": attr.label(
            doc = "The renderer executable: a binary target (such as a `go_binary`) or a prebuilt executable file. It is built for, and runs on, the execution platform.",
            mandatory = True,
            executable = True,
            allow_files = True,
            cfg = "exec",
        ),
    },
)
