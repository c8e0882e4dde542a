"""Implementation of `krm_toolchain`."""

load(":providers.bzl", "KrmRendererInfo")

# The toolchain type that rules using the renderer declare in `toolchains`.
KRM_TOOLCHAIN_TYPE = "@rules_krm//rules:toolchain_type"

# For actions that run the toolchain's renderer: `ctx.actions.run(..., **RUN_WITH_TOOLCHAIN)`
# names the toolchain the executable comes from, as automatic exec groups require (Bazel 7's
# --incompatible_auto_exec_groups). Bazel 4.2.3 (WORKSPACE) has no such parameter; it has
# no config_common.toolchain_type either (both came with Bazel 6).
RUN_WITH_TOOLCHAIN = {"toolchain": KRM_TOOLCHAIN_TYPE} if hasattr(config_common, "toolchain_type") else {}

def _renderer_info(ctx, attr):
    if not getattr(ctx.attr, attr):
        return None
    return KrmRendererInfo(
        executable = getattr(ctx.executable, attr),
        files_to_run = getattr(ctx.attr, attr)[DefaultInfo].files_to_run,
    )

def _krm_toolchain_impl(ctx):
    return [
        platform_common.ToolchainInfo(
            renderer = _renderer_info(ctx, "renderer"),
            lean_renderer = _renderer_info(ctx, "lean_renderer"),
        ),
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

The default toolchain also has a lean renderer, `@rules_krm//tools/renderer:krm_nohelm`:
the same program without Helm linked in, which starts several times faster (Helm's Go
packages initialise at every start). `krm_kustomization` runs it for every action whose
inputs hold no helm chart (no `Chart.yaml` nor packaged `.tgz` among the `srcs` that action
reads), and `renderer` for the others.

The toolchain's `ToolchainInfo` has two fields, `renderer` and `lean_renderer` (None when
unset: `renderer` then runs every action), each a `KrmRendererInfo`.""",
    attrs = {
        "renderer": attr.label(
            doc = "The renderer executable: a binary target (such as a `go_binary`) or a prebuilt executable file. It is built for, and runs on, the execution platform.",
            mandatory = True,
            executable = True,
            allow_files = True,
            cfg = "exec",
        ),
        "lean_renderer": attr.label(
            doc = "Optional: a renderer built without Helm (such as `@rules_krm//tools/renderer:krm_nohelm`), run for the actions whose inputs hold no helm chart; it starts faster. Unset: `renderer` runs every action.",
            executable = True,
            allow_files = True,
            cfg = "exec",
        ),
    },
)
