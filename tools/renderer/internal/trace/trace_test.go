package trace_test

import (
	"bytes"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provenance"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/trace"
)

var files = map[string]string{
	"/ws/base/kustomization.yaml": "resources:\n- app.yaml\nconfigMapGenerator:\n- name: cfg\n  literals:\n  - a=b\n",
	"/ws/base/app.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx
---
apiVersion: v1
kind: Service
metadata:
  name: web
`,
	"/ws/prod/kustomization.yaml":    "namespace: prod\nresources:\n- ../base\npatches:\n- path: patch.yaml\n",
	"/ws/prod/patch.yaml":            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n",
	"/ws/cluster/kustomization.yaml": "resources:\n- ns.yaml\n- ../base\n",
	"/ws/cluster/ns.yaml":            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: prod\n",
}

// render builds dir with provenance and returns the stream and manifest.
func renderTree(t *testing.T, dir string) ([]byte, *provmanifest.Manifest, filesys.FileSystem) {
	t.Helper()
	fs := krmtest.MemFS(t, files)
	res, err := render.Render(fs, dir, render.Options{Provenance: &provenance.Options{
		WorkspaceRoot: "/ws", Labels: map[string]string{"/ws/base": "//base", "/ws/prod": "//prod"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := provmanifest.ReadManifest(res.ProvenanceManifest)
	if err != nil {
		t.Fatal(err)
	}
	return res.Manifests, m, fs
}

// live returns the rendered object kind as the API server would return
// it: with status, managedFields, uid, resourceVersion, creationTimestamp
// and, for namespaced objects without one, the namespace it went to.
func live(t *testing.T, stream []byte, kind, ns string, edit func(*yaml.RNode)) []byte {
	t.Helper()
	nodes, err := kio.FromBytes(stream)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if n.GetKind() != kind {
			continue
		}
		for _, f := range []yaml.Filter{
			yaml.SetField("status", yaml.MustParse("replicas: 3\nconditions:\n- type: Available\n  status: \"True\"\n")),
		} {
			if err := n.PipeE(f); err != nil {
				t.Fatal(err)
			}
		}
		md := n.Field("metadata").Value
		for k, v := range map[string]string{
			"uid": "6f1c4a8e-1111-2222-3333-444455556666", "resourceVersion": "123456",
			"creationTimestamp": "2024-05-01T10:00:00Z", "generation": "4",
		} {
			if err := md.PipeE(yaml.SetField(k, yaml.NewScalarRNode(v))); err != nil {
				t.Fatal(err)
			}
		}
		if err := md.PipeE(yaml.SetField("managedFields", yaml.MustParse("- manager: kubectl\n  operation: Apply\n"))); err != nil {
			t.Fatal(err)
		}
		if ns != "" && n.GetNamespace() == "" {
			if err := n.SetNamespace(ns); err != nil {
				t.Fatal(err)
			}
		}
		if err := n.PipeE(yaml.SetAnnotation("kubectl.kubernetes.io/last-applied-configuration", `{"kind":"x"}`)); err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			edit(n)
		}
		s, err := n.String()
		if err != nil {
			t.Fatal(err)
		}
		return []byte(s)
	}
	t.Fatalf("no %s rendered", kind)
	return nil
}

func traceLive(t *testing.T, m *provmanifest.Manifest, obj []byte, o trace.Options) (*trace.Result, string) {
	t.Helper()
	qs, err := trace.ParseObjects(obj)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 1 {
		t.Fatalf("%d objects", len(qs))
	}
	r, err := trace.Trace(m, qs[0], o)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	trace.Print(&b, r)
	return r, b.String()
}

func TestTraceLiveObjectMatches(t *testing.T) {
	stream, m, fs := renderTree(t, "/ws/prod")
	r, out := traceLive(t, m, live(t, stream, "Deployment", "", nil), trace.Options{FS: fs, WorkspaceRoot: "/ws"})
	if r.Status != trace.Match || !r.Consistent {
		t.Errorf("status %v consistent %v\n%s", r.Status, r.Consistent, out)
	}
	for _, want := range []string{
		"Deployment prod/web (apps/v1)",
		"origin:        base/app.yaml:1-10 (//base)",
		"1. PatchTransformer  configured in prod/kustomization.yaml (//prod)",
		"reads prod/patch.yaml",
		"2. NamespaceTransformer  configured in prod/kustomization.yaml (//prod)",
		"matches, rendered from these inputs",
		"its input files are unchanged since the render",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The Service is the second document of the same file.
	r, out = traceLive(t, m, live(t, stream, "Service", "", nil), trace.Options{})
	if r.Status != trace.Match || !strings.Contains(out, "base/app.yaml:12-15 (//base)") {
		t.Errorf("Service: %v\n%s", r.Status, out)
	}
}

func TestTraceLiveObjectMismatch(t *testing.T) {
	stream, m, fs := renderTree(t, "/ws/prod")
	// Rendered from other inputs: another digest.
	other := live(t, stream, "Deployment", "", func(n *yaml.RNode) {
		_ = n.PipeE(yaml.SetAnnotation(provmanifest.DigestAnnotation, "sha256:"+strings.Repeat("0", 64)))
	})
	r, out := traceLive(t, m, other, trace.Options{})
	if r.Status != trace.Mismatch || !strings.Contains(out, "DOES NOT MATCH") {
		t.Errorf("status %v\n%s", r.Status, out)
	}
	// Not rendered with provenance at all.
	bare := live(t, stream, "Deployment", "", func(n *yaml.RNode) {
		_ = n.PipeE(yaml.ClearAnnotation(provmanifest.DigestAnnotation))
	})
	if r, out := traceLive(t, m, bare, trace.Options{}); r.Status != trace.NoDigest {
		t.Errorf("status %v\n%s", r.Status, out)
	}
	// The workspace moved on since the render: the patch changed.
	if err := fs.WriteFile("/ws/prod/patch.yaml", []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 5\n")); err != nil {
		t.Fatal(err)
	}
	_, out = traceLive(t, m, live(t, stream, "Deployment", "", nil), trace.Options{FS: fs, WorkspaceRoot: "/ws"})
	if !strings.Contains(out, "changed since the render: prod/patch.yaml (changed)") {
		t.Errorf("workspace check:\n%s", out)
	}
	// An input in the kustomization itself changed (replicas, an inline
	// patch): the file that configured a transformer of the object.
	if err := fs.WriteFile("/ws/prod/kustomization.yaml", []byte(files["/ws/prod/kustomization.yaml"]+"replicas:\n- name: web\n  count: 7\n")); err != nil {
		t.Fatal(err)
	}
	_, out = traceLive(t, m, live(t, stream, "Deployment", "", nil), trace.Options{FS: fs, WorkspaceRoot: "/ws"})
	if !strings.Contains(out, "changed since the render: prod/kustomization.yaml (changed), prod/patch.yaml (changed)") {
		t.Errorf("workspace check after an edit of the kustomization:\n%s", out)
	}
	// Another document of the origin file changed: the object's own did not.
	if err := fs.WriteFile("/ws/base/app.yaml", []byte(files["/ws/base/app.yaml"]+"  labels:\n    x: y\n")); err != nil {
		t.Fatal(err)
	}
	_, out = traceLive(t, m, live(t, stream, "Deployment", "", nil), trace.Options{FS: fs, WorkspaceRoot: "/ws"})
	if !strings.Contains(out, "base/app.yaml (document unchanged)") {
		t.Errorf("workspace check:\n%s", out)
	}
}

func TestTraceNamespaceChosenAtApply(t *testing.T) {
	// base renders the Service without a namespace; the cluster put it in "team".
	stream, m, _ := renderTree(t, "/ws/cluster")
	r, out := traceLive(t, m, live(t, stream, "Service", "team", nil), trace.Options{})
	if r.Status != trace.Match || r.Object.ID.Name != "web" {
		t.Errorf("status %v\n%s", r.Status, out)
	}
	// A generated object.
	r, out = traceLive(t, m, live(t, stream, "ConfigMap", "team", nil), trace.Options{})
	if r.Status != trace.Match || !strings.Contains(out, "generated by ConfigMapGenerator  configured in base/kustomization.yaml (//base)") {
		t.Errorf("ConfigMap: %v\n%s", r.Status, out)
	}
	// A cluster-scoped object.
	if r, out := traceLive(t, m, live(t, stream, "Namespace", "", nil), trace.Options{}); r.Status != trace.Match {
		t.Errorf("Namespace: %v\n%s", r.Status, out)
	}
}

func TestTraceByID(t *testing.T) {
	_, m, _ := renderTree(t, "/ws/prod")
	for _, id := range []string{"Deployment/prod/web", "deployment/web", "Deployment.apps/prod/web", "Deployment.apps/web"} {
		q, err := trace.ParseID(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		r, err := trace.Trace(m, q, trace.Options{})
		if err != nil || r.Status != trace.NoLiveObject || r.Object.ID.Kind != "Deployment" {
			t.Errorf("%s: %v %+v", id, err, r)
		}
	}
	for _, id := range []string{"Deployment/other/web", "Deployment.batch/web", "Service/nope"} {
		q, err := trace.ParseID(id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := trace.Trace(m, q, trace.Options{}); err == nil {
			t.Errorf("%s: found", id)
		}
	}
	for _, bad := range []string{"web", "a/b/c/d", "/web", "Deployment/"} {
		if _, err := trace.ParseID(bad); err == nil {
			t.Errorf("ParseID(%q) accepted", bad)
		}
	}
}

func TestTraceList(t *testing.T) {
	stream, m, _ := renderTree(t, "/ws/prod")
	list := "apiVersion: v1\nkind: List\nitems:\n"
	for _, k := range []string{"Deployment", "Service"} {
		for _, l := range strings.Split(strings.TrimSpace(string(live(t, stream, k, "", nil))), "\n") {
			if strings.HasPrefix(l, "apiVersion") {
				list += "- " + l + "\n"
			} else {
				list += "  " + l + "\n"
			}
		}
	}
	qs, err := trace.ParseObjects([]byte(list))
	if err != nil || len(qs) != 2 {
		t.Fatalf("%d objects, %v", len(qs), err)
	}
	for _, q := range qs {
		if r, err := trace.Trace(m, q, trace.Options{}); err != nil || r.Status != trace.Match {
			t.Errorf("%s: %v %v", q, err, r)
		}
	}
	// kubectl -o json works too.
	j := `{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"prod","uid":"x"},"status":{}}`
	if qs, err := trace.ParseObjects([]byte(j)); err != nil || len(qs) != 1 || qs[0].HasDigest {
		t.Errorf("json: %v %+v", err, qs)
	}
}

func TestTraceDetectsEditedManifest(t *testing.T) {
	_, m, _ := renderTree(t, "/ws/prod")
	q, _ := trace.ParseID("Deployment/prod/web")
	m.Steps[m.Objects[0].Transformers[0]].ConfigSha256 = strings.Repeat("1", 64)
	for i := range m.Objects {
		if m.Objects[i].ID.Kind == "Deployment" {
			m.Steps[m.Objects[i].Transformers[0]].ConfigSha256 = strings.Repeat("1", 64)
		}
	}
	r, err := trace.Trace(m, q, trace.Options{})
	if err != nil || r.Consistent {
		t.Errorf("edited manifest not detected: %v %+v", err, r)
	}
}

// A live object is untrusted input: an alias bomb is refused before it is expanded.
func TestParseObjectsRefusesAliases(t *testing.T) {
	bomb := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: &a [x, x, x]\n  b: [*a, *a, *a]\n"
	if _, err := trace.ParseObjects([]byte(bomb)); err == nil || !strings.Contains(err.Error(), "alias") {
		t.Fatalf("ParseObjects of an alias bomb: %v, want an error about aliases", err)
	}
}
