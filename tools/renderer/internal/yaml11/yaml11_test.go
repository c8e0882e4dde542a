package yaml11

import (
	"math/rand"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// knownStrings are values near the edges of Known: YAML 1.1 words, numbers,
// timestamps, colons, mappings and sequences.
var knownStrings = []string{
	"", "a", "y", "Y", "n", "N", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
	"true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL", "~", "<<", "nulls", "yess", "Truee",
	"onion", "offset", "tRUE", "yES", "nO", "http", "web", "logs", "any", "dev", "yesno", "Nul", "NUll", "oN", "fALSE", ".inf", ".nan", "+.inf", "-.inf", "1", "0755", "0x1F", "1e3", "1.5",
	"2001-12-14", "2001-12-14t21:59:43.10-05:00", "1:20", "190:20:30", "a:b", "a:", "a: b", "a::b", "a:/b", "a:-b",
	"a:1", "http://x", "nginx:1.2.3", "registry.example.com/team-4/app-00:1.2.4-dev.60", "app-00", "a.b", "a_b",
	"a-b", "a/b", "a#b", "a #b", "a b", "a\nb", "a\tb", "-a", "_a", ".a", "/a", "é", "aé", "e10", "E10", "x1", "infinity",
	"NaN", "nan", "Inf", "abcdef", "yesno", "a:b:c", "a:b:", "Z:z", "a---", "a...", "a-", "a.", "a/", "a_",
}

func TestKnownAgreesWithKyaml(t *testing.T) {
	for _, s := range knownStrings {
		if Known(s) && yaml.IsValueNonString(s) {
			t.Errorf("Known(%q) but kyaml reads it as not a string", s)
		}
	}
	for _, s := range []string{"app-00", "nginx:1.2.3", "registry.example.com/team-4/app-00:1.2.4-dev.60", "a:b", "abcdef", "yesno", "x1", "http", "any"} {
		if !Known(s) {
			t.Errorf("Known(%q) = false, want true (a common shape)", s)
		}
	}
}

// TestKnownRandom compares Known with kyaml on random strings over the
// alphabet Known decides on and its neighbours.
func TestKnownRandom(t *testing.T) {
	const alphabet = "aAyYnNtTfFoOlLeEsSuUrRxXbB0123456789_.-/:+ #~<"
	rng := rand.New(rand.NewSource(1))
	known := 0
	for i := 0; i < 200000; i++ {
		var b strings.Builder
		for n := 1 + rng.Intn(8); n > 0; n-- {
			b.WriteByte(alphabet[rng.Intn(len(alphabet))])
		}
		s := b.String()
		if Known(s) {
			known++
			if yaml.IsValueNonString(s) {
				t.Fatalf("Known(%q) but kyaml reads it as not a string", s)
			}
		}
	}
	if known < 1000 {
		t.Fatalf("only %d random strings known", known)
	}
}

func FuzzKnown(f *testing.F) {
	for _, s := range knownStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if Known(s) && yaml.IsValueNonString(s) {
			t.Fatalf("Known(%q) but kyaml reads it as not a string", s)
		}
	})
}

func TestMarkUnmark(t *testing.T) {
	n, err := yaml.Parse("a: app-00\nb: \"x-y\"\nc: yes\nd: [app-01]\ne:\n- k: app-02\n  n: 3\nf: !!str app-03\n")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := n.String()
	if !MarkKnown(n.YNode(), false) {
		t.Fatal("MarkKnown refused a document without aliases")
	}
	var marked []string
	var walk func(*yaml.Node)
	walk = func(x *yaml.Node) {
		if x.Style&checked != 0 {
			marked = append(marked, x.Value)
		}
		for _, c := range x.Content {
			walk(c)
		}
	}
	walk(n.YNode())
	if got := strings.Join(marked, ","); got != "app-00,app-02" {
		t.Errorf("marked %s, want app-00,app-02 (a tagged value has a style)", got)
	}
	Unmark(n.YNode())
	marked = nil
	walk(n.YNode())
	if got, _ := n.String(); got != want || len(marked) != 0 {
		t.Errorf("after Unmark: %q (marked %v), want %q", got, marked, want)
	}

	a, err := yaml.Parse("a: &x {k: app-00}\nb: *x\n")
	if err != nil {
		t.Fatal(err)
	}
	if MarkKnown(a.YNode(), false) {
		t.Error("MarkKnown accepted a document with an alias")
	}
}

func TestMarkKnownSkipsSharedNodes(t *testing.T) {
	n, err := yaml.Parse("a:\n  k: app-00\nb:\n  k: app-01\nc: app-02\n")
	if err != nil {
		t.Fatal(err)
	}
	root := n.YNode()
	// b's mapping is a's, and c's value is a's k: both reachable twice.
	root.Content[3] = root.Content[1]
	root.Content[5] = root.Content[1].Content[1]
	if !MarkKnown(root, false) {
		t.Fatal("MarkKnown refused")
	}
	var walk func(*yaml.Node)
	walk = func(x *yaml.Node) {
		if x.Style != 0 {
			t.Errorf("%q has style %d", x.Value, x.Style)
		}
		for _, c := range x.Content {
			walk(c)
		}
	}
	walk(root)
}
