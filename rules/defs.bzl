"""Public API of rules_krm.

Only re-exports: the implementations live in `//rules/private`.
"""

load("//rules/private:providers.bzl", _KrmRendererInfo = "KrmRendererInfo")
load("//rules/private:toolchain.bzl", _krm_toolchain = "krm_toolchain")

KrmRendererInfo = _KrmRendererInfo
krm_toolchain = _krm_toolchain
