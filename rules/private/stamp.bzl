"""Opt-in stamping for `krm_kustomization`: workspace status values in a final `KrmStamp` action."""

load(":providers.bzl", "KrmStampInfo")
load(":toolchain.bzl", "RUN_TOOLCHAIN_KWARGS")

def _krm_stamp_setting_impl(ctx):
    return [KrmStampInfo(stamp = ctx.attr.stamp)]

# `@rules_krm//rules:stamp` is one of these with `stamp = select()` on `--stamp`: a Starlark
# rule has no public API that reads the flag.
krm_stamp_setting = rule(
    implementation = _krm_stamp_setting_impl,
    doc = "Whether the build runs with `--stamp` (`stamp` is a select on a config_setting).",
    attrs = {
        "stamp": attr.bool(doc = "True under `--stamp`."),
    },
)

STAMP_ATTR = attr.int(
    doc = "Stamping of the manifests: `-1` (default) stamps when Bazel runs with `--stamp`, `1` always, `0` never. Stamping replaces `{STABLE_...}` and `{BUILD_...}` placeholders in label and annotation values and `image` fields of the final manifests with the values of Bazel's workspace status (`--workspace_status_command`) in a separate `KrmStamp` action writing `<name>_manifests.stamped.yaml`, which becomes the target's manifests (default output, output group `manifests`); the render action, the snapshot and the unstamped `<name>_manifests.yaml` are the same as without stamping, so they stay deterministic and share cache entries. Without stamping the placeholders stay as written. A base's snapshot is never stamped; each kustomization stamps its own manifests.",
    default = -1,
    values = [-1, 0, 1],
)

STAMP_FLAG_ATTR = attr.label(
    default = Label("//rules:stamp"),
    providers = [KrmStampInfo],
)

def stamping(ctx):
    """Whether a target stamps: its `stamp` attribute, `-1` following `--stamp` (`_stamp_flag`).

    Args:
      ctx: the rule context of a rule with `stamp` and `_stamp_flag` attributes.

    Returns:
      True when it stamps.
    """
    if ctx.attr.stamp == -1:
        return ctx.attr._stamp_flag[KrmStampInfo].stamp
    return ctx.attr.stamp == 1

def stamp_manifests(ctx, renderer, manifests, what):
    """With stamping, adds the `KrmStamp` action writing `<name>_manifests.stamped.yaml`.

    The render action is the same with and without stamping (it writes the unstamped
    `<name>_manifests.yaml`), so stamped and unstamped builds share its cache entries.

    Args:
      ctx: the rule context of a `krm_kustomization_rule`.
      renderer: the toolchain's KrmRendererInfo.
      manifests: the unstamped manifests the render action writes.
      what: the kustomization, for the progress message.

    Returns:
      The manifests the target provides: the stamped file, or `manifests` without stamping.
    """
    if not stamping(ctx):
        return manifests
    stamped = ctx.actions.declare_file(ctx.label.name + "_manifests.stamped.yaml")
    args = ctx.actions.args()
    args.add("stamp")
    args.add(manifests)
    args.add("-o", stamped)

    # A change of a stable key re-runs this action; a change of volatile ones alone
    # (BUILD_TIMESTAMP...) does not: Bazel ignores ctx.version_file changes on their own.
    args.add("--status", ctx.info_file)
    args.add("--status", ctx.version_file)
    ctx.actions.run(
        executable = renderer.files_to_run,
        arguments = [args],
        inputs = [manifests, ctx.info_file, ctx.version_file],
        outputs = [stamped],
        mnemonic = "KrmStamp",
        progress_message = "Stamping the manifests of %s" % what,
        **RUN_TOOLCHAIN_KWARGS
    )
    return stamped
