package printer

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
)

// printerStrings exercise go-yaml v2's choices of style, quoting, escapes
// and folding, as values and as keys.
var printerStrings = []string{
	"", " ", "a", "nginx:1.2", "a: b", "a:b", "a #b", "a#b", "#a", "- a", "-a", "-", "--", "---x", "...", "? a", "?a",
	":a", "a:", "'a'", "it's", `"q"`, `back\slash`, "*x", "&x", "!x", "|x", ">x", "%x", "@x", "`x", "[a]", "{a}", "a,b",
	"true", "True", "yes", "on", "n", "null", "~", "<<", "1", "-1", "+1", "0x1F", "0o17", "017", "0b101", "-0b101", "1_000",
	"1.5", ".5", ".inf", "-.inf", ".nan", "1e3", "1:20", "190:20:30", "2001-12-14", "2001-12-14 21:59:43.10", "2001-1-2x",
	"1.2.3", "500m", "2Gi", "-c", "+x", "héllo ✓", "a\tb", "a\x01b", "\u00a0", "\u0085", "\ufeff", "\U0001F600", "é",
	"line\n", "line1\nline2", "line1\nline2\n", "\nlead", " lead\n", "trail \nx", "x\n y", "a\n\nb\n", "a\n\n", "\n",
	"trailing ", " leading", "two  spaces", "a\r\nb",
	strings.Repeat("word ", 30), strings.Repeat("x", 90) + " y z", strings.Repeat("ab ", 40) + "#c",
	strings.Repeat("it's a ", 20), "'" + strings.Repeat("q ", 50), strings.Repeat("a  ", 40), strings.Repeat("é ", 50),
	strings.Repeat("tab\t", 30), strings.Repeat("\"q\" ", 30) + "  x", strings.Repeat("word ", 30) + "\nnext line",
	strings.Repeat("long line ", 12) + "\n  indented\n\nafter blank\n",
	"b10", "b9", "B", "b01", "b001", "a1b", "a01b", "a10", "x0", "x00", "10", "9", "Zz", "zZ", "_a", "a_", "a.b", "a-b",
}

func TestPrinterMatchesGoYAMLv2(t *testing.T) {
	var doc strings.Builder
	doc.WriteString("kind: A\nmetadata:\n  name: a\nspec:\n  list:\n")
	for _, s := range printerStrings {
		doc.WriteString("  - " + krmtest.Quote(s) + "\n")
	}
	doc.WriteString("  nested:\n  - - a\n    - {}\n    - []\n    - k: v\n      l: [x]\n  - {k: {j: [1, true, null]}}\n  empty: {}\n  none: []\n")
	doc.WriteString("  map:\n")
	for _, s := range printerStrings {
		doc.WriteString("    " + krmtest.Quote(s) + ": " + krmtest.Quote(s) + "\n")
	}
	node, err := yaml.Parse(doc.String())
	if err != nil {
		t.Fatal(err)
	}
	n := node.YNode()
	// Keys that go-yaml v2 cannot print as simple keys, `|+` scalars and
	// breaks other than '\n' make the printer give up: print one string
	// at a time, as a key and as an item, besides the whole document.
	printed := comparePrinter(t, n)
	spec := node.Field("spec").Value
	mapNode := spec.Field("map").Value.YNode()
	list := spec.Field("list").Value.YNode()
	keys, items := mapNode.Content, list.Content
	mapNode.Content, list.Content = nil, nil
	for i := 0; i < len(keys); i += 2 {
		mapNode.Content = keys[i : i+2]
		printed += comparePrinter(t, n)
	}
	mapNode.Content = nil
	for _, it := range items {
		list.Content = []*yaml.Node{it}
		printed += comparePrinter(t, n)
	}
	if want := 2*len(printerStrings) - 30; printed < want {
		t.Errorf("the printer printed %d documents, want at least %d", printed, want)
	}
}

// comparePrinter checks printNode against go-yaml v2 marshalling
// plainValue's value, and returns 1 when the printer printed n.
func comparePrinter(t *testing.T, n *yaml.Node) int {
	t.Helper()
	got, ok := printNode(n, nil)
	if !ok {
		return 0
	}
	v, plain := plainValue(n, false)
	if !plain {
		t.Errorf("printNode printed a node plainValue refuses:\n%s", got)
		return 0
	}
	want, err := yamlv2.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("printNode:\n%s\ngo-yaml v2:\n%s", got, want)
	}
	return 1
}

