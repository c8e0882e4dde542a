"""Analysis tests of krm_kustomization and krm_image: the errors Bazel reports before running
any action, and the flags of the render action."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")

def _analysis_failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.message)
    return analysistest.end(env)

# Passes when target_under_test fails analysis with an error containing `message`.
analysis_failure_test = analysistest.make(
    _analysis_failure_test_impl,
    expect_failure = True,
    attrs = {"message": attr.string(mandatory = True)},
)

def _render_flags_test_impl(ctx):
    env = analysistest.begin(ctx)
    renders = [a for a in analysistest.target_actions(env) if a.mnemonic == ctx.attr.mnemonic]
    asserts.equals(env, 1, len(renders), "%s actions of %s" % (ctx.attr.mnemonic, ctx.attr.target_under_test.label))
    argv = renders[0].argv if renders else []
    for text in ctx.attr.has:
        asserts.true(env, _contains(argv, text), "no argument of %s contains %s: %s" % (ctx.attr.mnemonic, text, argv))
    for text in ctx.attr.lacks:
        asserts.false(env, _contains(argv, text), "an argument of %s contains %s: %s" % (ctx.attr.mnemonic, text, argv))
    return analysistest.end(env)

def _contains(argv, text):
    for arg in argv:
        if text in arg:
            return True
    return False

# Checks the arguments of target_under_test's one action with `mnemonic` (skylib 1.0.3's
# analysistest.make takes no doc): each text of `has` is part of one of them, no text of
# `lacks` is part of any.
render_flags_test = analysistest.make(
    _render_flags_test_impl,
    attrs = {
        "has": attr.string_list(),
        "lacks": attr.string_list(),
        "mnemonic": attr.string(default = "KrmManifests"),
    },
)

def _render_actions_test_impl(ctx):
    env = analysistest.begin(ctx)
    got = sorted([
        "%s: %s" % (a.mnemonic, " ".join(sorted([f.basename for f in a.outputs.to_list()])))
        for a in analysistest.target_actions(env)
        if a.mnemonic.startswith("KrmRender") or a.mnemonic == "KrmManifests"
    ])
    asserts.equals(env, sorted(ctx.attr.actions), got, "render actions of %s" % ctx.attr.target_under_test.label)
    return analysistest.end(env)

# Checks the render actions target_under_test declares: `actions` lists each as
# "MNEMONIC: OUTPUT OUTPUT..." (basenames, sorted).
render_actions_test = analysistest.make(
    _render_actions_test_impl,
    attrs = {"actions": attr.string_list(mandatory = True)},
)
