package validate

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorOutputBounded: a CRD whose enum is long, and objects with many values outside it,
// give errors of a bounded length and a bounded number per object (each error would repeat
// the enum: 30 MB here, 300 MB in the case reported), saying how many were left out.
func TestErrorOutputBounded(t *testing.T) {
	dir := t.TempDir()
	var enum, items, objs strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&enum, "                    - value-number-%d\n", i)
	}
	for i := range 120 {
		fmt.Fprintf(&items, "    - wrong-%d\n", i)
	}
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              colours:
                type: array
                items:
                  type: string
                  enum:
` + enum.String()
	for i := range 10 {
		fmt.Fprintf(&objs, "---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w%d, namespace: n}\nspec:\n  colours:\n%s", i, items.String())
	}
	crdPath, objPath := filepath.Join(dir, "crd.yaml"), filepath.Join(dir, "widgets.yaml")
	if err := os.WriteFile(crdPath, []byte(crd), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(objPath, []byte(objs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	results, err := v.ValidateFiles([]string{objPath}, []string{crdPath})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := WriteText(&text, results, nil); err != nil {
		t.Fatal(err)
	}
	if n := text.Len(); n > 2<<20 {
		t.Errorf("%d bytes of errors, want at most 2 MiB", n)
	}
	for _, r := range results {
		if len(r.Errors) != MaxErrors+1 {
			t.Errorf("%s: %d errors, want %d and one saying how many more", r.Object, len(r.Errors), MaxErrors)
		}
		for _, e := range r.Errors {
			if len(e.Msg) > MaxMessageBytes+len("…") {
				t.Errorf("%s: a message of %d bytes, want at most %d", r.Object, len(e.Msg), MaxMessageBytes)
			}
		}
		if last := r.Errors[len(r.Errors)-1].Msg; !strings.Contains(last, "20 more errors") {
			t.Errorf("%s: the last error %q does not say how many were left out", r.Object, last)
		}
	}
}

// TestControlCharactersEscaped: an object's name and a value with terminal controls show
// as escapes in the text and the JUnit (where XML would otherwise turn them into U+FFFD).
func TestControlCharactersEscaped(t *testing.T) {
	f := filepath.Join(t.TempDir(), "x.yaml")
	obj := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \"a\\e]0;owned\\a\\u009b2J\"\ndata:\n  k: [\"\\e[31mred\"]\n"
	if err := os.WriteFile(f, []byte(obj), 0o644); err != nil {
		t.Fatal(err)
	}
	text, junit := outputs(t, f)
	for what, out := range map[string]string{"text": text, "JUnit": junit} {
		if strings.ContainsAny(out, "\x1b\x07\u009b\ufffd") {
			t.Errorf("%s: a raw or replaced control character:\n%q", what, out)
		}
		if !strings.Contains(out, `a\x1b]0;owned\x07\u009b2J`) {
			t.Errorf("%s: the name is not shown escaped:\n%s", what, out)
		}
	}
	if err := xml.Unmarshal([]byte(junit), new(junitSuites)); err != nil {
		t.Errorf("JUnit does not parse: %v", err)
	}
}

// outputs are the text and JUnit of validating file with a new Validator.
func outputs(t *testing.T, file string) (text, junit string) {
	t.Helper()
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	results, err := v.ValidateFiles([]string{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tb, jb strings.Builder
	if err := WriteText(&tb, results, nil); err != nil {
		t.Fatal(err)
	}
	if err := WriteJUnit(&jb, results, nil); err != nil {
		t.Fatal(err)
	}
	return tb.String(), jb.String()
}
