"""The module extension."""

load("//rules/private:rules.bzl", "x_ext")

x = module_extension(
    doc = "Declares things.",
    implementation = x_ext.implementation,
    tag_classes = x_ext.tag_classes,
)
