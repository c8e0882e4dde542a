"""Undocumented symbols."""

load("//rules:private.bzl", _p = "p", _r = "r", _m = "m", _e = "e")

r = _r
m = _m
p = _p
e = _e
