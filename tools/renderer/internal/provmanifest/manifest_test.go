package provmanifest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

func TestDocumentsSpans(t *testing.T) {
	content := "# header\n\napiVersion: v1\nkind: A\nmetadata:\n  name: a\n---\n# c\napiVersion: v1\nkind: B\nmetadata:\n  name: b\n\n--- # doc 3\n---\napiVersion: v1\nkind: CList\nitems:\n- apiVersion: v1\n  kind: C\n  metadata:\n    name: c1\n- apiVersion: v1\n  kind: C\n  metadata:\n    name: c2\n"
	docs, ok := Documents([]byte(content))
	if !ok || len(docs) != 3 {
		t.Fatalf("%v %d docs", ok, len(docs))
	}
	want := [][3]int{{3, 6, 1}, {9, 12, 1}, {16, 26, 2}}
	for i, d := range docs {
		if [3]int{d.Start, d.End, d.Items} != want[i] {
			t.Errorf("doc %d: lines %d-%d items %d, want %v", i, d.Start, d.End, d.Items, want[i])
		}
	}
	// CRLF files count lines alike.
	crlf, _ := Documents([]byte(strings.ReplaceAll(content, "\n", "\r\n")))
	if len(crlf) != 3 || crlf[1].Start != 9 {
		t.Errorf("CRLF: %+v", crlf)
	}
	if !HasDocument([]byte(content), Sha256(docs[1].Text)) || HasDocument([]byte(content), "00") {
		t.Error("HasDocument")
	}
}

func TestDigestCanonicalForm(t *testing.T) {
	g := 0
	o := &Object{
		Origin:       &OriginInfo{Generator: &g},
		Transformers: []int{1},
		References:   []string{"v1/ConfigMap/ns/x"},
		Vars:         []VarInfo{{Name: "V", Object: "v1/Service/ns/s", Redacted: true}},
	}
	steps := []StepInfo{
		{Kind: "ConfigMapGenerator", ConfiguredIn: "k.yaml", ConfigSha256: "c1", Files: []string{"f.env"}},
		{Kind: "PatchTransformer", ConfiguredIn: "k.yaml", ConfigSha256: "c2", Files: []string{"<p>.yaml", "s.yaml"}},
	}
	files := map[string]FileEntry{"f.env": {Path: "f.env", Sha256: "h1"}, "<p>.yaml": {Path: "<p>.yaml", Sha256: "h2"}, "s.yaml": {Path: "s.yaml", Redacted: true}}
	lines := [][]string{
		{"generator", "ConfigMapGenerator", "", "k.yaml", "c1"},
		{"generator-source", "f.env", "h1"},
		{"transformer", "PatchTransformer", "", "k.yaml", "c2"},
		{"transformer-source", "<p>.yaml", "h2"},
		{"transformer-source", "s.yaml", "redacted"},
		{"reference", "v1/ConfigMap/ns/x"},
		{"var", "V", "v1/Service/ns/s", "redacted"},
	}
	b, _ := json.Marshal(lines)
	sum := sha256.Sum256(b)
	if got, want := Digest(o, steps, files), "sha256:"+hex.EncodeToString(sum[:]); got != want {
		t.Errorf("Digest %s, want %s (sha256 of %s)", got, want, b)
	}
	for _, l := range lines {
		if b, _ := json.Marshal(l); string(appendJSONLine(nil, l)) != string(b) {
			t.Errorf("appendJSONLine %s, want %s", appendJSONLine(nil, l), b)
		}
	}
}

// TestDigestAllMatchesDigest checks that hashing shared prefixes once gives
// every object the digest it gets alone, on objects sharing origins and
// leading steps in many ways.
func TestDigestAllMatchesDigest(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var steps []StepInfo
	for i := range 12 {
		steps = append(steps, StepInfo{Kind: fmt.Sprint("K", i), ConfiguredIn: "k.yaml", ConfigSha256: fmt.Sprint(i), Files: []string{fmt.Sprint("f", i%3)}})
	}
	files := map[string]FileEntry{"f0": {Path: "f0", Sha256: "a"}, "f1": {Path: "f1", Redacted: true}}
	objs := make([]Object, 2000)
	for i := range objs {
		o := &objs[i]
		switch rnd.IntN(4) {
		case 0:
			g := rnd.IntN(len(steps))
			o.Origin = &OriginInfo{Generator: &g}
		case 1, 2:
			o.Origin = &OriginInfo{Path: fmt.Sprint("p", rnd.IntN(3)), Sha256: fmt.Sprint(rnd.IntN(2))}
		}
		for range rnd.IntN(6) {
			o.Transformers = append(o.Transformers, rnd.IntN(len(steps)+1)-1+rnd.IntN(2)) // -1 and len(steps) too
		}
		if rnd.IntN(5) == 0 {
			o.References = []string{fmt.Sprint("v1/ConfigMap//c", rnd.IntN(3))}
		}
		if rnd.IntN(7) == 0 {
			o.Vars = []VarInfo{{Name: "V", Object: "v1/Service//s", Sha256: "h"}}
		}
	}
	newDigester(steps, files).digestAll(objs)
	for i := range objs {
		if want := Digest(&objs[i], steps, files); objs[i].InputsDigest != want {
			t.Fatalf("object %d (%+v): digestAll %s, Digest %s", i, objs[i], objs[i].InputsDigest, want)
		}
	}
}

