"""Implementation of `krm_validate_test`.

The test's executable is the toolchain's renderer itself (`krm validate`), under the test's
name. A Starlark rule cannot give its executable arguments, so the renderer reads them from
a file next to itself, `<executable>.krmargs`, one argument a line; `${XML_OUTPUT_FILE}`
there is the environment variable Bazel sets for the JUnit report (docs/cli.md). No shell:
the test runs where there is none.
"""

load(":kustomization.bzl", "kustomization_with_manifests", "label_string", "manifests_attr")
load(":toolchain.bzl", "KRM_TOOLCHAIN_TYPE", "tool_executable")

def _arg_line(ctx, attr, value):
    # One argument a line: a value with a line break would be two.
    if "\n" in value or "\r" in value:
        fail("%s of %s: %r must be on one line" % (attr, label_string(ctx.label), value), attr = attr)
    return value + "\n"

def _krm_validate_test_impl(ctx):
    info = kustomization_with_manifests(ctx, "validate")
    toolchain = ctx.toolchains[KRM_TOOLCHAIN_TYPE]

    # The full renderer: the lean one links no API server code, so it would leave the CRDs'
    # value validations and CEL rules unchecked (docs/architecture.md).
    renderer = toolchain.renderer
    exe = tool_executable(ctx, renderer.executable)

    # The test starts in the main repository's runfiles directory, where a file's
    # short_path leads to it (`../repo/path` for another repository's).
    lines = ["validate\n"]
    if ctx.attr.kubernetes_version:
        lines.append(_arg_line(ctx, "kubernetes_version", "--kubernetes-version=" + ctx.attr.kubernetes_version))
    lines.extend([_arg_line(ctx, "allow_kinds", "--allow-kind=" + k) for k in ctx.attr.allow_kinds])
    lines.extend([_arg_line(ctx, "crds", "--crd=" + f.short_path) for f in ctx.files.crds])
    lines.extend([_arg_line(ctx, "policies", "--policy=" + f.short_path) for f in ctx.files.policies])
    lines.extend([_arg_line(ctx, "namespace_labels", "--namespace-labels=" + n) for n in ctx.attr.namespace_labels])
    lines.append("--junit=${XML_OUTPUT_FILE}\n")

    # With provenance, errors name the source line of each field: krm reads the manifest and
    # the sources it names, which sit at their workspace paths in the runfiles directory.
    sources = depset()
    if info.provenance_manifest:
        lines.append(_arg_line(ctx, "kustomization", "--provenance-manifest=" + info.provenance_manifest.short_path))
        sources = info.sources
    lines.append(_arg_line(ctx, "kustomization", info.manifests.short_path))
    args = ctx.actions.declare_file(ctx.label.name + ".krmargs")
    ctx.actions.write(args, "".join(lines))
    extra = [info.provenance_manifest] if info.provenance_manifest else []
    return [DefaultInfo(
        executable = exe,
        files = depset([exe]),
        runfiles = ctx.runfiles(files = [exe, args, info.manifests] + extra + ctx.files.crds + ctx.files.policies, transitive_files = sources),
    )]

_krm_validate_test = rule(
    implementation = _krm_validate_test_impl,
    doc = "Fails when a rendered object of `kustomization` is invalid against its OpenAPI schema (the rule behind the `krm_validate_test` macro).",
    attrs = {
        "kustomization": manifests_attr("validated"),
        "crds": attr.label_list(
            doc = "Files (or targets, such as a `krm_kustomization` rendering CRDs) holding `CustomResourceDefinition`s whose schemas apply to the custom resources, besides the CRDs among the manifests (`krm validate --crd`).",
            allow_files = True,
        ),
        "policies": attr.label_list(
            doc = "Files or filegroups holding `ValidatingAdmissionPolicy`s, their bindings, params and Namespaces (admissionregistration.k8s.io/v1), evaluated on every rendered object as the API server's create would (`krm validate --policy`); the policies among the manifests apply too.",
            allow_files = [".yaml", ".yml", ".json"],
        ),
        "namespace_labels": attr.string_list(
            doc = "`NS=KEY=VALUE,...`: the labels of a Namespace that is not among the manifests, for the policies' `namespaceSelector`s (`krm validate --namespace-labels`).",
        ),
        "allow_kinds": attr.string_list(
            doc = "Kinds that are valid without a schema: `GROUP/KIND`, `/KIND` for the core group, `GROUP/*` for a whole group (`krm validate --allow-kind`).",
        ),
        "kubernetes_version": attr.string(
            doc = "The Kubernetes minor version whose built-in schemas apply (`v1.37`); empty: krm's default (`krm validate --kubernetes-version`).",
        ),
    },
    test = True,
    toolchains = [KRM_TOOLCHAIN_TYPE],
)

def krm_validate_test(name, kustomization, crds = [], policies = [], namespace_labels = [], allow_kinds = [], kubernetes_version = "", **kwargs):
    """Validates the rendered manifests of a kustomization against their OpenAPI schemas.

    Declares the test `name`, which runs `krm validate` (the toolchain's renderer, strict:
    unknown and duplicate fields, wrong types, missing required fields and kinds without a
    schema are errors; docs/cli.md) on the manifests of `kustomization`. Errors go to the
    test log, a line each, naming the object and the field; when the kustomization renders
    with provenance, each starts with the workspace-relative source file and line span of
    the field (`krm validate --provenance-manifest`: the test then also reads the
    kustomization's sources), and names the transformer that changed it. The JUnit XML
    report goes to Bazel's test.xml.
    The manifests file is the test's input: Bazel re-runs only the tests whose manifests
    changed.

    Args:
      name: the test name.
      kustomization: the `krm_kustomization` target (of kind `Kustomization`; a
        `Component` is an analysis error).
      crds: files or targets holding `CustomResourceDefinition`s for the custom resources
        (such as the `<name>_manifests` of a kustomization rendering CRDs; `--crd`); the
        CRDs among the manifests apply too, and win.
      policies: files or filegroups holding `ValidatingAdmissionPolicy`s, their bindings,
        params and Namespaces (`--policy`): a `Deny` is a test failure at the source line of
        the field its rule reads; `Warn` and `Audit` are notes in the log. Only the tests
        naming a policy file re-run when it changes.
      namespace_labels: `NS=KEY=VALUE,...` labels of Namespaces not among the manifests, for
        the policies' `namespaceSelector`s (`--namespace-labels`).
      allow_kinds: kinds valid without a schema: `GROUP/KIND`, `/KIND` (core group),
        `GROUP/*`.
      kubernetes_version: the Kubernetes minor version of the built-in schemas (`v1.37`);
        empty: krm's default.
      **kwargs: test attributes (`size`, default `small`; `tags`, `timeout`,
        `visibility`, ...).
    """
    kwargs.setdefault("size", "small")
    _krm_validate_test(
        name = name,
        kustomization = kustomization,
        crds = crds,
        policies = policies,
        namespace_labels = namespace_labels,
        allow_kinds = allow_kinds,
        kubernetes_version = kubernetes_version,
        **kwargs
    )
