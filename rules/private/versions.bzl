"""The released prebuilt renderers: version -> platform -> integrity of the archive.

`dev/scripts/release.sh VERSION OUTDIR` builds the archives
(`krm-<version>-<platform>.tar.gz`, each holding `krm`, `krm_helm`, `krm_nohelm` and
`krm_golden`) and
writes the entry of VERSION here; the release uploads the archives to
https://github.com/rules-krm/rules_krm/releases/download/v<version>/ (docs/releasing.md).
Newest first. The integrity is Subresource Integrity: "sha256-" and the base64 digest.
"""

KRM_VERSIONS = {
}
