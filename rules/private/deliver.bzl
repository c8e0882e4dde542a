"""Implementation of `krm_deliver`: `bazel run` targets that apply, diff or delete rendered manifests.

The executable is the toolchain's full renderer itself (`krm apply`, `krm diff --cluster`,
`krm delete` need its Kubernetes client, which the lean renderer lacks), under the target's
name, as for `krm_validate_test`. A rule cannot give its executable arguments, so they are in
`<name>.krmargs` beside it, which krm reads first (docs/cli.md); `bazel run` arguments after
`--` follow them. No launcher script (rules_k8s and rules_gitops generate a bash script per
target): nothing depends on a shell, and `bazel run` and `bazel run --script_path` both start
krm in the runfiles directory, where the manifests' paths lead, with the user's environment
(`KUBECONFIG`, `KRM_ALLOWED_CONTEXTS`, `BUILD_WORKING_DIRECTORY`).
"""

load(":labels.bzl", "label_string")
load(":providers.bzl", "KrmKustomizationInfo")
load(":stamp.bzl", "STAMP_ATTR", "STAMP_FLAG_ATTR", "stamping")
load(":toolchain.bzl", "KRM_TOOLCHAIN_TYPE", "tool_executable")

# The krm command line of each `command`.
_COMMANDS = {
    "apply": ["apply"],
    "diff": ["diff", "--cluster"],
    "delete": ["delete"],
}

_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"

def _stable_label(label):
    """The label as a string that a Bazel upgrade leaves alone.

    Another repository's canonical name joins its parts with `~` in Bazel 7 and `+` in Bazel 8
    (`rules_krm~`, `rules_krm+`); the ApplySet of a deployment must not change with it, or an
    upgrade would leave the old set's objects unpruned.
    """
    if not label.workspace_name:
        return label_string(label)
    parts = [p for p in label.workspace_name.replace("~", "+").split("+") if p]
    return "@%s//%s:%s" % ("+".join(parts), label.package, label.name)

def applyset_name(label):
    """The name of the ApplySet parent (a Secret) of the manifests of `label`.

    Readable (`krm-examples-deploy-prod-...`) and distinct per label: the hash of the label
    keeps `//a/b:c` and `//a:b-c` apart, whose objects a prune must never mix. The same under
    Bazel 7 and 8 for a label of another repository.

    Args:
      label: a Label.

    Returns:
      A Secret name: lowercase letters, digits and `-`, at most 253 characters.
    """
    s = _stable_label(label)
    words = [w for w in "".join([c if c in _NAME_CHARS else " " for c in s.lower().elems()]).split(" ") if w]
    return "krm-%s-%d" % ("-".join(words)[:200], hash(s) & 0xffffffff)

def _manifests(ctx):
    """The manifest files of `manifests`: a kustomization's manifests, or the files of other targets."""
    files = []
    for t in ctx.attr.manifests:
        info = t[KrmKustomizationInfo] if KrmKustomizationInfo in t else None
        if info and not info.manifests:
            fail("%s is a Component: it has no manifests to %s" % (label_string(info.label), ctx.attr.command), attr = "manifests")
        files.extend([info.manifests] if info else t.files.to_list())
    if not files:
        fail("manifests of %s yield no files" % label_string(ctx.label), attr = "manifests")
    return files

def _line(ctx, attr, value, flag = ""):
    # One argument a line: a value with a line break would be two.
    if "\n" in value or "\r" in value:
        fail("%s of %s: %r must be on one line" % (attr, label_string(ctx.label), value), attr = attr)
    return flag + value + "\n"

def _krm_deliver_impl(ctx):
    command = ctx.attr.command
    if ctx.attr.prune and command != "apply":
        fail("prune of %s: only command = \"apply\" prunes" % label_string(ctx.label), attr = "prune")
    manifests = _manifests(ctx)
    toolchain = ctx.toolchains[KRM_TOOLCHAIN_TYPE]
    exe = tool_executable(ctx, toolchain.renderer.executable)
    lines = [c + "\n" for c in _COMMANDS[command]]

    # Every target of one kustomization names the same ApplySet: delete removes its parent,
    # diff lists its members the manifests no longer hold (what apply with prune deletes).
    applyset = ctx.attr.applyset or applyset_name(ctx.attr.manifests[0].label)
    lines.append(_line(ctx, "applyset", applyset, "--applyset="))
    if ctx.attr.applyset_namespace:
        lines.append(_line(ctx, "applyset_namespace", ctx.attr.applyset_namespace, "--applyset-namespace="))
    if ctx.attr.prune:
        lines.append("--prune\n")
    if ctx.attr.context:
        lines.append(_line(ctx, "context", ctx.attr.context, "--context="))

    # krm starts in the runfiles: a relative KUBECONFIG or --kubeconfig means where the
    # user typed `bazel run` (empty when unset: the working directory).
    lines.append("--kubeconfig-base=${BUILD_WORKING_DIRECTORY}\n")

    # What `krm apply` records with each generation (docs/provenance.md): the inputs digests
    # of the kustomizations that render with provenance, and under stamping the commit from
    # the workspace status (a link to it in the runfiles: the status file itself is no
    # runfile).
    extra = []
    if command == "apply":
        for t in ctx.attr.manifests:
            info = t[KrmKustomizationInfo] if KrmKustomizationInfo in t else None
            if info and info.provenance_manifest:
                extra.append(info.provenance_manifest)
                lines.append(_line(ctx, "manifests", info.provenance_manifest.short_path, "--provenance-manifest="))
        if stamping(ctx):
            status = ctx.actions.declare_file(ctx.label.name + ".stable-status.txt")
            ctx.actions.symlink(output = status, target_file = ctx.info_file)
            extra.append(status)
            lines.append(_line(ctx, "manifests", status.short_path, "--source-commit-from="))

    # Paths relative to the main repository's runfiles directory (`../repo/...` for another
    # repository's file), where `bazel run` starts krm.
    lines.extend([_line(ctx, "manifests", f.short_path) for f in manifests])
    args = ctx.actions.declare_file(ctx.label.name + ".krmargs")
    ctx.actions.write(args, "".join(lines))
    return [DefaultInfo(
        executable = exe,
        files = depset([exe]),
        runfiles = ctx.runfiles(files = [exe, args] + manifests + extra),
    )]

