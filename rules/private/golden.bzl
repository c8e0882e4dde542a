"""Implementation of `krm_golden_test` and `krm_golden_update`.

Both run the small Go program //rules/private/golden (no shell, so they also work where
there is none), which the krm toolchain supplies (`golden_checker`: built from source, or
the prebuilt `krm_golden`). A rule cannot give its executable arguments in every Bazel from 4.2 on,
so the program reads them from a file next to itself: `<executable>.krmgolden`.
"""

load(":kustomization.bzl", "kustomization_with_manifests", "label_string", "manifests_attr")
load(":providers.bzl", "KrmGoldenInfo")
load(":toolchain.bzl", "KRM_TOOLCHAIN_TYPE", "tool_executable")

def _rlocation(ctx, f):
    # The runfiles path of f: <repository>/<path in repository>.
    if f.short_path.startswith("../"):
        return f.short_path[3:]
    return ctx.workspace_name + "/" + f.short_path

def _golden_impl(ctx, mode):
    info = kustomization_with_manifests(ctx, "compare")
    golden = ctx.file.golden
    exe, checker_runfiles = _checker_exe(ctx)

    # The golden's path in the source tree, for `bazel run`: only for a source file of the
    # main repository.
    source = golden.short_path if golden.is_source and not golden.short_path.startswith("../") else ""
    test_label = label_string(ctx.label)
    if mode == "update":
        update_label = test_label
    else:
        update_label = test_label + ".update"
    config = ctx.actions.declare_file(ctx.label.name + ".krmgolden")
    ctx.actions.write(config, "".join([
        "mode=%s\n" % mode,
        "manifests=%s\n" % _rlocation(ctx, info.manifests),
        "golden=%s\n" % _rlocation(ctx, golden),
        "golden_source=%s\n" % source,
        "kustomization=%s\n" % label_string(info.label),
        "update=%s\n" % update_label,
    ]))
    runfiles = ctx.runfiles(files = [exe, config, info.manifests, golden]).merge(checker_runfiles)
    providers = [DefaultInfo(executable = exe, files = depset([exe]), runfiles = runfiles)]
    if mode == "update" and source:
        providers.append(KrmGoldenInfo(goldens = depset([struct(
            manifests = info.manifests,
            golden = golden,
            source = source,
            kustomization = label_string(info.label),
        )])))
    return providers

def _checker_exe(ctx):
    # The executable is the toolchain's checker itself, under this target's name; and the
    # checker's runfiles.
    checker = ctx.toolchains[KRM_TOOLCHAIN_TYPE].golden_checker
    return tool_executable(ctx, checker.executable), checker.runfiles

def _krm_golden_update_all_impl(ctx):
    goldens = depset(transitive = [u[KrmGoldenInfo].goldens for u in ctx.attr.updates])
    exe, checker_runfiles = _checker_exe(ctx)
    config = ctx.actions.declare_file(ctx.label.name + ".krmgolden")
    entries = goldens.to_list()
    ctx.actions.write(config, "".join(
        ["mode=update-all\n", "update=%s\n" % label_string(ctx.label)] +
        ["entry=%s\t%s\t%s\n" % (_rlocation(ctx, g.manifests), g.source, g.kustomization) for g in entries],
    ))
    runfiles = ctx.runfiles(files = [exe, config] + [g.manifests for g in entries]).merge(checker_runfiles)
    return [
        DefaultInfo(executable = exe, files = depset([exe]), runfiles = runfiles),
        KrmGoldenInfo(goldens = goldens),
    ]

_ATTRS = {
    "kustomization": manifests_attr("checked"),
    "golden": attr.label(
        doc = "The checked-in file holding the expected manifests.",
        mandatory = True,
        allow_single_file = True,
    ),
}

def _krm_golden_test_impl(ctx):
    return _golden_impl(ctx, "test")

def _krm_golden_update_impl(ctx):
    return _golden_impl(ctx, "update")

