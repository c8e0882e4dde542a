"""Stub of rules_shell's sh_binary for machines without a registry: the native rule."""

sh_binary = native.sh_binary
