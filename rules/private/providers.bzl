"""Providers of rules_krm."""

KrmRendererInfo = provider(
    doc = """The krm renderer that a `krm_toolchain` supplies.

Rules reach it through the toolchain:
`ctx.toolchains["@rules_krm//rules:toolchain_type"].renderer`, and run it with
`ctx.actions.run(executable = renderer.files_to_run, ...)`.""",
    fields = {
        "executable": "File: the renderer executable (built for the exec configuration).",
        "files_to_run": "FilesToRunProvider: the renderer with its runfiles; pass it as `executable` to `ctx.actions.run`.",
    },
)
