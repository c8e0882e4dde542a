"""Stub of the supply-chain package_metadata rule (dev/offline/README.md).

go_repository's REPO.bazel names it as the default package metadata: applicable_licenses = []
avoids a dependency cycle on itself.
"""

def _impl(_ctx):
    return []

_package_metadata = rule(implementation = _impl, attrs = {"purl": attr.string(), "attributes": attr.label_list()})

def package_metadata(name, visibility = None, **kwargs):
    _package_metadata(name = name, purl = kwargs.get("purl"), visibility = visibility, applicable_licenses = [])
