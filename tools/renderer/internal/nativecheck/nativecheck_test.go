package nativecheck

import (
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite the errors wanted in testdata/cases.txt with Check's (review the diff; long values come out written in full)")

// The cases of testdata/cases.txt: a "### NAME" line, a YAML object, then "---" and the
// errors wanted, one "FIELD: MESSAGE" line each (none: valid), in Check's order.
func TestCheck(t *testing.T) {
	raw, err := os.ReadFile("testdata/cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	chunks := strings.Split(string(raw), "### ")[1:]
	if len(chunks) < 40 {
		t.Fatalf("%d cases, want at least 40", len(chunks))
	}
	var rewritten strings.Builder
	for _, chunk := range chunks {
		name, body, _ := strings.Cut(chunk, "\n")
		src, want, ok := strings.Cut(body, "\n---\n")
		if !ok {
			t.Fatalf("%s: no --- line", name)
		}
		t.Run(name, func(t *testing.T) {
			j, err := yaml.YAMLToJSON([]byte(expand(src)))
			if err != nil {
				t.Fatal(err)
			}
			var obj map[string]any
			if err := json.Unmarshal(j, &obj); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range New().Check(obj) {
				got = append(got, e.Error())
			}
			var wantLines []string
			for _, l := range strings.Split(strings.TrimSpace(expand(want)), "\n") {
				if l != "" {
					wantLines = append(wantLines, l)
				}
			}
			rewritten.WriteString("### " + name + "\n" + src + "\n---\n")
			for _, g := range got {
				rewritten.WriteString(g + "\n")
			}
			if *update {
				return
			}
			if strings.Join(got, "\n") != strings.Join(wantLines, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantLines, "\n"))
			}
		})
	}
	if *update {
		if err := os.WriteFile("testdata/cases.txt", []byte(rewritten.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestKnows(t *testing.T) {
	if !Knows("apps", "Deployment") || !Knows("", "Service") || Knows("example.com", "Widget") || Knows("", "Deployment") {
		t.Error("Knows: wrong kinds")
	}
}

var repeat = regexp.MustCompile(`\{\{(.)\*([0-9]+)\}\}`)

// expand writes out {{C*N}}, N times C, for the long values of the cases.
func expand(s string) string {
	return repeat.ReplaceAllStringFunc(s, func(m string) string {
		sub := repeat.FindStringSubmatch(m)
		n, _ := strconv.Atoi(sub[2])
		return strings.Repeat(sub[1], n)
	})
}