_krm_golden_test = rule(
    implementation = _krm_golden_test_impl,
    doc = "Fails when the manifests of `kustomization` differ from `golden` (the rule behind the `krm_golden_test` macro).",
    attrs = _ATTRS,
    test = True,
    toolchains = [KRM_TOOLCHAIN_TYPE],
)

krm_golden_update = rule(
    implementation = _krm_golden_update_impl,
    doc = """`bazel run` target that writes the manifests of `kustomization` over `golden` in the source tree.

`krm_golden_test` declares one as `<name>.update`. The golden must be a source file of the
main repository; the run writes it atomically under `$BUILD_WORKSPACE_DIRECTORY`.""",
    attrs = _ATTRS,
    executable = True,
    toolchains = [KRM_TOOLCHAIN_TYPE],
)

def krm_golden_test(name, kustomization, golden, **kwargs):
    """Checks the rendered manifests of a kustomization against a checked-in file.

    Declares the test `name`, which fails with a diff when the manifests of `kustomization`
    differ from `golden`, and `<name>.update`, which `bazel run` uses to rewrite `golden` in
    the source tree from the current manifests.

    Args:
      name: the test name.
      kustomization: the `krm_kustomization` target (of kind `Kustomization`).
      golden: the checked-in file with the expected manifests (create it empty, then
        `bazel run :<name>.update`).
      **kwargs: test attributes (`size`, default `small`; `tags`, `timeout`, `flaky`,
        `visibility`, ...); `tags`, `visibility` (default public for `<name>.update`, so that a
        `krm_golden_update_all` elsewhere can list it) and `testonly` also go to
        `<name>.update`.
    """
    kwargs.setdefault("size", "small")
    _krm_golden_test(
        name = name,
        kustomization = kustomization,
        golden = golden,
        **kwargs
    )
    update_kwargs = {k: v for k, v in kwargs.items() if k in ["tags", "visibility", "testonly"]}

    # Public unless told otherwise: a krm_golden_update_all of a parent package lists it.
    update_kwargs.setdefault("visibility", ["//visibility:public"])
    krm_golden_update(
        name = name + ".update",
        kustomization = kustomization,
        golden = golden,
        **update_kwargs
    )

krm_golden_update_all_rule = rule(
    implementation = _krm_golden_update_all_impl,
    doc = """`bazel run` target that rewrites every golden of `updates` in one run.

`updates` are `krm_golden_update` targets (`<name>.update` of each `krm_golden_test`) and
other `krm_golden_update_all` targets, so one per package, each listing those of the
packages below it, updates a whole tree. The `krm_golden_update_all` macro (the usual entry point) adds
the package's own update targets to `updates`. Each golden is written atomically; the run says
which were updated and which were up to date.""",
    attrs = {
        "updates": attr.label_list(
            doc = "`krm_golden_update` and `krm_golden_update_all` targets.",
            providers = [KrmGoldenInfo],
        ),
    },
    executable = True,
    toolchains = [KRM_TOOLCHAIN_TYPE],
)

def krm_golden_update_all(name, updates = [], **kwargs):
    """Rewrites every golden of this package, and of the `updates` given, in one `bazel run`.

    Call it after the `krm_golden_test`s of the BUILD file: it adds their `<name>.update`
    targets (the `krm_golden_update` rules declared so far in the package) to `updates`.

    Args:
      name: the target (`bazel run //pkg:<name>`).
      updates: more `krm_golden_update` or `krm_golden_update_all` targets, for example
        those of the packages below this one.
      **kwargs: common attributes (`visibility`, `tags`, ...).
    """
    own = sorted([
        ":" + r["name"]
        for r in native.existing_rules().values()
        if r["kind"] == "krm_golden_update"
    ])
    krm_golden_update_all_rule(
        name = name,
        updates = own + [u for u in updates if u not in own],
        **kwargs
    )