// TestAppendObjectMatchesJSON: the manifest's objects are written as
// encoding/json writes them, empty fields omitted and HTML escaped.
func TestAppendObjectMatchesJSON(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	strs := []string{"", "a", "apps/v1", `q"uote`, "<&>", "tab\there", "ünï", "\u2028", "back\\slash"}
	str := func() string { return strs[rnd.IntN(len(strs))] }
	for i := range 3000 {
		o := Object{ID: ObjectID{APIVersion: str(), Kind: str(), Namespace: str(), Name: str()}, InputsDigest: str()}
		if rnd.IntN(4) > 0 {
			o.Origin = &OriginInfo{Path: str(), StartLine: rnd.IntN(3), EndLine: rnd.IntN(3) - 1, Label: str(), Sha256: str(), Redacted: rnd.IntN(2) == 0}
			if rnd.IntN(3) == 0 {
				g := rnd.IntN(3)
				o.Origin.Generator = &g
			}
		}
		for range rnd.IntN(3) {
			o.Transformers = append(o.Transformers, rnd.IntN(20)-1)
		}
		for range rnd.IntN(3) {
			o.References = append(o.References, str())
		}
		if rnd.IntN(3) == 0 {
			o.Transformers = []int{} // empty, not nil: omitted too
		}
		for range rnd.IntN(3) {
			o.Vars = append(o.Vars, VarInfo{Name: str(), Object: str(), Sha256: str(), Redacted: rnd.IntN(2) == 0})
		}
		want, err := json.Marshal(&o)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendObject(nil, &o); string(got) != string(want) {
			t.Fatalf("case %d: appendObject\n%s\nwant\n%s", i, got, want)
		}
	}
}

// TestAppendTransformersMatchesJSON: the transformers annotation is what
// encoding/json writes for the steps grouped by the file that configured
// them.
func TestAppendTransformersMatchesJSON(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	strs := []string{"", "k.yaml", "a/k.yaml", "<&>", `q"`, "ü"}
	var steps []StepInfo
	for i := range 30 {
		steps = append(steps, StepInfo{Kind: fmt.Sprint("Kind", i%4), Name: strs[rnd.IntN(len(strs))], ConfiguredIn: strs[rnd.IntN(3)], Label: strs[rnd.IntN(len(strs))]})
	}
	a := NewAnnotator(steps)
	for range 2000 {
		var idx []int
		for range 1 + rnd.IntN(8) {
			idx = append(idx, rnd.IntN(len(steps)))
		}
		var groups []StepGroup
		for _, i := range idx {
			s := &steps[i]
			if n := len(groups); n > 0 && groups[n-1].ConfiguredIn == s.ConfiguredIn && groups[n-1].Label == s.Label {
				groups[n-1].Kinds = append(groups[n-1].Kinds, stepName(s))
				continue
			}
			groups = append(groups, StepGroup{ConfiguredIn: s.ConfiguredIn, Label: s.Label, Kinds: []string{stepName(s)}})
		}
		want, _ := json.Marshal(groups)
		if got := a.appendTransformers(nil, idx); string(got) != string(want) {
			t.Fatalf("steps %v:\n%s\nwant\n%s", idx, got, want)
		}
	}
}

// splitDocsByRegexp is how documents were split before Documents scanned:
// the regular expression kio splits at, and each segment split into lines.
func splitDocsByRegexp(content []byte) ([]Document, bool) {
	s := strings.ReplaceAll(string(content), "\r\n", "\n")
	type segment struct {
		text string
		line int
	}
	var segs []segment
	prev, line := 0, 1
	for _, loc := range regexp.MustCompile(`\n---.*\n`).FindAllStringIndex(s, -1) {
		segs = append(segs, segment{s[prev:loc[0]], line})
		line += strings.Count(s[prev:loc[1]], "\n")
		prev = loc[1]
	}
	segs = append(segs, segment{s[prev:], line})
	var out []Document
	for _, seg := range segs {
		text, first := seg.text, seg.line
		lines := strings.Split(text, "\n")
		lo, hi := -1, -1
		d := Document{Items: 1}
		for i, l := range lines {
			t := strings.TrimSpace(l)
			if t == "" || t[0] == '#' || strings.HasPrefix(l, "---") || t == "..." {
				continue
			}
			if lo < 0 {
				lo = i
			}
			hi = i
			if d.Kind == "" && strings.HasPrefix(l, "kind:") {
				d.Kind = scalarText(l[len("kind:"):])
			}
		}
		if lo < 0 {
			continue
		}
		d.Start, d.End = first+lo, first+hi
		d.Text = []byte(strings.Join(lines[lo:hi+1], "\n"))
		if strings.HasSuffix(d.Kind, "List") {
			n, ok := listItems(string(d.Text))
			if !ok {
				return nil, false
			}
			d.Items = n
		}
		out = append(out, d)
	}
	return out, true
}

