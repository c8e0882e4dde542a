package patch6902

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/printer"
)

// trickyStrings are texts whose style or resolution go-yaml v3 decides
// with care: keywords of YAML 1.1 and 1.2, numbers, indicators, blanks and
// line breaks in every place, control characters, long text.
var trickyStrings = []string{
	"", "true", "True", "y", "Y", "yes", "no", "on", "Off", "~", "null", "Null",
	"0x1F", "0o7", "0b101", "017", "1_000", "1e3", "1E3", ".5", "-.5", "+.5", ".inf",
	"-.Inf", ".nan", "1.", "-0", "+1", "1:20", "-1:20:30.5", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
	"<<", "=", "- a", "-a", "-", "a: b", "a:b", ":a", "? a", "?a", " #", "a #b", "a#b", "#x", "@x", "`x",
	"'", "\"", "'a'", "a'b", "!x", "&a", "*a", "|", ">", "%x", "[a]", "{a}", "a,b",
	" a", "a ", " ", "  ", "a  b", "\ta", "a\t", "a\tb", "\t",
	"\n", "\n\n", "a\n", "a\nb", "a\n\n", "a\n\nb", "\na", " \na", "a \nb", "a\n b", "a\n\tb", "a\n ", "a\nb\n\n\n",
	"\r", "a\r\nb", "\u0085", "\u2028", "a\u2029b", "\x00", "\x07", "\x1b[0m", "\x7f", "\u00a0", "\ufeff", "\ufffe",
	"é", "日本語", "😀", "a😀b", "---", "...", "--- a", "...a",
	strings.Repeat("word ", 30), strings.Repeat("x", 200), strings.Repeat("a b", 60) + "\n" + strings.Repeat("c ", 50),
	strings.Repeat("'q' ", 40), strings.Repeat("\"d\" \\ ", 30),
}

// sameNode compares the parts of two nodes that printing reads.
func sameNode(got, want *yaml.Node, path string) error {
	switch {
	case got.Kind != want.Kind, got.Tag != want.Tag, got.Style != want.Style, got.Value != want.Value,
		got.Anchor != want.Anchor, len(got.Content) != len(want.Content):
		return fmt.Errorf("%s: got kind %v tag %q style %v value %q, %d children; want kind %v tag %q style %v value %q, %d children",
			path, got.Kind, got.Tag, got.Style, got.Value, len(got.Content),
			want.Kind, want.Tag, want.Style, want.Value, len(want.Content))
	case got.HeadComment != "" || got.LineComment != "" || got.FootComment != "":
		return fmt.Errorf("%s: comments", path)
	}
	for i := range got.Content {
		if err := sameNode(got.Content[i], want.Content[i], fmt.Sprintf("%s/%d", path, i)); err != nil {
			return err
		}
	}
	return nil
}

// compareDocument checks Document(m) against kyaml's FromMap(m), node by
// node and as printed (by kyaml, and by emit as kustomize build does);
// it returns 1 when Document built m.
func compareDocument(t *testing.T, m map[string]interface{}) int {
	t.Helper()
	got, ok := Document(m)
	if !ok {
		return 0
	}
	want, err := yaml.FromMap(m)
	if err != nil {
		t.Fatalf("Document built what FromMap refuses (%v): %#v", err, m)
	}
	if err := sameNode(got, want.Document(), ""); err != nil {
		t.Fatalf("%v\nfor %#v", err, m)
	}
	gotText, err := yaml.String(got)
	if err != nil {
		t.Fatal(err)
	}
	wantText, err := want.String()
	if err != nil {
		t.Fatal(err)
	}
	if gotText != wantText {
		t.Fatalf("kyaml prints\n%s\nwant\n%s", gotText, wantText)
	}
	if err := samePrint(got, want.Document()); err != nil {
		t.Fatal(err)
	}
	return 1
}

// samePrint compares what emit prints of two documents (what kustomize
// build prints), or how it fails. Where keys have digits, go-yaml v2's key
// order can have cycles and kustomize's own output then follows map
// iteration order: such documents are left out.
func samePrint(got, want *yaml.Node) error {
	if digitKeys(want) {
		return nil
	}
	gotOut, gotErr := printer.Object(&resource.Resource{RNode: *yaml.NewRNode(got)})
	wantOut, wantErr := printer.Object(&resource.Resource{RNode: *yaml.NewRNode(want)})
	if string(gotOut) != string(wantOut) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		return fmt.Errorf("emit prints\n%s(%v)\nwant\n%s(%v)", gotOut, gotErr, wantOut, wantErr)
	}
	return nil
}

