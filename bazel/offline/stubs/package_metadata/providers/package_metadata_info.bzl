"""Stub of the supply-chain PackageMetadataInfo provider (bazel/offline/README.md)."""

PackageMetadataInfo = provider(doc = "stub", fields = ["metadata"])