// TestDocumentsMatchRegexp: scanning for separators finds the documents,
// line spans and texts the regular expression does, on files made of
// separators, comments, blank lines, CRLF and List documents.
func TestDocumentsMatchRegexp(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	parts := []string{
		"---", "--- # c", "---x", "----", " ---", "--", "-- x", "- a", "...", "# comment", "", "  ", "\r",
		"kind: A", "kind: AList", "kind: 'B' # c", "apiVersion: v1", "metadata:\n  name: a",
		"items:\n- kind: A\n  metadata:\n    name: i", "items: 3", "items: [", "  - x", "\t",
	}
	for i := range 5000 {
		var b strings.Builder
		for range rnd.IntN(12) {
			b.WriteString(parts[rnd.IntN(len(parts))])
			switch rnd.IntN(5) {
			case 0:
				b.WriteString("\r\n")
			case 1:
			default:
				b.WriteString("\n")
			}
		}
		content := []byte(b.String())
		got, gotOK := Documents(content)
		want, wantOK := splitDocsByRegexp(content)
		if gotOK != wantOK || len(got) != len(want) {
			t.Fatalf("case %d %q: %v %d docs, want %v %d", i, content, gotOK, len(got), wantOK, len(want))
		}
		for k := range got {
			g, w := got[k], want[k]
			if g.Start != w.Start || g.End != w.End || g.Kind != w.Kind || g.Items != w.Items || string(g.Text) != string(w.Text) {
				t.Fatalf("case %d %q doc %d:\n%+v\nwant\n%+v", i, content, k, g, w)
			}
		}
	}
}

// TestParseAnnotations: what Annotator writes, ParseOrigin and
// ParseTransformers read back, and Text names the source.
func TestParseAnnotations(t *testing.T) {
	steps := []StepInfo{
		{Kind: "HelmChartInflationGenerator", ConfiguredIn: "base/kustomization.yaml", Label: "//base", Chart: &Chart{Name: "c", Version: "1.0"}},
		{Kind: "PatchTransformer", ConfiguredIn: "overlay/kustomization.yaml"},
		{Kind: "PrefixTransformer", Name: "p", ConfiguredIn: "overlay/kustomization.yaml"},
	}
	a := NewAnnotator(steps)
	g := 0
	for _, c := range []struct {
		o      Object
		origin OriginValue
		text   string
	}{
		{Object{Origin: &OriginInfo{Generator: &g}, Transformers: []int{1, 2}},
			OriginValue{Generator: "HelmChartInflationGenerator", ConfiguredIn: "base/kustomization.yaml", Label: "//base", Chart: "c-1.0"},
			"HelmChartInflationGenerator in base/kustomization.yaml"},
		{Object{Origin: &OriginInfo{Path: "base/deploy.yaml", StartLine: 3, Label: "//base"}},
			OriginValue{Path: "base/deploy.yaml", Label: "//base"}, "base/deploy.yaml"},
	} {
		v, err := a.Origin(&c.o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseOrigin(v)
		if err != nil || got != c.origin || got.Text() != c.text {
			t.Errorf("ParseOrigin(%s) = %+v (%q), %v; want %+v (%q)", v, got, got.Text(), err, c.origin, c.text)
		}
		tr := a.Transformers(&c.o)
		if len(c.o.Transformers) == 0 {
			if tr != "" {
				t.Errorf("transformers of %+v: %q, want none", c.o, tr)
			}
			continue
		}
		gs, err := ParseTransformers(tr)
		if err != nil || len(gs) != 1 || gs[0].ConfiguredIn != "overlay/kustomization.yaml" || strings.Join(gs[0].Kinds, ",") != "PatchTransformer,PrefixTransformer/p" {
			t.Errorf("ParseTransformers(%s) = %+v, %v", tr, gs, err)
		}
	}
	if o, _ := a.Origin(&Object{}); o != "" {
		t.Errorf("origin of an object without one: %q", o)
	}
	if _, err := ParseOrigin("not json"); err == nil {
		t.Error("ParseOrigin accepted a non-JSON value")
	}
	if (OriginValue{}).Text() != "" {
		t.Error("Text of an empty origin")
	}
}
