"""Tests of the run targets of krm_kustomization and of krm_deliver: which targets the macro
declares, and what each one runs (its arguments file and its executable)."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts", "unittest")
load("//rules/private:deliver.bzl", "applyset_name")

def _launcher_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    name = target.label.name
    writes = [a for a in analysistest.target_actions(env) if a.outputs.to_list()[0].basename == name + ".krmargs"]
    asserts.equals(env, 1, len(writes), "actions writing %s.krmargs" % name)
    if writes:
        asserts.equals(env, ctx.attr.args_file, writes[0].content)

    # The executable is the toolchain's full renderer (it has the Kubernetes client).
    links = [a for a in analysistest.target_actions(env) if a.mnemonic == "ExecutableSymlink"]
    asserts.equals(env, 1, len(links), "symlink actions of %s" % name)
    if links:
        asserts.equals(env, [ctx.attr.renderer], [f.short_path for f in links[0].inputs.to_list()])
        asserts.equals(env, [name], [f.basename for f in links[0].outputs.to_list()])

    # The arguments file and the manifests are in the runfiles, where krm starts.
    runfiles = [f.short_path for f in target[DefaultInfo].default_runfiles.files.to_list()]
    for path in ctx.attr.runfiles:
        asserts.true(env, path in runfiles, "%s not in the runfiles of %s: %s" % (path, name, runfiles))
    return analysistest.end(env)

# Checks the `<name>.krmargs` file of a krm_deliver target (exactly `args_file`), that its
# executable is a link to `renderer`, and that `runfiles` are among its runfiles.
launcher_test = analysistest.make(
    _launcher_test_impl,
    attrs = {
        "args_file": attr.string(mandatory = True),
        "renderer": attr.string(default = "tools/renderer/krm_/krm"),
        "runfiles": attr.string_list(),
    },
)

def _declared_test_impl(ctx):
    env = unittest.begin(ctx)
    for name in ctx.attr.present:
        asserts.true(env, name in ctx.attr.declared, "%s is not declared" % name)
    for name in ctx.attr.absent:
        asserts.false(env, name in ctx.attr.declared, "%s is declared" % name)
    return unittest.end(env)

_declared_test = unittest.make(
    _declared_test_impl,
    attrs = {
        "present": attr.string_list(),
        "absent": attr.string_list(),
        "declared": attr.string_list(),
    },
)

def declared_targets_test(name, present = [], absent = []):
    """Passes when the package has declared, so far, the targets `present` and none of `absent`.

    Args:
      name: the test.
      present: target names that must be declared before this call.
      absent: target names that must not be.
    """
    _declared_test(
        name = name,
        present = present,
        absent = absent,
        declared = [n for n in present + absent if native.existing_rule(n)],
    )

def _manual_test_impl(ctx):
    env = unittest.begin(ctx)
    asserts.equals(env, [], ctx.attr.not_manual, "targets without the manual tag (bazel build //... would build them)")
    return unittest.end(env)

_manual_test = unittest.make(
    _manual_test_impl,
    attrs = {"not_manual": attr.string_list()},
)

def manual_targets_test(name, targets):
    """Passes when each of `targets`, declared so far in the package, is tagged `manual`.

    Args:
      name: the test.
      targets: target names.
    """
    _manual_test(
        name = name,
        not_manual = [n for n in targets if "manual" not in (native.existing_rule(n) or {}).get("tags", [])],
    )

def _applyset_name_test_impl(ctx):
    env = unittest.begin(ctx)
    asserts.equals(env, "krm-examples-deploy-prod-3779241764", applyset_name(Label("//examples/deploy:prod")))

    # Kept apart: the same words, different labels.
    asserts.false(env, applyset_name(Label("//a/b:c")) == applyset_name(Label("//a:b-c")))

    # Another repository's label names one set under Bazel 7 (`~`) and 8 (`+`).
    for canonical in ["@@other~//deploy:prod", "@@other+//deploy:prod"]:
        asserts.equals(env, applyset_name(Label("@@other//deploy:prod")), applyset_name(Label(canonical)), canonical)
    asserts.equals(
        env,
        applyset_name(Label("@@rules_krm~~krm~charts//deploy:prod")),
        applyset_name(Label("@@rules_krm++krm+charts//deploy:prod")),
    )
    asserts.false(env, applyset_name(Label("@@other+//deploy:prod")) == applyset_name(Label("//deploy:prod")))
    return unittest.end(env)

# The default ApplySet names of krm_deliver (rules/private/deliver.bzl).
applyset_name_test = unittest.make(_applyset_name_test_impl)
