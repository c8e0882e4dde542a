"""Stub of rules_shell's sh_test for machines without a registry: the native rule."""

sh_test = native.sh_test
