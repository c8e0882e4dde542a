r = rule(implementation = None, attrs = {"a": attr.string(), "_b": attr.string()})

def m(name, extra = 1):
    """Does m.

    Args:
      name: the name.
      other: not a parameter.
    """

p = provider(fields = {"f": ""})

e = module_extension(implementation = None, tag_classes = {"t": tag_class(attrs = {"v": attr.bool()})})