func FuzzPrinter(f *testing.F) {
	for _, s := range printerStrings {
		f.Add(s, s, 0)
	}
	f.Fuzz(func(t *testing.T, key, value string, depth int) {
		for _, s := range []string{key, value} {
			if s != "" && simpleText(s) {
				if a, ok := analyzeText(s); !ok || a != simpleAnalysis {
					t.Errorf("simpleText(%q) but analyzeText = %+v, %v", s, a, ok)
				}
			}
		}
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: value}
		for d := depth % 4; d > 0; d-- {
			if d%2 == 0 {
				n = &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{n, n}}
			} else {
				k := &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: key}
				n = &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{k, n}}
			}
		}
		root := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: key}, n,
			{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: value}, {Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: key},
		}}
		comparePrinter(t, root)
	})
}

func TestSimpleText(t *testing.T) {
	simple := 0
	for _, s := range append(printerStrings, "nginx", "a/b_c=d", "x-y.z", "v1beta1", "a'b", "a\"b", "a!b") {
		if s == "" || !simpleText(s) {
			continue
		}
		simple++
		if a, ok := analyzeText(s); !ok || a != simpleAnalysis {
			t.Errorf("simpleText(%q) but analyzeText = %+v, %v", s, a, ok)
		}
	}
	if simple < 20 {
		t.Errorf("only %d simple strings", simple)
	}
}

func TestKeyLess(t *testing.T) {
	keys := []string{"a", "b01", "b1", "b001", "a10", "a9", "B", "10", "9", "x0", "x00", "é", "_a", "a01b", "a.b", "a-b"}
	for _, a := range keys {
		for _, b := range keys {
			if a != b && keyLess(a, b) == keyLess(b, a) {
				t.Errorf("keyLess(%q, %q) = keyLess(%q, %q)", a, b, b, a)
			}
		}
	}
	m := map[interface{}]interface{}{}
	for _, k := range keys {
		m[k] = 1
	}
	out, err := yamlv2.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, _, _ := strings.Cut(line, ": ")
		want = append(want, strings.Trim(k, `"`))
	}
	got := append([]string(nil), keys...)
	for i := range got {
		for j := i + 1; j < len(got); j++ {
			if keyLess(got[j], got[i]) {
				got[i], got[j] = got[j], got[i]
			}
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("keyLess order %q, go-yaml v2 %q", got, want)
	}
}

func TestPrinterRefusesKeyCycles(t *testing.T) {
	// go-yaml v2's order has a cycle here: its output follows map order.
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range []string{"a1b", "a01b", "a9", "a10"} {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: k},
			&yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: "v"})
	}
	if out, ok := printNode(n, nil); ok {
		t.Errorf("printed keys whose order is not strict:\n%s", out)
	}
}

// TestFastPathsMatchTheRules: keyLess's and analyze's shortcuts give what
// the full rules give, on random strings of the characters that matter.
func TestFastPathsMatchTheRules(t *testing.T) {
	const alphabet = "aZ09:#-?.,'\"{}[]_/é \t"
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, 0, 8)
		for n := rng.IntN(8) + 1; len(b) < n; {
			b = append(b, alphabet[rng.IntN(len(alphabet))])
		}
		if !utf8.Valid(b) {
			return "x" + strings.ToValidUTF8(string(b), "y")
		}
		return string(b)
	}
	for range 100000 {
		a, b := word(), word()
		if rng.IntN(4) == 0 {
			b = a + b // shared prefixes
		}
		if keyLess(a, b) != keyLessRunes(a, b) {
			t.Errorf("keyLess(%q, %q) = %v, by the rules %v", a, b, keyLess(a, b), keyLessRunes(a, b))
		}
		if spaceless(a) {
			want, _ := analyzeText(a)
			if got := analyzeSpaceless(a); got != want {
				t.Errorf("analyzeSpaceless(%q) = %+v, analyzeText %+v", a, got, want)
			}
		}
	}
}

func TestMaxKeyword(t *testing.T) {
	for w := range v2Keywords {
		if len(w) > maxKeyword {
			t.Errorf("%q is longer than maxKeyword", w)
		}
	}
}
