"""Implementation of `krm_kustomization`: one target, and one render action, per kustomization directory."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load(":deliver.bzl", "deliver_targets", "manual_tags")
load(":images.bzl", "IMAGES_ATTR", "invert_images", "pinned_images")
load(":labels.bzl", _label_string = "label_string")
load(":providers.bzl", "KrmFunctionInfo", "KrmKustomizationInfo")
load(":stamp.bzl", "STAMP_ATTR", "STAMP_FLAG_ATTR", "stamp_manifests")
load(":toolchain.bzl", "KRM_TOOLCHAIN_TYPE", "RUN_TOOLCHAIN_KWARGS")

KUSTOMIZATION = "Kustomization"
COMPONENT = "Component"

# The file names kustomize accepts for a kustomization, in its order of preference.
_KUSTOMIZATION_FILES = ["kustomization.yaml", "kustomization.yml", "Kustomization"]

_LOAD_RESTRICTORS = ["LoadRestrictionsRootOnly", "LoadRestrictionsNone"]

# Values of the `provenance` attribute: "auto" follows the build setting //rules:provenance.
_PROVENANCE_VALUES = ["auto", "on", "off"]

def normalize_path(path):
    """Lexically cleans a relative, slash-separated path ("" and "a/.." become ".").

    Args:
      path: the path.

    Returns:
      The cleaned path; it starts with "../" when it leaves the directory it is relative to.
    """
    parts = []
    for part in path.split("/"):
        if part == "" or part == ".":
            continue
        if part == ".." and parts and parts[-1] != "..":
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts) if parts else "."

# In labels.bzl, which deliver.bzl (loaded here) shares; still loadable from here.
label_string = _label_string

def manifests_attr(what):
    """The `kustomization` attribute of a rule reading the manifests of a `krm_kustomization`.

    Args:
      what: what the rule does with them, for the doc (`checked`).

    Returns:
      The attribute.
    """
    return attr.label(
        doc = "The `krm_kustomization` target (of kind `Kustomization`) whose manifests are %s." % what,
        mandatory = True,
        providers = [KrmKustomizationInfo],
    )

def kustomization_with_manifests(ctx, verb):
    """The KrmKustomizationInfo of the `kustomization` attribute, failing for a Component.

    Args:
      ctx: the rule context.
      verb: what the rule does with the manifests, for the error (`compare`).

    Returns:
      The KrmKustomizationInfo; its `manifests` is a File.
    """
    info = ctx.attr.kustomization[KrmKustomizationInfo]
    if not info.manifests:
        fail("%s is a Component: it has no manifests to %s" % (label_string(info.label), verb), attr = "kustomization")
    return info

def _join(*parts):
    return "/".join([p for p in parts if p and p != "."]) or "."

def _kustomization_dir(ctx):
    rel = normalize_path(ctx.attr.dir)
    if ctx.attr.dir.startswith("/") or rel == ".." or rel.startswith("../"):
        fail("dir %r must be a relative path inside the package %r" % (ctx.attr.dir, ctx.label.package), attr = "dir")
    return _join(ctx.label.workspace_root, ctx.label.package, rel)

def tree_path(f):
    """The path a file has in the kustomization tree: where a kustomization names it.

    Workspace-relative (`external/<repo>/...` for another repository), for source and
    generated files alike: a genrule output `prod/build-info.yaml` of package `//deploy`
    is at `deploy/prod/build-info.yaml`, as if it were written in the source tree.

    Args:
      f: a File.

    Returns:
      The path.
    """
    if f.root.path:
        return f.path[len(f.root.path) + 1:]
    return f.path

def _input_flag(f):
    # One declared file: the tree path, a tab and where Bazel put the file (only the
    # path when both are the same).
    p = tree_path(f)
    return "--input=" + (p if p == f.path else p + "\t" + f.path)

def _exec_path_input_flag(f):
    return "--input=" + f.path

def _check_kustomization_file(ctx, dir):
    """Fails with a helpful message unless the kustomization file of dir is among the srcs."""
    by_path = {}
    for f in ctx.files.srcs:
        by_path[tree_path(f)] = f
    for name in _KUSTOMIZATION_FILES:
        if _join(dir, name) in by_path:
            return
    fail(("srcs of %s must include the kustomization file of its directory %r (one of %s); " +
          "set dir if the kustomization is in a subdirectory of the package") % (
        label_string(ctx.label),
        dir,
        ", ".join(_KUSTOMIZATION_FILES),
    ), attr = "srcs")

def _dep_flag(base):
    return "--dep=%s=%s" % (base.dir, base.snapshot.path)

def _origins_dep_flag(base):
    return "--dep=%s=%s" % (base.dir, base.origins_snapshot.path)

def _has_whitespace(s):
    for c in [" ", "\t", "\n", "\r"]:
        if c in s:
            return True
    return False

def _split_paths(paths):
    return [p for p in paths.replace("\t", " ").replace("\n", " ").replace("\r", " ").split(" ") if p]

def _own_functions(ctx, dir):
    """The entries of `functions`: a list of struct(path, function), `path` relative to the execution root."""
    entries = []
    for target, paths in ctx.attr.functions.items():
        for written in _split_paths(paths):
            if written.startswith("/") or written.startswith("~"):
                fail("functions of %s: exec path %r must be relative to the kustomization directory %r" % (
                    label_string(ctx.label),
                    written,
                    dir,
                ), attr = "functions")
            path = normalize_path(_join(dir, written))
            if path == ".." or path.startswith("../"):
                fail("functions of %s: exec path %r leaves the workspace" % (label_string(ctx.label), written), attr = "functions")
            entries.append(struct(path = path, function = target[KrmFunctionInfo]))
        if not _split_paths(paths):
            fail("functions of %s: %s maps to no exec path" % (label_string(ctx.label), label_string(target.label)), attr = "functions")
    return entries

def _functions(ctx, entries):
    """The exec functions the render action declares, from the entries of `functions` and of deps.

    Returns:
      A list of struct(path, function): `path` relative to the execution root, `function` a
      KrmFunctionInfo; one entry per path, sorted by path.
    """
    by_path = {}
    for e in entries:
        prev = by_path.get(e.path)
        if prev and prev.function.executable != e.function.executable:
            fail("functions of %s: two executables for the exec path %s: %s and %s" % (
                label_string(ctx.label),
                e.path,
                label_string(prev.function.label),
                label_string(e.function.label),
            ), attr = "functions")
        by_path[e.path] = e
    return [struct(path = p, function = by_path[p].function) for p in sorted(by_path.keys())]

def _function_flag(f):
    return "--function=%s=%s" % (f.path, f.function.executable.path)

def _owner_flag(k):
    return "--owner=%s=%s" % (k.dir, label_string(k.label))

def _label_map_flag(k):
    return "--label-map=%s=%s" % (k.dir, label_string(k.label))

def _has_chart(files):
    """Whether files hold a helm chart: its Chart.yaml, or a packaged `.tgz` chart."""
    for f in files:
        if f.basename == "Chart.yaml" or f.basename.endswith(".tgz"):
            return True
    return False

def _renderer(toolchain, needs_helm):
    """The toolchain's KrmRendererInfo for an action: the lean one unless it needs Helm."""
    lean = getattr(toolchain, "lean_renderer", None)
    return toolchain.renderer if needs_helm or not lean else lean

