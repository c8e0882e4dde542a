package trace_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/dev/testtree"
	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provenance"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/trace"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

var update = flag.Bool("update", false, "rewrite testdata/drift/live/*.want")

// renderDrift renders testdata/drift/prod with provenance, the workspace root being
// testdata/drift.
func renderDrift(t *testing.T) (*provmanifest.Manifest, *trace.Rendered, []byte, string) {
	t.Helper()
	root, err := filepath.Abs(testtree.Real(t, filepath.Join("testdata", "drift")))
	if err != nil {
		t.Fatal(err)
	}
	res, err := render.Render(filesys.MakeFsOnDisk(), filepath.Join(root, "prod"), render.Options{Provenance: &provenance.Options{WorkspaceRoot: root}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := provmanifest.ReadManifest(res.ProvenanceManifest)
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := trace.ParseRendered("prod_manifests.yaml", res.Manifests)
	if err != nil {
		t.Fatal(err)
	}
	return m, rendered, res.Manifests, root
}

// liveQueries reads a live List of testdata/drift/live, giving each item the inputs digest
// the render gave the object of its name (as krm apply would have sent it).
func liveQueries(t *testing.T, name string, stream []byte) []trace.Query {
	t.Helper()
	objs, err := kio.FromBytes(stream)
	if err != nil {
		t.Fatal(err)
	}
	digests := map[string]string{}
	for _, o := range objs {
		digests[o.GetName()] = o.GetAnnotations()[provmanifest.DigestAnnotation]
	}
	data, err := os.ReadFile(filepath.Join("testdata", "drift", "live", name))
	if err != nil {
		t.Fatal(err)
	}
	list, err := yaml.Parse(string(data))
	if err != nil {
		t.Fatal(err)
	}
	items, err := list.Pipe(yaml.Lookup("items"))
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items.Content() {
		n := yaml.NewRNode(it)
		if err := n.PipeE(yaml.SetAnnotation(provmanifest.DigestAnnotation, digests[n.GetName()])); err != nil {
			t.Fatal(err)
		}
	}
	qs, err := trace.ParseObjects([]byte(list.MustString()))
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// An object as the API server returns it after krm apply: server metadata, status,
// defaults, other managers' label and sidecar, 500m for 0.5, 1024Mi for 1Gi, a Secret's
// stringData as data. Every field the render sets has its rendered value.
func TestLiveObjectAsAppliedHasNoDrift(t *testing.T) {
	m, rendered, stream, root := renderDrift(t)
	qs := liveQueries(t, "applied.yaml", stream)
	if len(qs) != 4 {
		t.Fatalf("%d live objects", len(qs))
	}
	for _, q := range qs {
		r, err := trace.Trace(m, q, trace.Options{FS: filesys.MakeFsOnDisk(), SourceRoot: root, Rendered: rendered})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var b bytes.Buffer
		trace.Print(&b, r)
		if r.Status != trace.Match || !r.Compared || r.Drifted() ||
			!strings.Contains(b.String(), "live fields:   as rendered (prod_manifests.yaml): every field the render sets has its rendered value") {
			t.Errorf("%s: status %v, compared %v, drift %+v\n%s", q, r.Status, r.Compared, r.Drift, &b)
		}
	}
}

// After edits, each field the render sets that differs is reported with its rendered and
// live values, the managers owning it live and the source line that set it: a base
// document, the kustomization's replicas and images entries, a patch file, an inline patch,
// a labels pair, a generator's literal. The report is testdata/drift/live/edited.want.
func TestLiveObjectDrift(t *testing.T) {
	m, rendered, stream, root := renderDrift(t)
	var b bytes.Buffer
	drifted := 0
	for _, q := range liveQueries(t, "edited.yaml", stream) {
		r, err := trace.Trace(m, q, trace.Options{FS: filesys.MakeFsOnDisk(), SourceRoot: root, Rendered: rendered})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if r.Status != trace.Match {
			t.Errorf("%s: status %v", q, r.Status)
		}
		if r.Drifted() {
			drifted++
		}
		trace.Print(&b, r)
	}
	if drifted != 2 {
		t.Errorf("%d drifted objects, want 2", drifted)
	}
	want := filepath.Join("testdata", "drift", "live", "edited.want")
	if *update {
		if err := os.WriteFile(want, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(golden) {
		t.Errorf("report differs from %s (go test -update rewrites it):\n%s", want, &b)
	}
}

// A live object read in another API version than rendered says so.
func TestLiveObjectInAnotherVersion(t *testing.T) {
	m, rendered, stream, root := renderDrift(t)
	for _, q := range liveQueries(t, "applied.yaml", stream) {
		if q.Kind != "Deployment" {
			continue
		}
		walkKey(q.Object, "apiVersion").Value = "apps/v1beta2"
		r, err := trace.Trace(m, q, trace.Options{FS: filesys.MakeFsOnDisk(), SourceRoot: root, Rendered: rendered})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		trace.Print(&b, r)
		if r.Drifted() || !strings.Contains(b.String(), "  live version:  apps/v1beta2, rendered as apps/v1: fields are compared across versions (read it as apps/v1)\n") {
			t.Errorf("%+v\n%s", r.Drift, &b)
		}
		return
	}
	t.Fatal("no Deployment")
}

// A Secret's drift names the field, never its values.
func TestLiveSecretDriftIsRedacted(t *testing.T) {
	m, rendered, stream, root := renderDrift(t)
	var q trace.Query
	for _, x := range liveQueries(t, "applied.yaml", stream) {
		if x.Name == "prod-creds" {
			q = x
		}
	}
	if q.Object == nil {
		t.Fatal("no prod-creds")
	}
	pw := walkKey(q.Object, "data", "password")
	pw.Value = "b3RoZXI=" // "other"
	r, err := trace.Trace(m, q, trace.Options{FS: filesys.MakeFsOnDisk(), SourceRoot: root, Rendered: rendered})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	trace.Print(&b, r)
	out := b.String()
	if len(r.Drift) != 1 || r.Drift[0].Path != "data.password" || !r.Drift[0].Redacted ||
		strings.Contains(out, "b3RoZXI") || strings.Contains(out, "aHVudGVyMg") || strings.Contains(out, "hunter2") {
		t.Errorf("drift %+v\n%s", r.Drift, out)
	}
}

func walkKey(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		n = yamlnode.Field(n, k)
	}
	return n
}

// What the server adds is stripped from both sides; the rest is left alone.
func TestStrip(t *testing.T) {
	in := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  uid: x
  resourceVersion: "3"
  generation: 2
  creationTimestamp: "2026-01-01T00:00:00Z"
  selfLink: /apis/apps/v1/x
  managedFields: [{manager: krm}]
  annotations:
    provenance.rules-krm.dev/inputs-digest: sha256:0
    team: payments
  labels:
    app: web
spec:
  replicas: 2
status:
  replicas: 2
`
	nodes, err := yamlread.Nodes([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	trace.Strip(nodes[0])
	got := yaml.NewRNode(nodes[0]).MustString()
	want := `kind: Deployment
metadata:
  name: web
  annotations:
    team: payments
  labels:
    app: web
spec:
  replicas: 2
`
	if got != want {
		t.Errorf("Strip:\n%s\nwant:\n%s", got, want)
	}
}

// The rules of what counts as drift, one case each.
func TestDriftedRules(t *testing.T) {
	for _, c := range []struct {
		name, rendered, live string
		want                 []string // path change
	}{
		{"equal", "spec: {replicas: 2}", "spec: {replicas: 2}", nil},
		{"changed", "spec: {replicas: 2}", "spec: {replicas: 5}", []string{"spec.replicas changed"}},
		{"missing live", "spec: {paused: true}", "spec: {}", []string{"spec.paused removed"}},
		{"empty value dropped by the server", `spec: {x: "", y: {}, z: [], n: null}`, "spec: {}", nil},
		{"live-only field (a default)", "spec: {}", "spec: {revisionHistoryLimit: 10}", nil},
		{"number as string", "spec: {port: 80}", `spec: {port: "80"}`, nil},
		{"quantity", "spec: {resources: {limits: {cpu: 0.5, memory: 1Gi}}}", "spec: {resources: {limits: {cpu: 500m, memory: 1024Mi}}}", nil},
		{"other quantity", "spec: {resources: {limits: {cpu: 0.5}}}", "spec: {resources: {limits: {cpu: 501m}}}", []string{"spec.resources.limits.cpu changed"}},
		{"quantity syntax outside resources", "data: {a: 1k}", "data: {a: \"1000\"}", []string{"data.a changed"}},
		{"quantity in micro", "spec: {resources: {requests: {cpu: 0.0001}}}", "spec: {resources: {requests: {cpu: 100u}}}", nil},
		{"quantity below the nano, stored rounded up", "spec: {resources: {requests: {cpu: 0.0000000001}}}", "spec: {resources: {requests: {cpu: 1n}}}", nil},
		{"no quantity: an exponent and a suffix", "spec: {resources: {requests: {cpu: 1e3m}}}", "spec: {resources: {requests: {cpu: 1}}}", []string{"spec.resources.requests.cpu changed"}},
		{"item added to an index list", "spec: {args: [a]}", "spec: {args: [a, b]}", []string{"spec.args[1] added"}},
		{"item added to a named list", "spec: {c: [{name: a}]}", "spec: {c: [{name: a}, {name: b}]}", nil},
		{"named list reordered", "spec: {c: [{name: a}, {name: b}]}", "spec: {c: [{name: b}, {name: a}]}", nil},
		{"field of a named item", "spec: {c: [{name: a, image: x}]}", "spec: {c: [{name: a, image: y, pull: Always}]}", []string{"spec.c[name=a].image changed"}},
		{"provenance annotations", "metadata: {annotations: {provenance.rules-krm.dev/origin: x}}", "metadata: {}", nil},
		{"status", "status: {a: 1}", "status: {a: 2}", nil},
		{"multi-line text", "data: {f: \"a\\nb\\n\"}", "data: {f: \"a\\nc\\n\"}", []string{"data.f changed"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			head := "apiVersion: v1\nkind: Thing\n"
			r, err := yamlread.Nodes([]byte(head + c.rendered))
			if err != nil {
				t.Fatal(err)
			}
			l, err := yamlread.Nodes([]byte(head + c.live))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range trace.Drifted(r[0], l[0]) {
				got = append(got, d.Path+" "+d.Change)
			}
			if strings.Join(got, "; ") != strings.Join(c.want, "; ") {
				t.Errorf("drift %q, want %q", got, c.want)
			}
		})
	}
}

// The field managers owning a drifted field live are named (krm's own Apply is not).
func TestDriftedNamesManagers(t *testing.T) {
	rendered := "apiVersion: v1\nkind: Thing\nspec:\n  c:\n  - name: a\n    image: x\n  atomic: [1]\n"
	live := `apiVersion: v1
kind: Thing
metadata:
  managedFields:
  - {manager: krm, operation: Apply, fieldsV1: {"f:spec": {"f:c": {"k:{\"name\":\"a\"}": {"f:image": {}}}}}}
  - {manager: ops, operation: Update, fieldsV1: {"f:spec": {"f:c": {"k:{\"name\":\"a\"}": {"f:image": {}}}}}}
  - {manager: bot, operation: Apply, fieldsV1: {"f:spec": {"f:atomic": {}}}}
  - {manager: other, operation: Update, fieldsV1: {"f:spec": {"f:c": {"k:{\"name\":\"b\"}": {"f:image": {}}}}}}
spec:
  c:
  - name: a
    image: y
  atomic: [2]
`
	r, _ := yamlread.Nodes([]byte(rendered))
	l, _ := yamlread.Nodes([]byte(live))
	var got []string
	for _, d := range trace.Drifted(r[0], l[0]) {
		got = append(got, d.Path+": "+strings.Join(d.Managers, ","))
	}
	want := []string{`spec.atomic[0]: "bot" (Apply)`, `spec.c[name=a].image: "ops" (Update)`}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("managers %q, want %q", got, want)
	}
}

// An alias bomb on stdin is refused quickly, before anything expands it.
func TestLoadQueriesRefusesAliasBombOnStdin(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 30; i++ {
		b.WriteString("  a" + strconv.Itoa(i) + ": &a" + strconv.Itoa(i) + " [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + strconv.Itoa(i-1))
		}
		b.WriteString("]\n")
	}
	_, err := trace.LoadQueries("-", strings.NewReader(b.String()))
	if err == nil || !strings.Contains(err.Error(), "stdin (OBJECT -)") || !strings.Contains(err.Error(), "aliases are not allowed") {
		t.Fatalf("LoadQueries(-) of an alias bomb: %v", err)
	}
	// Past the size bound: refused without reading it all.
	big := strings.NewReader("a: " + strings.Repeat("x", yamlread.MaxFileBytes) + "\n")
	if _, err := trace.LoadQueries("-", big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("LoadQueries(-) of an oversized object: %v", err)
	}
}

// A live object whose every field was rewritten, with a large managedFields, is traced in
// bounded time: field sets are indexed once, and source lines looked up for the first 100
// drifted fields only.
func TestLiveDriftBoundedOnHostileInput(t *testing.T) {
	const n = 10000
	var rendered, live, owned strings.Builder
	rendered.WriteString("apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: x\nspec:\n  items:\n")
	live.WriteString("apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: x\n  managedFields:\n  - manager: bot\n    operation: Update\n    fieldsV1:\n      f:spec:\n        f:items:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&rendered, "  - {name: i%d, v: 1}\n", i)
		fmt.Fprintf(&owned, "          'k:{\"name\":\"i%d\"}': {f:v: {}}\n", i)
	}
	live.WriteString(owned.String())
	live.WriteString("spec:\n  items:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&live, "  - {name: i%d, v: 2}\n", i)
	}
	fs := filesys.MakeFsInMemory()
	if err := fs.WriteFile("/ws/thing.yaml", []byte(rendered.String())); err != nil {
		t.Fatal(err)
	}
	m := &provmanifest.Manifest{Objects: []provmanifest.Object{{
		ID:     provmanifest.ObjectID{APIVersion: "example.com/v1", Kind: "Thing", Name: "x"},
		Origin: &provmanifest.OriginInfo{Path: "thing.yaml", StartLine: 1, EndLine: n + 6},
	}}}
	r, err := trace.ParseRendered("thing_manifests.yaml", []byte(rendered.String()))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := trace.ParseObjects([]byte(live.String()))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := trace.Trace(m, qs[0], trace.Options{FS: fs, SourceRoot: "/ws", Rendered: r})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("tracing %d drifted fields took %v", n, d)
	}
	if len(res.Drift) != n {
		t.Fatalf("%d drifted fields, want %d", len(res.Drift), n)
	}
	first, last := res.Drift[0], res.Drift[n-1]
	if first.Source.StartLine == 0 || len(first.Managers) != 1 || len(last.Managers) != 1 ||
		!strings.Contains(last.Source.Note, "not looked up: more than 100 fields drifted") {
		t.Errorf("first %+v\nlast %+v", first, last)
	}
}
