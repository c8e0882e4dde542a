"""Implementations."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load(":providers.bzl", "XInfo")

_COMMON = {
    "srcs": attr.label_list(doc = "The sources | all of them.", allow_files = True),
    "_tool": attr.label(default = Label("//tools:x")),
}

def _impl(ctx):
    return [XInfo(srcs = depset(ctx.files.srcs), label = ctx.label), DefaultInfo()]

x_lib = rule(
    implementation = _impl,
    doc = "Builds x.",
    attrs = dict(_COMMON, **{
        "mode": attr.string(doc = "How.", default = "fast", values = ["fast", "slow"]),
        "dep": attr.label(doc = "A dep.", mandatory = True, providers = [BuildSettingInfo]),
        "n": attr.int(doc = "How many."),
    }),
)

def x_macro(name, srcs = [], *args, **kwargs):
    """Declares x_lib `name`.

    More about it.

    Args:
      name: the target.
      srcs: the sources,
        over two lines.
      *args: ignored.
      **kwargs: common attributes.
    """
    x_lib(name = name, srcs = srcs, **kwargs)

_tag = tag_class(
    doc = "Sets the version.",
    attrs = {"version": attr.string(doc = "The version.")},
)

x_ext = struct(implementation = lambda mctx: None, tag_classes = {"pin": _tag})
