package bzldoc

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/good.md")

var goodEntries = []Entry{
	{File: "rules/defs.bzl", Label: "@x//rules:defs.bzl"},
	{File: "rules/extensions.bzl", Label: "@x//rules:extensions.bzl"},
}

// The re-exports of defs.bzl are followed through load() to the rule, macro
// and provider they name (attrs from a shared dict merged with dict(),
// private attributes left out), the extension's tag classes through a struct,
// and the Markdown is Stardoc's layout.
func TestGoodRepository(t *testing.T) {
	mods, err := Load("testdata/good", goodEntries)
	if err != nil {
		t.Fatal(err)
	}
	if p := Problems(mods); len(p) > 0 {
		t.Errorf("Problems = %q, want none", p)
	}
	var names []string
	for _, m := range mods {
		for _, s := range m.Symbols {
			names = append(names, s.Name)
		}
	}
	if got, want := strings.Join(names, " "), "x_lib x_macro XInfo x"; got != want {
		t.Errorf("symbols = %s, want %s", got, want)
	}
	lib := mods[0].Symbols[0].Rule
	var attrs []string
	for _, a := range publicAttrs(lib.Attrs) {
		attrs = append(attrs, a.Name+"="+a.Default)
	}
	if got, want := strings.Join(attrs, " "), `srcs=[] mode="fast" dep= n=0`; got != want {
		t.Errorf("x_lib attributes = %s, want %s", got, want)
	}

	got := Markdown("# Reference\n", mods)
	golden := filepath.Join("testdata", "good.md")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Markdown differs from %s (go test ./dev/docgen/bzldoc -update rewrites it):\n%s", golden, got)
	}
}

// Every missing doc is reported, naming the file and the symbol.
func TestProblems(t *testing.T) {
	mods, err := Load("testdata/bad", []Entry{{File: "rules/defs.bzl", Label: "@x//rules:defs.bzl"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"rules/defs.bzl: rule r has no doc",
		"rules/defs.bzl: rule r: attribute a has no doc",
		"rules/defs.bzl: macro m: parameter extra is not documented under Args:",
		"rules/defs.bzl: macro m: Args: documents other, which is not a parameter",
		"rules/defs.bzl: provider p has no doc",
		"rules/defs.bzl: provider p: field f has no doc",
		"rules/defs.bzl: module extension e has no doc",
		"rules/defs.bzl: module extension e: tag class t has no doc",
		"rules/defs.bzl: module extension e, tag class t: attribute v has no doc",
	}
	got := Problems(mods)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Problems =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A public name bound to anything but a rule, macro, provider or extension is
// an error naming it, not a silent omission.
func TestPublicConstantIsAnError(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "rules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules", "defs.bzl"), []byte("VERSION = \"1.0\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir, []Entry{{File: "rules/defs.bzl", Label: "@x//rules:defs.bzl"}})
	if err == nil || !strings.Contains(err.Error(), "rules/defs.bzl: public symbol VERSION is a string") {
		t.Errorf("Load error = %v, want one naming rules/defs.bzl and VERSION", err)
	}
}

func TestParseDocstring(t *testing.T) {
	d := parseDocstring("Summary.\n\n    Body.\n\n    Args:\n      a: first,\n        continued.\n      **kw: rest.\n    Returns:\n      nothing.\n    ")
	if d.body != "Summary.\n\nBody." || d.args["a"] != "first, continued." || d.args["**kw"] != "rest." || len(d.order) != 2 {
		t.Errorf("parseDocstring = %+v", d)
	}
}
