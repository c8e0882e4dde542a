"""Providers of rules_krm."""

KrmRendererInfo = provider(
    doc = """The krm renderer that a `krm_toolchain` supplies.

Rules reach it through the toolchain:
`ctx.toolchains["@rules_krm//rules:toolchain_type"].renderer`, and run it with
`ctx.actions.run(executable = renderer.files_to_run, ...)`.""",
    fields = {
        "executable": "File: the renderer executable (built for the exec configuration).",
        "files_to_run": "FilesToRunProvider: the renderer with its runfiles; pass it as `executable` to `ctx.actions.run`.",
    },
)

KrmKustomizationInfo = provider(
    doc = """What a `krm_kustomization` target hands to the kustomizations that include it.

A kustomization that names this target in `resources` (a base) or `components` lists it in
its `deps` and reads its snapshot: a base's accumulated resources, or a component's files
(with those of the components it names and its bases' snapshots). Analysis need not know
which: the renderer reads the snapshot's header.""",
    fields = {
        "label": "Label: the target.",
        "kind": "string: the `kind` attribute: `\"\"` (read from the kustomization file), `Kustomization` or `Component`.",
        "dir": "string: the kustomization directory, relative to the execution root (for example `examples/deploy/prod`, or `external/repo/pkg` for a target of another repository). The renderer matches `--dep DIR=SNAPSHOT` flags against it.",
        "snapshot": "File: `<name>.krmsnap` (docs/snapshot.md), a kustomization's snapshot or a component's files.",
        "manifests": "File or None: the rendered manifests (`<name>_manifests.yaml`, what `kustomize build DIR` prints; with stamping, `<name>_manifests.stamped.yaml`; empty for a component without `kind = \"Component\"`); None for `kind = \"Component\"`.",
        "srcs": "depset of File: its own `srcs`.",
        "bases": "depset of struct(dir, snapshot, origins_snapshot, label, provenance): the `--dep DIR=SNAPSHOT` that a kustomization including this target passes to the renderer: itself (`provenance`: whether the snapshot serves a parent rendering with provenance).",
        "origins_snapshot": "File: `<name>.origins.krmsnap`, the snapshot rendered with origins (`krm render --origins`), for parents whose `buildMetadata` asks; built only when one needs it.",
        "origins_inputs": "depset of File: `inputs` for a parent reading the snapshots with origins.",
        "inputs": "depset of File: the files that the actions of a kustomization including this target need: its snapshot (the renderer finds it by the path the parent names: the directory need not exist in the sandbox).",
        "functions": "list of struct(path, function): the exec functions that the actions of a kustomization including this target must declare (`--function PATH=EXECUTABLE`): unless `kind = \"Kustomization\"` (the target may be a component), its `functions` and those of its deps, transitively, with `path` relative to the execution root and `function` a `KrmFunctionInfo`; else none (its functions ran in its own actions).",
        "components": "depset of struct(dir, label): unless `kind = \"Kustomization\"`, itself and those of its deps, transitively (a kustomization including it passes `--label-map DIR=LABEL` for each with provenance); else empty.",
        "provenance": "bool: whether the snapshot serves a parent rendering with provenance (a kustomization rendering with provenance; a `kind = \"Component\"` whose bases have it).",
        "provenance_manifest": "File or None: `<name>.provenance.json` when the target renders with provenance; None otherwise.",
        "openapi": "bool: whether this kustomization or one in its tree sets `openapi` (the `openapi` attribute, transitively): the kustomizations including it then render their bases from sources.",
        "helm_inherits_namespace": "bool: whether this kustomization or one in its tree has a helm chart that inherits the namespace of the kustomization including it (the `helm_inherits_namespace` attribute, transitively): the kustomizations including it then render their bases from sources.",
        "helm_charts": "bool: whether its `srcs` or those of a dep (transitively) hold a helm chart (a `Chart.yaml` or a packaged `.tgz`): an action that may inflate it runs the toolchain's full renderer rather than its lean one.",
        "sources": "depset of File: its `srcs` and those of its deps, transitively: what a kustomization rendering its bases from sources reads.",
        "owners": "depset of struct(dir, label, image_args, image_files, functions): this kustomization and those of its deps, transitively (`image_args`: its `--image` flags scoped to its directory, `image_files`: the files they read; `functions`: the entries of its own `functions`, as in the `functions` field), for `--owner`, `--label-map` and `--function` when rendering bases from sources.",
    },
)

KrmFunctionInfo = provider(
    doc = """An executable declared as a KRM function, from a `krm_function` target.

A `krm_kustomization` maps the exec paths of its function configs to these in its
`functions` attribute; its render action gets the executable (and its runfiles) as a tool
and runs it for those paths. Under Bazel, only declared executables run.""",
    fields = {
        "label": "Label: the `krm_function` target.",
        "executable": "File: the executable (built for the execution platform).",
        "files_to_run": "FilesToRunProvider: the executable with its runfiles; render actions list it in `tools`.",
    },
)

KrmGoldenInfo = provider(
    doc = """The golden files that a `krm_golden_update` or `krm_golden_update_all` target rewrites.""",
    fields = {
        "goldens": "depset of struct(manifests, golden, source, kustomization): `manifests` the rendered File, `golden` the golden File, `source` its path in the main repository's source tree, `kustomization` the label string of the `krm_kustomization` target.",
    },
)

KrmImageInfo = provider(
    doc = """An image to pin by digest, from a `krm_image` target.

A `krm_kustomization` maps an image name, as its manifests write it, to such a target in
`images`; the render action appends a kustomize `images` entry with the digest (and the new
name) read from these files.""",
    fields = {
        "label": "Label: the `krm_image` target.",
        "digest": "File: holds the image digest (`sha256:` and 64 hex digits), as rules_oci's `<oci_image>.digest` writes it.",
        "digest_label": "Label: the target that yields `digest`; provenance records it as the digest's source.",
        "new_name": "string: the image's new name (`newName` of the kustomize entry), or empty.",
        "repository_file": "File or None: holds the new name instead (a repository, as given to rules_oci's `oci_push` `repository_file`).",
    },
)

KrmStampInfo = provider(
    doc = "Whether the build stamps (`--stamp`): the value of `@rules_krm//rules:stamp`, which `krm_kustomization` reads when its `stamp` is -1.",
    fields = {
        "stamp": "bool: True when Bazel runs with `--stamp`.",
    },
)
