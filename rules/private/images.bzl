"""The `images` of `krm_kustomization`, and `krm_image`: images pinned by digest from the build."""

load(":providers.bzl", "KrmImageInfo")

def _krm_image_impl(ctx):
    if ctx.attr.new_name and ctx.file.repository_file:
        fail("%s: set new_name or repository_file, not both" % ctx.label, attr = "repository_file")
    if not _is_word(ctx.attr.new_name) or "@" in ctx.attr.new_name:
        fail("%s: new_name %r must be a repository (no whitespace, comma, = or @digest)" % (ctx.label, ctx.attr.new_name), attr = "new_name")
    files = [ctx.file.digest]
    if ctx.file.repository_file:
        files.append(ctx.file.repository_file)
    return [
        KrmImageInfo(
            label = ctx.label,
            digest = ctx.file.digest,
            digest_label = ctx.attr.digest.label,
            new_name = ctx.attr.new_name,
            repository_file = ctx.file.repository_file,
        ),
        DefaultInfo(files = depset(files)),
    ]

krm_image = rule(
    implementation = _krm_image_impl,
    doc = """An image built by Bazel, pinned by digest, with a new name: a value of `images`.

`krm_kustomization(images = {NAME: TARGET})` pins the image the manifests write as `NAME`
to the digest in TARGET's file. When the image also gets a new name (the registry
repository it is pushed to), bundle digest and name in a `krm_image`:

```starlark
load("@rules_krm//rules:defs.bzl", "krm_image", "krm_kustomization")

krm_image(
    name = "frontend_image",
    digest = ":frontend.digest",            # rules_oci: oci_image(name = "frontend").digest
    repository_file = ":frontend_repository",  # the file given to oci_push(repository_file = ...)
)

krm_kustomization(
    name = "prod",
    srcs = glob(["*.yaml"]),
    images = {"frontend": ":frontend_image"},
)
```

The effect is that of the kustomize entry
`{name: frontend, newName: <repository>, digest: sha256:...}` appended to the
kustomization's `images`. See docs/rules.md, "Images from the build".""",
    attrs = {
        "digest": attr.label(
            doc = "A target whose one file holds the image digest (`sha256:` and 64 lowercase hex digits; a trailing newline is fine), such as rules_oci's `<oci_image>.digest`. Built in the target configuration.",
            allow_single_file = True,
            mandatory = True,
        ),
        "new_name": attr.string(
            doc = "The image's new name (`newName` of the kustomize entry): a repository such as `gcr.io/project/frontend`, without tag or digest.",
        ),
        "repository_file": attr.label(
            doc = "A file holding the new name instead of `new_name` (one line), such as the file given to rules_oci's `oci_push` `repository_file`.",
            allow_single_file = True,
        ),
    },
)

def _is_word(s):
    """Whether s has none of the characters that cannot be in an image name or a flag value."""
    for c in [" ", "\t", "\n", "\r", ",", "="]:
        if c in s:
            return False
    return True

def _split_names(names):
    return [n for n in names.split(" ") if n]

def pinned_images(ctx, dir, label_string):
    """The images a kustomization's render action pins: its `images` attribute, checked.

    Args:
      ctx: the rule context of a `krm_kustomization_rule`.
      dir: the kustomization's directory, as the render action sees it.
      label_string: formats a label for messages.

    Returns:
      struct(args, dir_args, inputs): the `--image` flags of `krm render` (sorted by image
      name), the same scoped to the kustomization's directory `dir` (for a parent that renders
      it from its sources), and the files they read.
    """
    by_name = {}
    for target, names in ctx.attr.images.items():
        if KrmImageInfo in target:
            info = target[KrmImageInfo]
        else:
            files = target.files.to_list()
            if len(files) != 1:
                fail("images of %s: %s must yield one file holding the image digest (sha256:...), it yields %d%s" % (
                    label_string(ctx.label),
                    label_string(target.label),
                    len(files),
                    (": " + ", ".join([f.short_path for f in files])) if files else "",
                ), attr = "images")
            info = KrmImageInfo(label = target.label, digest = files[0], digest_label = target.label, new_name = "", repository_file = None)
        if not _split_names(names):
            fail("images of %s: %s maps to no image name" % (label_string(ctx.label), label_string(target.label)), attr = "images")
        for name in _split_names(names):
            if name in by_name:
                fail("images of %s: image %s is pinned twice: by %s and %s" % (
                    label_string(ctx.label),
                    name,
                    label_string(by_name[name].label),
                    label_string(info.label),
                ), attr = "images")
            by_name[name] = info
    args = []
    dir_args = []
    inputs = []
    for name in sorted(by_name.keys()):
        info = by_name[name]
        flag = "--image=name=%s,digestFile=%s" % (name, info.digest.path)
        inputs.append(info.digest)
        if info.new_name:
            flag += ",newName=" + info.new_name
        if info.repository_file:
            flag += ",newNameFile=" + info.repository_file.path
            inputs.append(info.repository_file)
        source = ",source=" + label_string(info.digest_label)
        args.append(flag + source)
        dir_args.append(flag + ",dir=" + dir + source)
    return struct(args = args, dir_args = dir_args, inputs = inputs)

IMAGES_ATTR = attr.label_keyed_string_dict(
    doc = "Images pinned by digest from the build: a target maps to the image name(s) the manifests write (`frontend`, matched as kustomize matches `images[].name`; several separated by spaces). The target is either one whose single file holds the digest (`sha256:...`, such as rules_oci's `<oci_image>.digest` or a genrule), or a `krm_image` that adds a new name. The render action appends a kustomize `images` entry `{name, digest[, newName]}` per name, sorted by name, after the kustomization file's own `images`: the output is what `kustomize build` prints with those entries written at the end of the file. Built in the target configuration. Not allowed on a `Component`. (The `krm_kustomization` macro takes the inverse mapping, name to target.)",
    allow_files = True,
)

def invert_images(images):
    """Turns the macro's {image name: label} into the rule's {label: "name name..."}.

    Args:
      images: dict from image name to label.

    Returns:
      dict from label to the space-separated names it pins.
    """
    names_by_label = {}
    for name, label in images.items():
        if not name or not _is_word(name):
            fail("images: image name %r must be non-empty, without whitespace, comma or =" % name)
        names_by_label.setdefault(label, []).append(name)
    return {label: " ".join(names) for label, names in names_by_label.items()}
