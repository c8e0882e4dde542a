PackageMetadataInfo = provider(doc = "stub", fields = ["metadata"])
