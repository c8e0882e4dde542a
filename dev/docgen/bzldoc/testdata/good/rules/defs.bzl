"""Public API: only re-exports."""

load("//rules/private:rules.bzl", _x_lib = "x_lib", _x_macro = "x_macro")
load("//rules/private:providers.bzl", _XInfo = "XInfo")

x_lib = _x_lib
x_macro = _x_macro
XInfo = _XInfo
