"""Stub of rules_shell's sh_library for machines without a registry: the native rule."""

sh_library = native.sh_library
