package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// root is the repository root, from this package's directory (also under
// bazel test, whose runfiles hold rules/ and docs/rules-reference.md).
const root = "../.."

// The checked-in reference is what the .bzl files generate: CI fails on any
// docstring, attribute or re-export that changed without regenerating it.
func TestReferenceIsUpToDate(t *testing.T) {
	want, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, Output))
	if err != nil {
		t.Fatalf("%v: run `%s` from the repository root", err, Command)
	}
	if bytes.Equal(got, want) {
		return
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	line := 0
	for line < len(g) && line < len(w) && g[line] == w[line] {
		line++
	}
	at := func(lines []string) string {
		if line < len(lines) {
			return lines[line]
		}
		return "(end of file)"
	}
	t.Errorf("%s is out of date with the docstrings of rules/*.bzl: run `%s` from the repository root.\n"+
		"First difference at line %d:\n  checked in: %s\n  generated:  %s", Output, Command, line+1, at(g), at(w))
}
