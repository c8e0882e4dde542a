package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestCLIDocsListEveryFlag checks that docs/cli.md names every flag of each
// command (deprecated and hidden ones too) in that command's section, and no
// flag the command does not have.
func TestCLIDocsListEveryFlag(t *testing.T) {
	doc, err := os.ReadFile("../../../../docs/cli.md")
	if err != nil {
		t.Skipf("no docs/cli.md (under Bazel the test data does not include it): %v", err)
	}
	var sink strings.Builder
	commands := map[string]*pflag.FlagSet{
		"build":    buildFlags(&sink).fs,
		"render":   renderFlags(&sink).fs,
		"trace":    traceFlags(&sink).fs,
		"diff":     diffFlags(&sink).fs,
		"validate": validateFlags(&sink).fs,
		"apply":    applyFlags(&sink).fs,
		"delete":   deleteFlags(&sink).fs,
		"publish":  publishFlags(&sink).fs,
	}
	flagRE := regexp.MustCompile("`(?:-[a-zA-Z], )?--([a-z0-9-]+)")
	for name, fs := range commands {
		section := docSection(string(doc), "## `krm "+name)
		if section == "" {
			t.Errorf("docs/cli.md has no section for krm %s", name)
			continue
		}
		documented := map[string]bool{}
		for _, row := range strings.Split(section, "\n") {
			if !strings.HasPrefix(row, "| `") {
				continue
			}
			cell := strings.SplitN(row[1:], " | ", 2)[0] // the row's first column
			for _, m := range flagRE.FindAllStringSubmatch(cell, -1) {
				documented[m[1]] = true
			}
		}
		fs.VisitAll(func(f *pflag.Flag) {
			if !documented[f.Name] {
				t.Errorf("docs/cli.md: krm %s: --%s is not in the flag table", name, f.Name)
			}
			if f.Shorthand != "" && !strings.Contains(section, "`-"+f.Shorthand+", --"+f.Name) {
				t.Errorf("docs/cli.md: krm %s: --%s: write it as `-%s, --%s`", name, f.Name, f.Shorthand, f.Name)
			}
			delete(documented, f.Name)
		})
		for f := range documented {
			t.Errorf("docs/cli.md: krm %s documents --%s, which it does not have", name, f)
		}
	}
}

// docSection returns the part of doc from the heading starting with prefix
// to the next second-level heading.
func docSection(doc, prefix string) string {
	i := strings.Index(doc, "\n"+prefix)
	if i < 0 {
		return ""
	}
	s := doc[i+1:]
	if j := strings.Index(s[1:], "\n## "); j >= 0 {
		s = s[:j+1]
	}
	return s
}
