"""Minimal rules_cc stand-in for Debian's Bazel 4.2.3 (offline only): forwards to the native rules.

Debian's bazel-rules-cc is too new for Bazel 4.2.3 and the real rules_cc cannot be downloaded.
"""

def cc_binary(**attrs):
    """Forwards to native.cc_binary."""

    # buildifier: disable=native-cc-binary
    native.cc_binary(**attrs)

def cc_test(**attrs):
    """Forwards to native.cc_test."""

    # buildifier: disable=native-cc-test
    native.cc_test(**attrs)

def cc_library(**attrs):
    """Forwards to native.cc_library."""

    # buildifier: disable=native-cc-library
    native.cc_library(**attrs)

def cc_import(**attrs):
    """Forwards to native.cc_import."""

    # buildifier: disable=native-cc-import
    native.cc_import(**attrs)

def cc_proto_library(**attrs):
    """Forwards to native.cc_proto_library."""

    # buildifier: disable=native-cc-proto
    native.cc_proto_library(**attrs)

def fdo_prefetch_hints(**attrs):
    """Forwards to native.fdo_prefetch_hints."""

    # buildifier: disable=native-cc-fdo-prefetch-hints
    native.fdo_prefetch_hints(**attrs)

def fdo_profile(**attrs):
    """Forwards to native.fdo_profile."""

    # buildifier: disable=native-cc-fdo-profile
    native.fdo_profile(**attrs)

def cc_toolchain(**attrs):
    """Forwards to native.cc_toolchain."""

    # buildifier: disable=native-cc-toolchain
    native.cc_toolchain(**attrs)

def cc_toolchain_suite(**attrs):
    """Forwards to native.cc_toolchain_suite."""

    # buildifier: disable=native-cc-toolchain-suite
    native.cc_toolchain_suite(**attrs)

def objc_library(**attrs):
    """Forwards to native.objc_library."""

    # buildifier: disable=native-cc-objc-library
    native.objc_library(**attrs)

def objc_import(**attrs):
    """Forwards to native.objc_import."""

    # buildifier: disable=native-cc-objc-import
    native.objc_import(**attrs)
