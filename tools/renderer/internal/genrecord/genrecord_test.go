package genrecord

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

var web = Key{Group: "example.com", Kind: "Widget", Namespace: "shop", Name: "web"}

const widget = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"web","namespace":"shop","generation":2},
"status":{"observedGeneration":2,"latestImage":{"observedGeneration":2},
"conditions":[{"type":"Ready","status":"True","reason":"Done","observedGeneration":1},{"type":"Synced","status":"True"}]}}`

// Each condition with its own observedGeneration, then the kind's output paths, then
// status.observedGeneration (weak); a condition without one is not an output.
func TestOutputs(t *testing.T) {
	p, err := ParseOutputPath("example.com/Widget=.status.latestImage.observedGeneration")
	if err != nil {
		t.Fatal(err)
	}
	other, _ := ParseOutputPath("kpack.io/Image=.status.latestImage.observedGeneration")
	got := Outputs(decode(t, widget), []OutputPath{p, other})
	var lines []string
	for _, o := range got {
		lines = append(lines, fmt.Sprintf("%s %s %s %d weak=%v", o.Path, o.GenerationPath, o.Kind, o.ObservedGeneration, o.Weak))
	}
	want := `.status.conditions[type=Ready] .status.conditions[type=Ready].observedGeneration condition 1 weak=false
