"""How rules_krm writes labels in messages, flags and files."""

def label_string(label):
    """Formats a label as users write it: `//pkg:name`, or `@repo//pkg:name` for another repository.

    Args:
      label: a Label.

    Returns:
      The label as a string.
    """
    if label.workspace_name:
        return "@%s//%s:%s" % (label.workspace_name, label.package, label.name)
    return "//%s:%s" % (label.package, label.name)
