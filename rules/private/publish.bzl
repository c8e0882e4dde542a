"""Implementation of `krm_publish`: a `bazel run` target publishing rendered manifests to a git branch.

Its executable is the toolchain's renderer itself (`krm publish`), under the target's name,
reading its arguments from `<executable>.krmargs` beside it (one a line), as
`krm_validate_test` does: no shell. The arguments given to `bazel run` come after them.
"""

load(":kustomization.bzl", "label_string")
load(":providers.bzl", "KrmKustomizationInfo")
load(":stamp.bzl", "STAMP_FLAG_ATTR", "stamping")
load(":toolchain.bzl", "KRM_TOOLCHAIN_TYPE", "tool_executable")

def _deployment_path(target, label):
    # The deployment's directory in the branch: its package and name (docs/publish.md).
    if label.workspace_name:
        fail("%s: %s is in another repository: krm_publish publishes the main repository's kustomizations (their directory in the branch is their package and name)" % (label_string(target), label_string(label)), attr = "kustomizations")
    return label.package + "/" + label.name if label.package else label.name

def _line(ctx, value):
    # One argument a line: a value with a line break would be two.
    if "\n" in value or "\r" in value:
        fail("%s: %r must be on one line" % (label_string(ctx.label), value))
    return value + "\n"

def _krm_publish_impl(ctx):
    toolchain = ctx.toolchains[KRM_TOOLCHAIN_TYPE]

    # Publishing inflates no chart: the lean renderer starts faster.
    renderer = getattr(toolchain, "lean_renderer", None) or toolchain.renderer
    exe = tool_executable(ctx, renderer.executable)

    lines = ["publish\n"]
    files = [exe]
    labels = []
    paths = {}
    for k in ctx.attr.kustomizations:
        info = k[KrmKustomizationInfo]
        if not info.manifests:
            fail("%s is a Component: it has no manifests to publish" % label_string(info.label), attr = "kustomizations")
        path = _deployment_path(ctx.label, info.label)
        if path in paths:
            fail("%s is listed twice" % label_string(info.label), attr = "kustomizations")
        paths[path] = True
        labels.append(label_string(info.label))

        # `bazel run` starts in the main repository's runfiles, where short_path leads to it.
        lines.append(_line(ctx, "%s=%s" % (path, info.manifests.short_path)))
        files.append(info.manifests)
    stamp = stamping(ctx)
    lines.append(_line(ctx, "--command=bazel build %s%s" % ("--stamp " if stamp else "", " ".join(labels))))
    if stamp:
        # The source commit from the workspace status (--source-commit-key), when it has it.
        for f in [ctx.info_file, ctx.version_file]:
            lines.append(_line(ctx, "--status=" + f.short_path))
            files.append(f)
        lines.append(_line(ctx, "--source-commit-key=" + ctx.attr.source_commit_key))
    args = ctx.actions.declare_file(ctx.label.name + ".krmargs")
    ctx.actions.write(args, "".join(lines))
    files.append(args)
    return [DefaultInfo(
        executable = exe,
        files = depset([exe]),
        runfiles = ctx.runfiles(files = files),
    )]

krm_publish = rule(
    implementation = _krm_publish_impl,
    doc = """`bazel run` target that publishes the rendered manifests of `kustomizations` to a git branch (`krm publish`).

Each kustomization's manifests (stamped under stamping) become `<package>/<name>/manifest.yaml`
in the branch, the branch's root gets `hydrator.metadata` (the source commit as `drySha`: the
GitOps Promoter hydrator contract), a `manifest.yaml` of a deployment no longer listed is
removed, and one commit is pushed when anything changed; on an error nothing is pushed. The
repository and branch are `bazel run` arguments (or the target's `args`):

```sh
bazel run //deploy:publish -- --repo git@github.com:org/deploy.git --branch env/prod --next
```

The source commit is `HEAD` of the workspace (`$BUILD_WORKSPACE_DIRECTORY`), which must have
no uncommitted changes to tracked files; under stamping, the workspace status key
`source_commit_key` when the status has it; or `--source-commit SHA`. Needs `git` on `PATH`
when it runs. Layout, metadata and flags: docs/publish.md.""",
    attrs = {
        "kustomizations": attr.label_list(
            doc = "The `krm_kustomization` targets (of kind `Kustomization`, in the main repository) to publish; each is a deployment whose directory in the branch is its package and name (`//deploy:prod` → `deploy/prod/manifest.yaml`).",
            mandatory = True,
            allow_empty = False,
            providers = [KrmKustomizationInfo],
        ),
        "source_commit_key": attr.string(
            doc = "Under stamping, the workspace status key holding the source commit (a full SHA), for example printed by `echo STABLE_GIT_COMMIT $(git rev-parse HEAD)` in the `--workspace_status_command`.",
            default = "STABLE_GIT_COMMIT",
        ),
        "stamp": attr.int(
            doc = "Whether the workspace status is read for the source commit: `-1` (default) when Bazel runs with `--stamp`, `1` always, `0` never. The kustomizations' manifests are stamped by their own `stamp` attribute.",
            default = -1,
            values = [-1, 0, 1],
        ),
        "_stamp_flag": STAMP_FLAG_ATTR,
    },
    executable = True,
    toolchains = [KRM_TOOLCHAIN_TYPE],
)
