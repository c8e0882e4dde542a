package releasecheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestArchitectureNamesEveryPackage: docs/architecture.md's tree of the renderer names every
// Go package under tools/renderer/internal and tools/renderer/dev, so a package cannot be
// added without saying what its one job is.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	root := checkout(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	named := treeNames(string(doc))
	var missing []string
	for _, dir := range []string{"tools/renderer/internal", "tools/renderer/dev"} {
		for _, pkg := range goPackages(t, filepath.Join(root, dir)) {
			if !named[filepath.Base(pkg)] {
				missing = append(missing, filepath.ToSlash(filepath.Join(dir, pkg)))
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("docs/architecture.md's package tree does not name %s: add a line saying what each does", strings.Join(missing, ", "))
	}
}

func TestTreeNames(t *testing.T) {
	got := treeNames("text ├─ notthis\n```\ncli (flags)\n  ├─ worker   serves\n  │    └─ gcpace  paces\n  internal/ (x)\n  kustref   which\n```\n")
	for _, want := range []string{"cli", "worker", "gcpace", "kustref"} {
		if !got[want] {
			t.Errorf("treeNames misses %s", want)
		}
	}
	if got["notthis"] || got["serves"] {
		t.Errorf("treeNames = %v: names outside the code block or after the name", got)
	}
}

// treeLine is a line of the tree: guides, then a package name.
var treeLine = regexp.MustCompile(`^[\s│├└─]*([a-z][a-z0-9]*)(/|\s|$)`)

// treeNames are the first words of the lines of the code blocks of doc.
func treeNames(doc string) map[string]bool {
	names := map[string]bool{}
	in := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "```") {
			in = !in
			continue
		}
		if m := treeLine.FindStringSubmatch(line); in && m != nil {
			names[m[1]] = true
		}
	}
	return names
}

// goPackages are the directories under dir (relative to it) that hold Go files, leaving
// out testdata.
func goPackages(t *testing.T, dir string) []string {
	t.Helper()
	seen := map[string]bool{}
	var pkgs []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			rel, _ := filepath.Rel(dir, filepath.Dir(p))
			if rel != "." && !seen[rel] {
				seen[rel] = true
				pkgs = append(pkgs, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}