def _provenance_enabled(ctx):
    if ctx.attr.provenance == "auto":
        return ctx.attr._provenance_flag[BuildSettingInfo].value
    return ctx.attr.provenance == "on"

def _run_render(r, mnemonic, message, outputs, flags):
    """Runs `krm render` for the kustomization r (a struct made by the implementation)."""
    args = _render_args(r.ctx, r.dir, r.srcs, r.bases, r.origins, r.functions, r.components, r.provenance)
    if r.owners:
        # The bases are rendered from their sources (the openapi or helm_inherits_namespace attributes).
        args.add("--bases-from-sources")
        args.add_all(r.owners, map_each = _owner_flag)
    args.add_all(r.images)
    args.add_all(flags)

    # The files the --image flags name, declared at the paths the flags give.
    args.add_all(r.image_files, map_each = _exec_path_input_flag)
    r.ctx.actions.run(
        executable = r.renderer.files_to_run,
        arguments = [args],
        inputs = r.inputs,
        tools = [f.function.files_to_run for f in r.functions],
        outputs = outputs,
        mnemonic = mnemonic,
        progress_message = "%s %s (%s)" % (message, r.dir, label_string(r.ctx.label)),
        execution_requirements = _worker_requirements(r),
        **RUN_TOOLCHAIN_KWARGS
    )

