"""Implementation of `krm_function`: an executable declared as a KRM function."""

load(":providers.bzl", "KrmFunctionInfo")

def _krm_function_impl(ctx):
    binary = ctx.attr.binary[DefaultInfo]
    executable = ctx.executable.binary
    return [
        KrmFunctionInfo(
            label = ctx.label,
            executable = executable,
            files_to_run = binary.files_to_run,
        ),
        DefaultInfo(
            files = depset([executable]),
            runfiles = binary.default_runfiles,
        ),
    ]

krm_function = rule(
    implementation = _krm_function_impl,
    doc = """Declares an executable as an exec KRM function for `krm_kustomization`.

A kustomization names an exec function by path in its function config:

```yaml
apiVersion: example.com/v1
kind: SetTeam
metadata:
  name: set-team
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ./fn/set-team
spec:
  team: payments
```

Under Bazel only declared executables run: wrap the executable (a `go_binary`, an
`sh_binary`, a prebuilt file, ...) in a `krm_function` and map the path to it in the
`functions` attribute of the `krm_kustomization`:

```starlark
load("@rules_krm//rules:defs.bzl", "krm_function", "krm_kustomization")

krm_function(
    name = "set_team",
    binary = "//tools/set_team",  # a go_binary
)

krm_kustomization(
    name = "prod",
    srcs = ["kustomization.yaml", "set-team.yaml", ...],
    functions = {"./fn/set-team": ":set_team"},
)
```

The render action then has the executable and its runfiles as a tool and runs it (in the
kustomization directory, with the ResourceList on stdin) wherever a function config of that
kustomization names `./fn/set-team`; nothing needs to exist at that path. Editing the
function's sources re-renders exactly the kustomizations that use it.

Provides `KrmFunctionInfo`; its default outputs are the executable.""",
    attrs = {
        "binary": attr.label(
            doc = "The executable: a binary target (`go_binary`, `sh_binary`, ...) or an executable file. It is built for, and runs on, the execution platform; its runfiles come with it.",
            mandatory = True,
            executable = True,
            allow_files = True,
            cfg = "exec",
        ),
    },
    provides = [KrmFunctionInfo],
)