// digitKeys reports a mapping key in n with a digit in it.
func digitKeys(n *yaml.Node) bool {
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && strings.ContainsFunc(c.Value, unicode.IsDigit) || digitKeys(c) {
			return true
		}
	}
	return false
}

// valuesOf makes JSON documents (as json.Unmarshal returns them) of two
// texts and a number, in every place a value or key can be.
func valuesOf(a, b string, x float64) []map[string]interface{} {
	return []map[string]interface{}{
		{"v": a},
		{a: b},
		{a: map[string]interface{}{b: x, "k": a}, "list": []interface{}{a, b, x, true, false, nil, map[string]interface{}{}, []interface{}{}}},
		{"n": []interface{}{[]interface{}{a}, map[string]interface{}{a: []interface{}{b}}}, b: nil},
		{a: 1.0, b: 2.0, a + b: 3.0, b + a: 4.0, "1" + a: 5.0, a + "0": 6.0, b + "10": 7.0},
	}
}

func TestDocument(t *testing.T) {
	built := 0
	for _, a := range trickyStrings {
		for _, b := range []string{"x", a + "1", "1" + a} {
			for _, m := range valuesOf(a, b, 1.5) {
				built += compareDocument(t, m)
			}
		}
	}
	for _, x := range []float64{0, -0.0, 1, -1, 5, 1e6, 1e20, 1e21, 123456789, 1.5, -2.25, 1e-7, 0.0001, 3.141592653589793, 9007199254740993, 1.7976931348623157e308, 5e-324} {
		built += compareDocument(t, map[string]interface{}{"x": x})
	}
	// Key orders: digits, letters, letters right after digits.
	for _, keys := range [][]string{
		{"a", "b01", "b1", "b001", "a10", "a9", "B", "10", "9", "x0", "x00", "é", "_a", "a.b", "a-b", "a/b", "Z", "ab1", "ab"},
		{"a1b", "a1_", "a1.", "x9z", "x9-", "0a", "0_", "a-", "ab"},
	} {
		m := map[string]interface{}{}
		for _, k := range keys {
			m[k] = k
		}
		built += compareDocument(t, m)
	}
	if built < len(trickyStrings)+2 {
		t.Errorf("Document built only %d documents", built)
	}
}

// FuzzDocument compares Document with kyaml's FromMap on JSON documents:
// doc as JSON when it is an object, and documents holding a, b and x.
func FuzzDocument(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(`{"a":{"b":[1,"x",null,true,{}]}}`, s, "k", 1.5)
		f.Add(`{}`, "key", s, 1e21)
	}
	f.Fuzz(func(t *testing.T, doc, a, b string, x float64) {
		var m map[string]interface{}
		if json.Unmarshal([]byte(doc), &m) == nil && m != nil {
			compareDocument(t, m)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			x = 0 // JSON has no NaN or infinities
		}
		for _, m := range valuesOf(a, b, x) {
			compareDocument(t, m)
		}
	})
}

// TestDocumentShortStrings compares Document with FromMap on every string
// of up to shortLength characters from an alphabet of blanks, breaks,
// indicators and characters go-yaml escapes, as keys and as values.
func TestDocumentShortStrings(t *testing.T) {
	alphabet := []string{" ", "\t", "\n", "a", "0", "#", "-", ":", "'", "\"", "|", "\\", "\u00a0", "\ufeff", "\x01", "é"}
	strs := []string{""}
	for n, last := 0, []string{""}; n < shortLength; n++ {
		var next []string
		for _, s := range last {
			for _, c := range alphabet {
				next = append(next, s+c)
			}
		}
		strs, last = append(strs, next...), next
	}
	for _, s := range strs {
		compareDocument(t, map[string]interface{}{"k": s})
		compareDocument(t, map[string]interface{}{s: []interface{}{s}})
	}
}

var shortLength = 3