def _worker_requirements(r):
    """How the render action r may run in a persistent worker.

    A worker renders actions in one process, outside the sandbox: the renderer reads only
    the inputs the --input flags declare. An exec function is a process of its own, which
    only the sandbox confines: no worker. The lean renderer serves several actions at once
    in one multiplex worker (its state is per request; one process for the mnemonic instead
    of one per action running); Helm's libraries print warnings through Go's process-wide
    log, which a singleplex worker points at the one request it serves.
    """
    if r.functions:
        return {}
    if r.lean:
        return {"supports-multiplex-workers": "1", "supports-workers": "1"}
    return {"supports-workers": "1"}

def _render_args(ctx, dir, srcs, bases, origins, functions, components, provenance):
    """The arguments of `krm render` shared by the snapshot and manifests actions.

    With `origins`, the bases are read from their snapshots with origins.

    Returns:
      Args, passed in a parameter file (@FILE, one argument a line), as persistent
      workers take them.
    """
    args = ctx.actions.args()
    args.set_param_file_format("multiline")
    args.use_param_file("@%s", use_always = True)
    args.add("render")
    args.add(dir)
    args.add("--label", label_string(ctx.label))
    args.add("--load-restrictor", ctx.attr.load_restrictor)
    if ctx.attr.kind:
        args.add("--kind", ctx.attr.kind)
    args.add_all(bases, map_each = _origins_dep_flag if origins else _dep_flag)
    args.add_all([_function_flag(f) for f in functions])
    if provenance:
        args.add("--provenance")
        args.add_all(components, map_each = _label_map_flag)
        args.add_all(bases, map_each = _label_map_flag)

    # The exact list of declared files: the renderer reads nothing else, with or
    # without a sandbox.
    args.add_all(srcs, map_each = _input_flag)
    return args

