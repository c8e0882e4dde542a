package validate

import (
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

// TestErrorOutputBounded: a CRD whose enum is long, and objects with many values outside it,
// give errors of a bounded length and a bounded number per object (each error would repeat
// the enum: 30 MB here, 300 MB in the case reported), saying how many were left out.
func TestErrorOutputBounded(t *testing.T) {
	var enum, items, objs strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&enum, "                    - value-number-%d\n", i)
	}
	for i := range 120 {
		fmt.Fprintf(&items, "    - wrong-%d\n", i)
	}
	crd := testCRD("Widget", "Namespaced", "              colours:\n                type: array\n                items:\n                  type: string\n                  enum:\n"+enum.String())
	for i := range 10 {
		fmt.Fprintf(&objs, "---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w%d, namespace: n}\nspec:\n  colours:\n%s", i, items.String())
	}
	results := validateYAML(t, crd, objs.String())
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

// TestNodeBoundWhileReading: a file of more nodes than yamlread.MaxNodes is refused as it
// is read, before its nodes are made (16 MB of a flow list made 2 GB of nodes before).
func TestNodeBoundWhileReading(t *testing.T) {
	f := filepath.Join(t.TempDir(), "many.yaml")
	data := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {k: [" + strings.Repeat("0,", 4*yamlread.MaxNodes) + "0]}\n"
	if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	_, err = v.ValidateFiles([]string{f}, nil)
	runtime.ReadMemStats(&b)
	if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), f+": ") || !strings.Contains(err.Error(), "more than 2097152 YAML nodes") {
		t.Errorf("error %v, want the node bound, naming the file", err)
	}
	if n := b.TotalAlloc - a.TotalAlloc; n > 640<<20 {
		t.Errorf("%d MiB allocated before the refusal, want at most 640", n>>20)
	}
}

// TestManyPropertiesLinear: a CRD of 60,000 properties and an object that sets them all are
// checked in linear time (yaml.v3's decoding checks a mapping's keys pairwise: 28 s of CPU
// before, 3 s now).
func TestManyPropertiesLinear(t *testing.T) {
	const n = 60000
	var props, values strings.Builder
	for i := range n {
		fmt.Fprintf(&props, "              p%d: {type: string}\n", i)
		fmt.Fprintf(&values, "  p%d: v\n", i)
	}
	crd := testCRD("Wide", "Cluster", props.String())
	obj := "apiVersion: example.com/v1\nkind: Wide\nmetadata: {name: w}\nspec:\n" + values.String() + "  wrong: 1\n"
	start := cpuTime(t)
	results := validateYAML(t, crd, obj)
	// CPU time, not the wall clock's: the test must not fail on a loaded machine.
	if d := cpuTime(t) - start; d > 10*time.Second {
		t.Errorf("took %.1f s of CPU, want well under 10 s", d.Seconds())
	}
	if len(results) != 1 || len(results[0].Errors) != 1 || !strings.Contains(results[0].Errors[0].Msg, "unknown field") {
		t.Errorf("want one error for spec.wrong, got %+v", results)
	}
}

// cpuTime is the CPU time the process has used.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// testCRD is a CRD of kind in group example.com, version v1, whose spec has the
// properties given (YAML lines indented by 14 spaces).
func testCRD(kind, scope, properties string) string {
	lower := strings.ToLower(kind)
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ` + lower + `s.example.com
spec:
  group: example.com
  names: {kind: ` + kind + `, plural: ` + lower + `s, singular: ` + lower + `, listKind: ` + kind + `List}
  scope: ` + scope + `
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
` + properties
}

// validateYAML validates the objects objs with the CRDs crd (given apart), each a file.
func validateYAML(t *testing.T, crd, objs string) []Result {
	t.Helper()
	dir := t.TempDir()
	crdPath, objPath := filepath.Join(dir, "crd.yaml"), filepath.Join(dir, "objects.yaml")
	if err := os.WriteFile(crdPath, []byte(crd), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(objPath, []byte(objs), 0o644); err != nil {
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
	return results
}
