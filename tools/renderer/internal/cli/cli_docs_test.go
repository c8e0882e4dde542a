package cli

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestCLIDocsListEveryFlag checks that docs/cli.md has a section for each
// command of krm's command table (commands, cli.go: a new command is one
// more entry there), naming every flag of the command (deprecated and hidden
// ones too) in its flag table, and no flag the command does not have; and
// that the doc has no section for a command krm does not have. Under Bazel,
// docs/cli.md is data of cli_test.
func TestCLIDocsListEveryFlag(t *testing.T) {
	doc, err := os.ReadFile("../../../../docs/cli.md")
	if err != nil {
		t.Fatalf("%v (under Bazel: //docs:cli.md in data of cli_test)", err)
	}
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	if len(names) < 9 { // build render trace stamp diff validate apply delete publish
		t.Fatalf("commands has %d entries: %v", len(names), names)
	}
	for _, m := range regexp.MustCompile("\n## `krm ([a-z]+)").FindAllStringSubmatch(string(doc), -1) {
		if _, ok := commands[m[1]]; !ok && m[1] != "version" {
			t.Errorf("docs/cli.md has a section for krm %s, which is not a command of krm", m[1])
		}
	}
	var sink strings.Builder
	flagRE := regexp.MustCompile("`(?:-[a-zA-Z], )?--([a-z0-9-]+)")
	for _, name := range names {
		fs := commands[name].flags(&sink)
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