def _krm_kustomization_impl(ctx):
    kind = ctx.attr.kind
    label = label_string(ctx.label)
    dir = _kustomization_dir(ctx)
    _check_kustomization_file(ctx, dir)
    srcs = depset(ctx.files.srcs)
    deps = [d[KrmKustomizationInfo] for d in ctx.attr.deps]

    # Every dep, base or component, is one --dep DIR=SNAPSHOT: a component's snapshot
    # carries its files and those of what it names (docs/snapshot.md).
    bases = depset(transitive = [d.bases for d in deps])
    dep_inputs = depset(transitive = [d.inputs for d in deps])
    dep_origins_inputs = depset(transitive = [d.origins_inputs for d in deps])

    own_functions = _own_functions(ctx, dir)

    # The components this kustomization (or, for a component, its parent) applies, for
    # provenance labels: components are read from sources, not from snapshots.
    components = depset(transitive = [d.components for d in deps])

    # kustomize applies the first openapi schema it meets to everything it renders after,
    # which a base's snapshot cannot know: a tree that sets one renders its bases from
    # their sources (all of them, transitively), in one action.
    openapi = ctx.attr.openapi or any([d.openapi for d in deps])

    # Likewise kustomize gives a helm chart without a namespace the namespace of the
    # kustomization including it: parents of such a kustomization render it from sources.
    helm_inherits_namespace = ctx.attr.helm_inherits_namespace or any([d.helm_inherits_namespace for d in deps])
    from_sources = openapi or any([d.helm_inherits_namespace for d in deps])
    sources = depset(ctx.files.srcs, transitive = [d.sources for d in deps])

    # Linking Helm makes every start of the renderer several times slower, so the actions
    # run the toolchain's lean renderer unless a chart may be inflated in them: charts among
    # its own srcs, in a dep that may be a component (components render in the action of
    # the kustomization naming them), or anywhere in a tree rendered from sources.
    own_charts = _has_chart(ctx.files.srcs)
    helm_charts = own_charts or any([d.helm_charts for d in deps])
    needs_helm = own_charts or any([
        d.helm_charts
        for d in deps
        if from_sources or d.kind != KUSTOMIZATION
    ])
    renderer = _renderer(ctx.toolchains[KRM_TOOLCHAIN_TYPE], needs_helm)
    if kind == COMPONENT and ctx.attr.images:
        fail("images of %s: a Component cannot pin images: set images on the kustomizations that name it" % label, attr = "images")
    images = pinned_images(ctx, dir, label_string)

    # Each kustomization of the tree, with what a parent rendering it from its sources
    # passes for it: its exec functions and its pinned images (scoped to its directory).
    owners = depset(
        [struct(
            dir = dir,
            label = ctx.label,
            image_args = tuple(images.dir_args),
            image_files = tuple(images.inputs),
            functions = tuple(own_functions),
        )],
        transitive = [d.owners for d in deps],
    )

    # The exec functions this kustomization's action (or, for a component, its parent's)
    # runs: only these declared executables may run. Its own and its Component deps', or,
    # rendering its bases from sources, those of every kustomization of its tree.
    function_entries = list(own_functions)
    for d in deps:
        function_entries.extend(d.functions)
    image_args, image_files = list(images.args), list(images.inputs)
    if from_sources:
        for o in owners.to_list():
            function_entries.extend(o.functions)
            if o.label != ctx.label:
                # A base's pins, appended to its own kustomization as its target does.
                image_args.extend(o.image_args)
                image_files.extend(o.image_files)
        srcs, bases, components = sources, depset(), owners
        dep_inputs, dep_origins_inputs = depset(), depset()
    functions = _functions(ctx, function_entries)

    snapshot = ctx.actions.declare_file(ctx.label.name + ".krmsnap")

    # The same with origins (krm render --origins), for parents whose buildMetadata asks:
    # tracking origins writes annotations that later transformers see, so the plain snapshot
    # has none. Built only when such a parent needs it.
    origins_snapshot = ctx.actions.declare_file(ctx.label.name + ".origins.krmsnap")
    render_provenance = kind != COMPONENT and _provenance_enabled(ctx)

    # A component's snapshot carries its files, read by its parent with the parent's
    # provenance, and its bases' snapshots: it serves a parent with provenance when
    # those have it.
    provenance = all([b.provenance for b in bases.to_list()]) if kind == COMPONENT else render_provenance
    if render_provenance:
        # A parent rendering with provenance refuses base snapshots rendered without it.
        for base in bases.to_list():
            if not base.provenance:
                fail(("provenance is on for %s, but its base %s renders without provenance: set " +
                      "provenance = \"on\" on %s too, or build with --@rules_krm//rules:provenance " +
                      "(every kustomization of a build must agree)") % (
                    label,
                    label_string(base.label),
                    label_string(base.label),
                ), attr = "provenance")

    render, render_origins = [
        struct(
            ctx = ctx,
            renderer = renderer,
            lean = not needs_helm and getattr(ctx.toolchains[KRM_TOOLCHAIN_TYPE], "lean_renderer", None) != None,
            dir = dir,
            srcs = srcs,
            bases = bases,
            # With origins, the bases are read from their snapshots with origins.
            origins = origins,
            functions = functions,
            components = components,
            provenance = render_provenance,
            images = image_args,
            image_files = image_files,
            inputs = depset(image_files, transitive = [srcs, inputs]),
            owners = owners if from_sources else None,
        )
        for origins, inputs in [(False, dep_inputs), (True, dep_origins_inputs)]
    ]

    # The snapshot, what the kustomizations including this one read, comes from the same
    # action as the manifests (one action, one cache entry per kustomization), unless it
    # cannot: a component has no manifests; a kustomization kustomize cannot build alone
    # (builds_alone = False: its finishing steps fail) must still serve the targets that
    # use it; manifests whose buildMetadata tracks origins read other snapshots.
    separate_snapshot = kind == COMPONENT or not ctx.attr.builds_alone or ctx.attr.build_metadata
    if separate_snapshot:
        _run_render(render, "KrmRender", "Rendering kustomization", [snapshot], ["--snapshot", snapshot])
    _run_render(render_origins, "KrmRenderOrigins", "Rendering kustomization with origins", [origins_snapshot], ["--snapshot", origins_snapshot, "--origins"])

    manifests = None
    provenance_manifest = None
    if kind != COMPONENT:
        manifests = ctx.actions.declare_file(ctx.label.name + "_manifests.yaml")
        outputs = [manifests] if separate_snapshot else [snapshot, manifests]
        flags = ["--manifests", manifests] if separate_snapshot else ["--snapshot", snapshot, "--manifests", manifests]
        if render_provenance:
            provenance_manifest = ctx.actions.declare_file(ctx.label.name + ".provenance.json")
            outputs.append(provenance_manifest)
            flags.extend(["--provenance-manifest", provenance_manifest])

        # kustomize tracks origins through a whole build when the top kustomization's
        # buildMetadata asks: then so must the bases' snapshots.
        _run_render(render_origins if ctx.attr.build_metadata else render, "KrmManifests", "Rendering manifests of", outputs, flags)
        manifests = stamp_manifests(ctx, _renderer(ctx.toolchains[KRM_TOOLCHAIN_TYPE], False), manifests, label)  # the stamped file under --stamp

    # Until the render reads the file, a target without an explicit kind may be a
    # component: its functions and its components' labels go to the parents too.
    may_be_component = kind != KUSTOMIZATION
    info = KrmKustomizationInfo(
        label = ctx.label,
        kind = kind,
        dir = dir,
        snapshot = snapshot,
        manifests = manifests,
        srcs = srcs,
        bases = depset([struct(dir = dir, snapshot = snapshot, origins_snapshot = origins_snapshot, label = ctx.label, provenance = provenance)]),
        # The renderer finds a base's snapshot by the path the parent names: the base
        # directory need not exist in the parent's sandbox.
        inputs = depset([snapshot]),
        origins_snapshot = origins_snapshot,
        origins_inputs = depset([origins_snapshot]),
        functions = functions if may_be_component else [],
        components = depset(
            [struct(dir = dir, label = ctx.label)] if may_be_component else [],
            transitive = [components] if may_be_component else [],
        ),
        provenance = provenance,
        provenance_manifest = provenance_manifest,
        openapi = openapi,
        helm_inherits_namespace = helm_inherits_namespace,
        helm_charts = helm_charts,
        sources = sources,
        owners = owners,
    )
    default = manifests or snapshot
    return [
        info,
        DefaultInfo(
            files = depset([default]),
            runfiles = ctx.runfiles(files = [default]),
        ),
        OutputGroupInfo(
            manifests = depset([manifests] if manifests else []),
            snapshot = depset([snapshot]),
            origins_snapshot = depset([origins_snapshot]),
            provenance = depset([provenance_manifest] if provenance_manifest else []),
        ),
    ]

