"""The module extension of rules_krm: the prebuilt renderer, its default toolchain.

rules_krm's MODULE.bazel uses it and registers its toolchains, so a module needs only
`bazel_dep(name = "rules_krm", version = ...)`. The root module may pick another released
version, or mirrors of the release archives:

```starlark
krm = use_extension("@rules_krm//rules:extensions.bzl", "krm")
krm.toolchain(
    version = "1.2.0",
    urls = ["https://mirror.example.com/rules_krm/v{version}/krm-{version}-{platform}.tar.gz"],
)
```

Implementation: //rules/private:prebuilt.bzl. Reference: "Toolchains" in docs/rules.md.
"""

load("//rules/private:prebuilt.bzl", "krm_extension")

krm = module_extension(
    doc = """Declares the prebuilt krm renderer: `@krm_<platform>` (`linux_amd64`, `linux_arm64`,
`darwin_amd64`, `darwin_arm64`) downloads `krm-<version>-<platform>.tar.gz` of the GitHub
release with the integrity checked in at @rules_krm//rules/private:versions.bzl, and
`@krm_toolchains` holds a `toolchain` per platform (rules_krm's MODULE.bazel registers
`@krm_toolchains//:all`). The version is rules_krm's own unless the root module's
`krm.toolchain` names another; a version without a release fails the fetch with the fix.""",
    implementation = krm_extension.implementation,
    tag_classes = krm_extension.tag_classes,
)
