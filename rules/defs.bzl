"""Public API of rules_krm.

Only re-exports: the implementations live in `//rules/private`. Reference: docs/rules.md.
"""

load("//rules/private:deliver.bzl", _krm_deliver = "krm_deliver")
load("//rules/private:function.bzl", _krm_function = "krm_function")
load(
    "//rules/private:golden.bzl",
    _krm_golden_test = "krm_golden_test",
    _krm_golden_update = "krm_golden_update",
    _krm_golden_update_all = "krm_golden_update_all",
    _krm_golden_update_all_rule = "krm_golden_update_all_rule",
)
load("//rules/private:images.bzl", _krm_image = "krm_image")
load(
    "//rules/private:kustomization.bzl",
    _krm_kustomization = "krm_kustomization",
    _krm_kustomization_rule = "krm_kustomization_rule",
)
load(
    "//rules/private:providers.bzl",
    _KrmFunctionInfo = "KrmFunctionInfo",
    _KrmGoldenInfo = "KrmGoldenInfo",
    _KrmImageInfo = "KrmImageInfo",
    _KrmKustomizationInfo = "KrmKustomizationInfo",
    _KrmRendererInfo = "KrmRendererInfo",
)
load("//rules/private:publish.bzl", _krm_publish = "krm_publish")
load("//rules/private:toolchain.bzl", _krm_toolchain = "krm_toolchain")
load("//rules/private:validate.bzl", _krm_validate_test = "krm_validate_test")

krm_deliver = _krm_deliver
krm_function = _krm_function
krm_image = _krm_image
krm_kustomization = _krm_kustomization
krm_kustomization_rule = _krm_kustomization_rule
krm_golden_test = _krm_golden_test
krm_golden_update = _krm_golden_update
krm_golden_update_all = _krm_golden_update_all
krm_golden_update_all_rule = _krm_golden_update_all_rule
krm_publish = _krm_publish
krm_toolchain = _krm_toolchain
krm_validate_test = _krm_validate_test
KrmFunctionInfo = _KrmFunctionInfo
KrmGoldenInfo = _KrmGoldenInfo
KrmImageInfo = _KrmImageInfo
KrmKustomizationInfo = _KrmKustomizationInfo
KrmRendererInfo = _KrmRendererInfo