krm_kustomization_rule = rule(
    implementation = _krm_kustomization_impl,
    doc = """One kustomization directory (the rule behind the `krm_kustomization` macro).

One action (mnemonic `KrmManifests`) renders the kustomization with the toolchain's
renderer into `<name>_manifests.yaml` (what `kustomize build DIR` prints) and
`<name>.krmsnap`, the snapshot that the kustomizations including it continue from: one
action and one cache entry per kustomization. For a component (`kind: Component` in its
file) one action (mnemonic `KrmRender`) writes only the snapshot: its files, checked (all
declared, the kustomization valid), with those of the components and bases it names.
Parents read only snapshots, so editing one overlay re-runs exactly its action. A
kustomization that kustomize cannot build alone (`builds_alone = False`) gets a snapshot
action of its own (`KrmRender`, without the finishing steps), so that it still serves the
targets that use it.

The renderer reads exactly the files of `srcs` and the snapshots of `deps`, with or without
a sandbox (the `--input` flags list them; Bazel runs the render actions in persistent
workers, outside the sandbox, unless a strategy says otherwise): an undeclared file, base or component is an error
naming the attribute to fix. Generated files are valid `srcs`; each is seen at its path in
the workspace (`short_path`), as if written in the source tree.

Exec KRM functions run only when declared: `functions` maps `krm_function` targets to the
exec paths their function configs name; the action gets them as tools and passes
`--function PATH=EXECUTABLE` to the renderer.

Provenance (docs/provenance.md) is opt-in: with `provenance = "on"`, or `"auto"` (default) and
the build setting `@rules_krm//rules:provenance` set (`--@rules_krm//rules:provenance`), the
actions also pass `--provenance`, the manifests action writes `<name>.provenance.json`, and
both pass `--label-map` for the components applied and the bases. A dep of such a
kustomization must render with provenance too (an analysis error otherwise).

Origins (kustomize's `buildMetadata` annotations) are tracked through a whole build when the
top kustomization asks, and tracking them changes what later transformers see. So the
snapshot carries none; a third action (mnemonic `KrmRenderOrigins`) renders
`<name>.origins.krmsnap` with them, only when a kustomization with `build_metadata = True`
(or one of its bases) needs it.

Output groups: `manifests`, `snapshot`, `origins_snapshot` and `provenance` (empty without provenance). Default
outputs: the manifests, or the snapshot for `kind = "Component"`. Provides
`KrmKustomizationInfo`.""",
    attrs = {
        "srcs": attr.label_list(
            doc = "The kustomization file and every local file it reads: resources, patches, generator inputs, configurations, Starlark scripts. Source or generated files (from other packages and repositories too), each seen at its workspace path. The kustomization file of `dir` must be among them. The renderer reads nothing else.",
            allow_files = True,
        ),
        "deps": attr.label_list(
            doc = "The `krm_kustomization` targets of the directories this kustomization names in `resources` (bases) and `components`. Each is read from its snapshot: a base's accumulated resources, or a component's files (with those of what it names).",
            providers = [KrmKustomizationInfo],
        ),
        "dir": attr.string(
            doc = "The kustomization directory, relative to the package: `.` (default) is the package directory. Lets one BUILD file declare several kustomizations, for example `prod` and `staging` in `deploy/BUILD.bazel` for `deploy/prod` and `deploy/staging`.",
            default = ".",
        ),
        "kind": attr.string(
            doc = "Optional: the kind is read from the kustomization file. `Component` (a file with `kind: Component`) declares no manifests output; `Kustomization` declares that the file is not a component. The render fails when the file says otherwise.",
            default = "",
            values = ["", KUSTOMIZATION, COMPONENT],
        ),
        "functions": attr.label_keyed_string_dict(
            doc = "The executables of the exec KRM functions this kustomization's function configs name: a `krm_function` target maps to the exec path it stands for, exactly as the `config.kubernetes.io/function` annotation writes it (`./fn/set-team`, relative to `dir`); several paths for one target are separated by spaces. The render action runs the declared executable for that path; an exec function whose path is not declared fails the build. For a `Component`, they go to the actions of the kustomizations that name it. (The `krm_kustomization` macro takes the inverse mapping, path to target.)",
            providers = [KrmFunctionInfo],
        ),
        "load_restrictor": attr.string(
            doc = "`LoadRestrictionsRootOnly` (default: files must be in or below the kustomization directory) or `LoadRestrictionsNone`, as kustomize's `--load-restrictor`. Not used by a `Component` (its parent's applies).",
            default = "LoadRestrictionsRootOnly",
            values = _LOAD_RESTRICTORS,
        ),
        "provenance": attr.string(
            doc = "`auto` (default): provenance as the build setting `@rules_krm//rules:provenance` says (default off); `on`: always; `off`: never. With provenance, every object carries provenance annotations and the action also writes `<name>.provenance.json` (output group `provenance`); every base must render with provenance too. Not used by a `Component` (its parent's applies).",
            default = "auto",
            values = _PROVENANCE_VALUES,
        ),
        "builds_alone": attr.bool(
            doc = "Whether `kustomize build` of this kustomization's directory succeeds (default True): then one action (`KrmManifests`) writes both its snapshot and its manifests. Set False for a kustomization kustomize cannot build on its own (a var reading a field only a parent's patch adds): its snapshot, all the kustomizations including it read, is then an action of its own (`KrmRender`) that skips the finishing steps, so only `<name>_manifests` fails. The `krm_kustomization` macro then tags the target `manual`.",
            default = True,
        ),
        "build_metadata": attr.bool(
            doc = "Set when the kustomization file's `buildMetadata` lists anything (Gazelle sets it): kustomize then tracks origins through the whole build, so the manifests action reads the bases' snapshots with origins (`<name>.origins.krmsnap`, action `KrmRenderOrigins`, built only when a parent needs it). The render fails, naming this attribute, when the file asks and it is not set.",
            default = False,
        ),
        "openapi": attr.bool(
            doc = "Set when the kustomization file sets `openapi` (Gazelle sets it). kustomize applies the first schema it meets to everything it renders after it: sibling bases listed later, and from the top every base. A base's snapshot cannot know which schema its parents apply, so every kustomization whose tree sets `openapi` (this one, or a dep's, transitively) renders its bases from their sources in its own actions, which then read the `srcs` of all its deps transitively. The render fails, naming this attribute, when a tree sets `openapi` and it is not set.",
            default = False,
        ),
        "helm_inherits_namespace": attr.bool(
            doc = "Set when the kustomization file has a `helmCharts` entry without `namespace` and sets no `namespace` itself (Gazelle sets it). kustomize gives such a chart the namespace of the nearest kustomization including it that sets one, which this target's snapshot cannot know, so every kustomization including it (transitively) renders its bases from their sources, as for `openapi`. The render fails, naming this attribute, when such a chart is read from a snapshot under a namespace.",
            default = False,
        ),
        "images": IMAGES_ATTR,
        "stamp": STAMP_ATTR,
        "_stamp_flag": STAMP_FLAG_ATTR,
        "_provenance_flag": attr.label(
            default = Label("//rules:provenance"),
            providers = [BuildSettingInfo],
        ),
    },
    toolchains = [KRM_TOOLCHAIN_TYPE],
)