.status.latestImage .status.latestImage.observedGeneration path 2 weak=false
.status .status.observedGeneration status 2 weak=true`
	if s := strings.Join(lines, "\n"); s != want {
		t.Errorf("Outputs:\n%s\nwant:\n%s", s, want)
	}
	if Observed(got) != 1 {
		t.Errorf("Observed = %d, want 1", Observed(got))
	}
}

func TestParseOutputPath(t *testing.T) {
	for _, bad := range []string{"Image", "=.status.x", "kpack.io/Image=", "Image=.status", "Image=.status..x", "Image=.status.c[0]"} {
		if _, err := ParseOutputPath(bad); err == nil || !strings.Contains(err.Error(), "--output-path") {
			t.Errorf("ParseOutputPath(%q): %v", bad, err)
		}
	}
	p, err := ParseOutputPath("Service=status.x.observedGeneration")
	if err != nil || p.Group != "" || p.Kind != "Service" || p.String() != "Service=.status.x.observedGeneration" {
		t.Errorf("ParseOutputPath: %+v %v", p, err)
	}
}

// Ready reflects generation 1 (commit A), the live generation is 2 (commit B): not current.
func TestCorrelate(t *testing.T) {
	rec := &Record{}
	rec.Add(web, Entry{Generation: 1, Commit: "A", InputDigest: "sha256:a"}, 0)
	rec.Add(web, Entry{Generation: 2, Commit: "B", InputDigest: "sha256:b"}, 0)
	r := Correlate(decode(t, widget), rec, nil)
	if r.Generation != 2 || !r.LiveKnown || r.Live.Commit != "B" {
		t.Fatalf("Correlate: %+v", r)
	}
	ready, st := r.Outputs[0], r.Outputs[1]
	if ready.Entry.Commit != "A" || ready.Current || !ready.Recorded || st.Entry.Commit != "B" || !st.Current || !st.Weak {
		t.Errorf("outputs: %+v", r.Outputs)
	}
	if r.Current() {
		t.Error("Current with Ready at generation 1 of 2")
	}
	if s, _ := r.Strongest(); s.Path != ".status.conditions[type=Ready]" {
		t.Errorf("Strongest: %+v", s)
	}
	if r := Correlate(decode(t, widget), nil, nil); r.LiveKnown || r.Outputs[0].Recorded {
		t.Errorf("without a record: %+v", r)
	}
}

// Once generation N is observed, older generations go; an unobserved object keeps the newest
// MaxPerObject; re-applying a generation replaces its entry.
func TestAddCollects(t *testing.T) {
	rec := &Record{}
	for g := int64(1); g <= 20; g++ {
		rec.Add(web, Entry{Generation: g, Commit: fmt.Sprint("c", g)}, 0)
	}
	if gs := rec.Generations(web); len(gs) != MaxPerObject || gs[0].Generation != 20-MaxPerObject+1 {
		t.Errorf("unobserved: %+v", gs)
	}
	rec.Add(web, Entry{Generation: 21}, 19)
	if gs := rec.Generations(web); len(gs) != 3 || gs[0].Generation != 19 {
		t.Errorf("observed 19: %+v", gs)
	}
	rec.Add(web, Entry{Generation: 21, Commit: "again", Applied: "t1"}, 19)
	if e, ok := rec.Lookup(web, 21); !ok || e.Commit != "again" || len(rec.Generations(web)) != 3 {
		t.Errorf("re-applied: %+v %v", e, ok)
	}
	rec.Add(web, Entry{Generation: 21, Commit: "again", Applied: "t2"}, 19)
	if e, _ := rec.Lookup(web, 21); e.Applied != "t1" {
		t.Errorf("applied again as it was: %+v, want the entry unchanged", e)
	}
}

// The record stays below MaxBytes: objects not applied go first, then old generations.
func TestMarshalBounded(t *testing.T) {
	rec := &Record{}
	long := strings.Repeat("x", 200)
	for i := range 2000 {
		k := Key{Kind: "ConfigMap", Namespace: "ns", Name: fmt.Sprint("cm-", i)}
		for g := int64(1); g <= 3; g++ {
			rec.Add(k, Entry{Generation: g, Commit: long}, 0)
		}
	}
	data, err := rec.Marshal(func(k Key) bool { return strings.HasSuffix(k.Name, "7") })
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > MaxBytes {
		t.Errorf("%d bytes", len(data))
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Objects) != 200 || len(back.Objects[0].Generations) != 3 {
		t.Errorf("kept %d objects, %d generations", len(back.Objects), len(back.Objects[0].Generations))
	}
	for i := range 5000 {
		rec.Add(Key{Kind: "ConfigMap", Name: fmt.Sprint("more-", i)}, Entry{Generation: 1, Commit: long}, 0)
	}
	if _, err := rec.Marshal(nil); err == nil || !strings.Contains(err.Error(), "split the ApplySet") {
		t.Errorf("too big: %v", err)
	}
}

// A record of an older krm (version 0, fewer fields) is read; a newer one is refused.
func TestParseVersions(t *testing.T) {
	old, err := Parse([]byte(`{"objects":[{"group":"example.com","kind":"Widget","namespace":"shop","name":"web","generations":[{"generation":1,"commit":"A"}],"old":true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := old.Lookup(web, 1); old.Read != 0 || !ok || e.Commit != "A" || e.InputDigest != "" {
		t.Errorf("old record: %+v %+v", old, e)
	}
	data, _ := old.Marshal(nil)
	if !strings.HasPrefix(string(data), `{"version":1,`) {
		t.Errorf("rewritten: %s", data)
	}
	var newer *NewerError
	if _, err := Parse([]byte(`{"version":7,"objects":{}}`)); !errors.As(err, &newer) || newer.Version != 7 || !strings.Contains(err.Error(), "upgrade krm") {
		t.Errorf("newer: %v", err)
	}
	if _, err := Parse([]byte(`[1,2]`)); !errors.Is(err, ErrMalformed) {
		t.Errorf("malformed: %v", err)
	}
}

func TestName(t *testing.T) {
	if n := Name("krm-shop"); n != "krm-shop.krm-generations" {
		t.Errorf("Name = %q", n)
	}
	long := strings.Repeat("a", 250)
	if n := Name(long); len(n) > 253 || !strings.HasSuffix(n, ".krm-generations") || n == Name(long+"b") {
		t.Errorf("Name(long) = %q", n)
	}
}
