"""Implementation of `krm_toolchain`."""

load(":providers.bzl", "KrmRendererInfo")

# The toolchain type that rules using the renderer declare in `toolchains`.
KRM_TOOLCHAIN_TYPE = "@rules_krm//rules:toolchain_type"

# Extra arguments of the ctx.actions.run calls that run the toolchain's renderer: the
# toolchain it comes from, so that with automatic exec groups (--incompatible_auto_exec_groups)
# the action runs on that toolchain's execution platform (a prebuilt renderer is a source
# file: Bazel cannot tell where it comes from).
RUN_TOOLCHAIN_KWARGS = {"toolchain": KRM_TOOLCHAIN_TYPE}

def tool_executable(ctx, tool):
    """The executable of a test or `bazel run` target that is a tool itself: a symlink to it under the target's name.

    Args:
      ctx: the rule context.
      tool: the File to run (`.exe` on Windows, which the link keeps).

    Returns:
      The declared File.
    """
    exe = ctx.actions.declare_file(ctx.label.name + (".exe" if tool.extension == "exe" else ""))
    ctx.actions.symlink(output = exe, target_file = tool, is_executable = True)
    return exe

def _renderer_info(ctx, attr):
    if not getattr(ctx.attr, attr):
        return None
    return KrmRendererInfo(
        executable = getattr(ctx.executable, attr),
        files_to_run = getattr(ctx.attr, attr)[DefaultInfo].files_to_run,
    )

def _krm_toolchain_impl(ctx):
    checker = ctx.attr.golden_checker
    return [
        platform_common.ToolchainInfo(
            renderer = _renderer_info(ctx, "renderer"),
            lean_renderer = _renderer_info(ctx, "lean_renderer"),
            golden_checker = struct(
                executable = ctx.executable.golden_checker,
                runfiles = checker[DefaultInfo].default_runfiles,
            ),
        ),
    ]

krm_toolchain = rule(
    implementation = _krm_toolchain_impl,
    doc = """Declares a krm renderer for the `@rules_krm//rules:toolchain_type` toolchain type.

rules_krm's MODULE.bazel registers a prebuilt renderer per platform (the `krm` module
extension, `@rules_krm//rules:extensions.bzl`); `@rules_krm//rules:source_toolchain` builds
it from source (`@rules_krm//tools/renderer:krm`). To use another renderer, declare a
`krm_toolchain` and a `toolchain` for it, and register that toolchain in your MODULE.bazel
(the root module's toolchains come first):

```starlark
load("@rules_krm//rules:defs.bzl", "krm_toolchain")

krm_toolchain(
    name = "my_krm",
    renderer = "@my_prebuilt_krm//:krm",
)

toolchain(
    name = "my_krm_toolchain",
    exec_compatible_with = ["@platforms//os:linux", "@platforms//cpu:x86_64"],
    toolchain = ":my_krm",
    toolchain_type = "@rules_krm//rules:toolchain_type",
)
```

The toolchains of rules_krm also have a lean renderer, `@rules_krm//tools/renderer:krm_nohelm`:
the same program without Helm linked in, which starts several times faster (Helm's Go
packages initialise at every start). `krm_kustomization` runs it for every action whose
inputs hold no helm chart (no `Chart.yaml` nor packaged `.tgz` among the `srcs` that action
reads), and `renderer` for the others.

The toolchain's `ToolchainInfo` has three fields: `renderer` and `lean_renderer` (None when
unset: `renderer` then runs every action), each a `KrmRendererInfo`, and `golden_checker`, a
`struct(executable, runfiles)`: the program `krm_golden_test` and the update targets run.""",
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
        "golden_checker": attr.label(
            doc = "The program `krm_golden_test`, `krm_golden_update` and `krm_golden_update_all` run (built from `@rules_krm//rules/private/golden`, the default; the prebuilt toolchains ship it as `krm_golden`). It runs as a test, on the target platform.",
            default = Label("//rules/private/golden"),
            executable = True,
            allow_files = True,
            cfg = "target",
        ),
    },
)