def _invert_functions(functions):
    """Turns {exec path: krm_function label} into the rule's {label: "path path..."}."""
    paths_by_label = {}
    for path, label in functions.items():
        if not path or _has_whitespace(path):
            fail("functions: exec path %r must be non-empty and contain no whitespace" % path)
        paths_by_label.setdefault(label, []).append(path)
    return {label: " ".join(paths) for label, paths in paths_by_label.items()}

def krm_kustomization(name, srcs = [], deps = [], dir = ".", kind = "", load_restrictor = "LoadRestrictionsRootOnly", functions = {}, provenance = "auto", builds_alone = True, build_metadata = False, openapi = False, helm_inherits_namespace = False, images = {}, stamp = -1, deliver = True, deliver_context = "", deliver_prune = False, **kwargs):
    """One kustomization directory; also defines `<name>_manifests` and run targets for a `Kustomization`.

    Declares the `krm_kustomization_rule` target `name` and, unless `kind` is `Component`,
    a target `<name>_manifests` whose only output is the rendered `<name>_manifests.yaml`
    (so `bazel build //deploy:prod_manifests` builds `bazel-bin/deploy/prod_manifests.yaml`),
    and, unless `deliver` is False, the `krm_deliver` run targets `<name>.apply`,
    `<name>.diff` and `<name>.delete` (`bazel run //deploy:prod.apply -- --context kind-dev`).
    All but `name` are tagged `manual`: `bazel build //...` builds the manifests through
    `name`, and builds no run target.

    Args:
      name: the target name. Outputs are `<name>.krmsnap` and `<name>_manifests.yaml`.
      srcs: the kustomization file and every local file it reads (source or generated
        files), Starlark scripts (`path:` of a `StarlarkRun`) and the `.star` files they
        load included.
      deps: the `krm_kustomization` targets of the bases and components it names.
      dir: the kustomization directory relative to the package (default `.`).
      kind: optional, read from the kustomization file: `Component` declares no
        `<name>_manifests` target; `Kustomization` or `Component` fail the render when
        the file says otherwise.
      load_restrictor: `LoadRestrictionsRootOnly` (default) or `LoadRestrictionsNone`.
      functions: dict from the exec path of an exec KRM function, exactly as its function
        config writes it (`./fn/set-team`, relative to `dir`), to the `krm_function` target
        to run for it. Under Bazel only declared executables run.
      provenance: `auto` (default: the build setting `@rules_krm//rules:provenance`), `on`
        or `off`. With provenance, the action also writes `<name>.provenance.json`.
      builds_alone: whether `kustomize build` of its directory succeeds (default True).
        False: its snapshot, which the kustomizations including it read, renders in an
        action of its own without the finishing steps, so that they build when it cannot;
        all its targets are then tagged `manual`.
      build_metadata: set when the kustomization file's `buildMetadata` lists anything
        (Gazelle sets it): the bases are then read from their snapshots with origins.
      openapi: set when the kustomization file sets `openapi` (Gazelle sets it): every
        kustomization whose tree sets it renders its bases from their sources.
      helm_inherits_namespace: set when the kustomization file has a `helmCharts` entry
        without `namespace` and sets no `namespace` (Gazelle sets it): the kustomizations
        including it render it from its sources, so the chart gets their namespace.
      images: dict from an image name as the manifests write it (`frontend`) to the target
        yielding its digest (a file holding `sha256:...`, such as rules_oci's
        `<oci_image>.digest`) or to a `krm_image` (digest and new name). Appended to the
        kustomization's `images`, sorted by name (docs/rules.md, "Images from the build").
      stamp: `-1` (default: stamp under `--stamp`), `1` or `0`. Stamping replaces
        `{STABLE_...}`/`{BUILD_...}` placeholders in label and annotation values and image
        fields in a separate `KrmStamp` action writing `<name>_manifests.stamped.yaml`.
      deliver: whether to declare `<name>.apply`, `<name>.diff` and `<name>.delete`
        (default True; never for a `Component`).
      deliver_context: the kubeconfig context of those targets (`--context`; a
        `--context` after `--` wins). Empty: the current context, which apply and delete
        use only when allow-listed (`KRM_ALLOWED_CONTEXTS`).
      deliver_prune: whether `<name>.apply` deletes the objects of its ApplySet that the
        manifests no longer hold (`krm apply --prune`).
      **kwargs: common attributes (`visibility`, `tags`, `testonly`, ...), given to every target.
    """

    # A kustomization kustomize cannot build alone would fail `bazel build //...`: only the
    # targets including it build it.
    rule_kwargs = dict(kwargs)
    if not builds_alone:
        rule_kwargs["tags"] = manual_tags(kwargs.get("tags", []))
    krm_kustomization_rule(
        name = name,
        srcs = srcs,
        deps = deps,
        dir = dir,
        kind = kind,
        load_restrictor = load_restrictor,
        functions = _invert_functions(functions),
        provenance = provenance,
        builds_alone = builds_alone,
        build_metadata = build_metadata,
        openapi = openapi,
        helm_inherits_namespace = helm_inherits_namespace,
        images = invert_images(images),
        stamp = stamp,
        **rule_kwargs
    )
    if kind != COMPONENT:
        # Tagged manual: `bazel build //deploy:prod_manifests` builds it when named, while
        # `bazel build //...` builds the same file through `name`, whose default output it
        # is, without a second top-level target per directory (a no-op build checks each).
        tags = kwargs.pop("tags", [])
        native.filegroup(
            name = name + "_manifests",
            srcs = [":" + name],
            output_group = "manifests",
            tags = manual_tags(tags),
            **kwargs
        )
        if deliver:
            deliver_targets(name, context = deliver_context, prune = deliver_prune, tags = tags, **kwargs)
