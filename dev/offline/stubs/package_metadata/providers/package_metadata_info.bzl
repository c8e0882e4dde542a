"""Stub of the supply-chain PackageMetadataInfo provider (dev/offline/README.md)."""

PackageMetadataInfo = provider(doc = "stub", fields = ["metadata"])