krm_deliver = rule(
    implementation = _krm_deliver_impl,
    doc = """`bazel run` target that applies, diffs or deletes rendered manifests on a cluster.

`krm_kustomization` declares three for each kustomization with manifests: `<name>.apply`,
`<name>.diff` and `<name>.delete` (docs/rules.md, "Run targets"). Declare your own for other
manifests, or other settings:

```starlark
krm_deliver(
    name = "shop.apply",
    command = "apply",
    manifests = ["//deploy:prod", "//deploy:monitoring_manifests"],
    context = "prod-eu",
    prune = True,
)
```

`bazel run :shop.apply -- --context kind-dev` runs `krm apply` (server-side apply, field
manager `krm`; docs/cli.md) on the manifests with the flags below, then the arguments after
`--` (a later `--context` wins); the common attribute `args` (`args = ["--timeout=5m"]`)
comes between them. The executable is the toolchain's full renderer, under the
target's name, reading its arguments from `<name>.krmargs` beside it: no shell.

An apply target records each object's generation with its inputs digest
(`--provenance-manifest`, for each kustomization of `manifests` that renders with provenance)
and, when it stamps (`stamp`, as for `krm_kustomization`), the commit of the workspace status
(`--source-commit-from`, the key `STABLE_GIT_COMMIT` by default): docs/provenance.md,
"Generation-output correlation".""",
    attrs = {
        "command": attr.string(
            doc = "`apply` (`krm apply`), `diff` (`krm diff --cluster`: what the apply would change, from a server-side dry run) or `delete` (`krm delete`).",
            mandatory = True,
            values = sorted(_COMMANDS.keys()),
        ),
        "manifests": attr.label_list(
            doc = "What to deliver: `krm_kustomization` targets (their manifests; a `Component` is an analysis error) or any targets yielding rendered YAML files, in this order.",
            mandatory = True,
            allow_files = True,
        ),
        "context": attr.string(
            doc = "The kubeconfig context (`--context`); a `--context` after `--` on the command line wins. Empty: the kubeconfig's current context, which apply and delete use only when allow-listed (`KRM_ALLOWED_CONTEXTS`).",
        ),
        "applyset": attr.string(
            doc = "The ApplySet's parent Secret (`--applyset`: `NAME`, `secrets/NAME` or `configmaps/NAME`). Empty: `krm-` and the label of the first target of `manifests`, lowercased, with a hash of it (`krm-examples-deploy-prod-1234567890`), so that the apply, diff and delete targets of one kustomization share it.",
        ),
        "applyset_namespace": attr.string(
            doc = "The namespace of the ApplySet's parent (`--applyset-namespace`). Empty: the context's namespace, else `default`.",
        ),
        "prune": attr.bool(
            doc = "With `command = \"apply\"`: delete the ApplySet's members that the manifests no longer hold (`--prune`).",
        ),
        "stamp": STAMP_ATTR,
        "_stamp_flag": STAMP_FLAG_ATTR,
    },
    executable = True,
    toolchains = [KRM_TOOLCHAIN_TYPE],
)

def manual_tags(tags):
    """`tags` with `manual` added once: for the targets `bazel build //...` should leave out.

    Args:
      tags: a target's tags.

    Returns:
      The tags, `manual` among them.
    """
    return tags + ([] if "manual" in tags else ["manual"])

def deliver_targets(name, context = "", prune = False, tags = [], **kwargs):
    """Declares `<name>.apply`, `<name>.diff` and `<name>.delete` for the kustomization `name`.

    They are tagged `manual`: `bazel run //deploy:prod.apply` builds one when asked, and
    `bazel build //...` builds none. Built for every directory, their executables, argument
    files and runfiles trees were twelve of the fifteen actions a kustomization cost
    (docs/performance.md, "Cost per kustomization").

    Args:
      name: the `krm_kustomization` target, in this package.
      context: the `context` of the three.
      prune: whether `<name>.apply` prunes.
      tags: the kustomization's tags; `manual` is added.
      **kwargs: other common attributes (`visibility`, `testonly`, ...).
    """
    run_tags = manual_tags(tags)
    for command in ["apply", "diff", "delete"]:
        krm_deliver(
            name = "%s.%s" % (name, command),
            command = command,
            manifests = [":" + name],
            context = context,
            prune = prune and command == "apply",
            tags = run_tags,
            **kwargs
        )
