"""Providers."""

XInfo = provider(
    doc = """What x_lib returns.

More text.""",
    fields = {
        "srcs": "depset of File: the sources.",
        "label": "Label: the target.",
    },
)
