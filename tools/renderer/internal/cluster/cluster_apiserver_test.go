//go:build apiserver

package cluster

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/rules-krm/rules_krm/dev/testing/apiserver"
	"github.com/rules-krm/rules_krm/dev/testing/kubeconfig"
)

// The test binary is also the exec credential plugin of the credentials tests.
func TestMain(m *testing.M) {
	kubeconfig.ServeExecPlugin()
	os.Exit(apiserver.RunShared(m))
}

func connect(t *testing.T, s *apiserver.Server, context string) *Client {
	t.Helper()
	c, err := Connect(t.Context(), Config{Kubeconfig: s.Kubeconfig, Context: context})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// manifests parses YAML, or reads the files (workspace-relative) and joins them.
func manifests(t *testing.T, yamlText string, files ...string) []*Object {
	t.Helper()
	var b strings.Builder
	b.WriteString(yamlText)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("../../../..", f))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n---\n")
		b.Write(data)
	}
	objs, err := parseObjects([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// apply applies and returns the lines reported.
func apply(t *testing.T, c *Client, objs []*Object, o ApplyOptions) ([]string, error) {
	t.Helper()
	var lines []string
	o.Report = func(l string) { lines = append(lines, l) }
	err := c.Apply(t.Context(), objs, o)
	return lines, err
}

func mustApply(t *testing.T, c *Client, objs []*Object, o ApplyOptions) []string {
	t.Helper()
	lines, err := apply(t, c, objs, o)
	if err != nil {
		t.Fatalf("apply: %v (reported %q)", err, lines)
	}
	return lines
}

func get(t *testing.T, c *Client, gvr schema.GroupVersionResource, ns, name string) *unstructured.Unstructured {
	t.Helper()
	u, err := c.dyn.Resource(gvr).Namespace(ns).Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

var (
	configMaps  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	secrets     = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	widgets     = schema.GroupVersionResource{Group: "example.dev", Version: "v1", Resource: "widgets"}
)

func resourceVersions(t *testing.T, c *Client, objs []*Object) map[string]string {
	t.Helper()
	rvs := map[string]string{}
	for _, o := range objs {
		ri, err := c.resource(t.Context(), o)
		if err != nil {
			t.Fatal(err)
		}
		u, err := ri.Get(t.Context(), o.GetName(), metav1.GetOptions{})
		if err != nil {
			t.Fatalf("%s: %v", o, err)
		}
		rvs[o.String()] = u.GetResourceVersion()
	}
	return rvs
}

// The examples (a Namespace, generated ConfigMap and Secrets, a Deployment; a CRD and its
// custom resource) apply, read back with their rendered fields, and a second apply changes
// nothing.
func TestApplyExamples(t *testing.T) {
	s := apiserver.Shared(t)
	c := connect(t, s, apiserver.AdminContext)
	objs := manifests(t, "", "examples/deploy/prod_manifests.golden.yaml",
		"examples/openapi/crds/widget-crd.yaml", "examples/openapi/widgets_manifests.golden.yaml")
	lines := mustApply(t, c, objs, ApplyOptions{})
	if len(lines) != len(objs) {
		t.Fatalf("reported %q for %d objects", lines, len(objs))
	}
	for _, l := range lines {
		if !strings.HasSuffix(l, " created") {
			t.Errorf("first apply: %q, want created", l)
		}
	}
	if lines[0] != "Namespace example-prod created" || !strings.HasPrefix(lines[1], "CustomResourceDefinition.apiextensions.k8s.io widgets.example.dev") {
		t.Errorf("Namespaces and CRDs first, in render order: %q", lines[:2])
	}
	d := get(t, c, deployments, "example-prod", "prod-example")
	if r, _, _ := unstructured.NestedInt64(d.Object, "spec", "replicas"); r != 3 {
		t.Errorf("Deployment replicas %d, want 3", r)
	}
	cs, _, _ := unstructured.NestedSlice(d.Object, "spec", "template", "spec", "containers")
	if img := cs[0].(map[string]any)["image"]; img != "registry.example.com/example:1.4.2" {
		t.Errorf("image %v", img)
	}
	w := get(t, c, widgets, "default", "frontend")
	ports, _, _ := unstructured.NestedSlice(w.Object, "spec", "ports")
	if want := []any{map[string]any{"name": "https", "port": int64(8443)}}; !reflect.DeepEqual(ports, want) {
		t.Errorf("Widget spec.ports %v, want %v", ports, want)
	}
	if _, ok := get(t, c, secrets, "example-prod", "prod-dbpass-9t7hh85m8c").Object["data"]; !ok {
		t.Error("Secret without data")
	}

	before := resourceVersions(t, c, objs)
	again := mustApply(t, c, manifests(t, "", "examples/deploy/prod_manifests.golden.yaml",
		"examples/openapi/crds/widget-crd.yaml", "examples/openapi/widgets_manifests.golden.yaml"), ApplyOptions{})
	for _, l := range again {
		if !strings.HasSuffix(l, " unchanged") {
			t.Errorf("second apply: %q, want unchanged", l)
		}
	}
	if after := resourceVersions(t, c, objs); !reflect.DeepEqual(before, after) {
		t.Errorf("resourceVersions changed by a second apply: %v -> %v", before, after)
	}
}

const diffBase = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: diff-test
  labels: {app: web}
data:
  mode: fast
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: diff-test
  labels: {app: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{containerPort: 8080}]
`

// A live diff shows exactly the field the render changed (not the server's defaults, status or
// bookkeeping), and nothing once it is applied.
func TestDiffShowsTheChangedField(t *testing.T) {
	s := apiserver.Shared(t)
	c := connect(t, s, apiserver.AdminContext)
	if err := s.CreateNamespace(t.Context(), "diff-test"); err != nil {
		t.Fatal(err)
	}
	mustApply(t, c, manifests(t, diffBase), ApplyOptions{})
	r, err := c.Diff(t.Context(), manifests(t, diffBase), DiffOptions{Name: "render.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Empty() {
		t.Fatalf("diff right after apply: %+v", r.Files)
	}
	changed := strings.Replace(diffBase, "image: nginx:1.27", "image: nginx:1.28", 1)
	r, err = c.Diff(t.Context(), manifests(t, changed), DiffOptions{Name: "render.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := r.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	want := `~ Deployment.apps diff-test/web
-   spec.template.spec.containers[name=web].image: "nginx:1.27"
+   spec.template.spec.containers[name=web].image: "nginx:1.28"
1 changed in 1 file
`
	if !strings.HasSuffix(text.String(), want) || r.Changed != 1 || len(r.Files[0].Objects[0].Fields) != 1 {
		t.Errorf("diff:\n%s\nwant it to end with:\n%s", text.String(), want)
	}
	mustApply(t, c, manifests(t, changed), ApplyOptions{})
	d := get(t, c, deployments, "diff-test", "web")
	cs, _, _ := unstructured.NestedSlice(d.Object, "spec", "template", "spec", "containers")
	if img := cs[0].(map[string]any)["image"]; img != "nginx:1.28" {
		t.Errorf("image after apply %v", img)
	}
	if r, err = c.Diff(t.Context(), manifests(t, changed), DiffOptions{}); err != nil || !r.Empty() {
		t.Errorf("diff after applying the change: %v, %+v", err, r)
	}
	// A field dropped from the render is removed by the apply: the diff shows it.
	dropped := strings.Replace(changed, "  labels: {app: web}\ndata:", "data:", 1)
	if r, err = c.Diff(t.Context(), manifests(t, dropped), DiffOptions{}); err != nil || r.Changed != 1 ||
		r.Files[0].Objects[0].Fields[0].Path != "metadata.labels" || r.Files[0].Objects[0].Fields[0].Change != "removed" {
		t.Errorf("diff of a dropped label: %v, %+v", err, r)
	}
}

func cm(ns, name, labels string) string {
	return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: %s\n  labels: {%s}\ndata: {k: v}\n---\n", name, ns, labels)
}

// Prune deletes the members of the ApplySet the render no longer holds and nothing else: not
// the others, not an object outside the set with the same labels.
func TestPruneWithApplySet(t *testing.T) {
	s := apiserver.Shared(t)
	c := connect(t, s, apiserver.AdminContext)
	ns := "prune-test"
	if err := s.CreateNamespace(t.Context(), ns); err != nil {
		t.Fatal(err)
	}
	outsider := manifests(t, cm(ns, "outsider", "app: shop"))
	if _, err := c.dyn.Resource(configMaps).Namespace(ns).Create(t.Context(), outsider[0].Unstructured, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	set, err := ParseApplySet("shop", ns)
	if err != nil {
		t.Fatal(err)
	}
	other := "prune-other"
	if err := s.CreateNamespace(t.Context(), other); err != nil {
		t.Fatal(err)
	}
	full := cm(ns, "a", "app: shop") + cm(ns, "b", "app: shop") + cm(other, "c", "app: shop")
	mustApply(t, c, manifests(t, full), ApplyOptions{ApplySet: set, Prune: true})
	parent := get(t, c, secrets, ns, "shop")
	if got := parent.GetLabels()[IDLabel]; got != set.ID() {
		t.Errorf("parent id label %q, want %q", got, set.ID())
	}
	ann := parent.GetAnnotations()
	if ann[ToolingAnnotation] != Tooling || ann[GroupKindsAnnotation] != "ConfigMap" || ann[NamespacesAnnotation] != other {
		t.Errorf("parent annotations %v", ann)
	}
	if got := get(t, c, configMaps, ns, "a").GetLabels()[PartOfLabel]; got != set.ID() {
		t.Errorf("member label %q", got)
	}
	rvA := get(t, c, configMaps, ns, "a").GetResourceVersion()

	// Dry run first: reported, nothing deleted.
	lines := mustApply(t, c, manifests(t, cm(ns, "a", "app: shop")), ApplyOptions{ApplySet: set, Prune: true, DryRun: true})
	if !reflect.DeepEqual(lines, []string{
		"ConfigMap prune-test/a unchanged (server dry run)",
		"ConfigMap prune-other/c pruned (server dry run)",
		"ConfigMap prune-test/b pruned (server dry run)",
	}) {
		t.Errorf("dry run: %q", lines)
	}
	get(t, c, configMaps, ns, "b")
	r, err := c.Diff(t.Context(), manifests(t, cm(ns, "a", "app: shop")), DiffOptions{ApplySet: set})
	if err != nil || r.Removed != 2 || r.Changed+r.Added != 0 {
		t.Errorf("live diff with the ApplySet: %v, %+v", err, r)
	}

	lines = mustApply(t, c, manifests(t, cm(ns, "a", "app: shop")), ApplyOptions{ApplySet: set, Prune: true})
	if !reflect.DeepEqual(lines, []string{"ConfigMap prune-test/a unchanged", "ConfigMap prune-other/c pruned", "ConfigMap prune-test/b pruned"}) {
		t.Errorf("prune: %q", lines)
	}
	for _, gone := range []struct{ ns, name string }{{ns, "b"}, {other, "c"}} {
		if _, err := c.dyn.Resource(configMaps).Namespace(gone.ns).Get(t.Context(), gone.name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("%s/%s after prune: %v, want not found", gone.ns, gone.name, err)
		}
	}
	if rv := get(t, c, configMaps, ns, "a").GetResourceVersion(); rv != rvA {
		t.Errorf("a changed by the prune: %s -> %s", rvA, rv)
	}
	get(t, c, configMaps, ns, "outsider") // same labels, outside the set: still there
	if ann := get(t, c, secrets, ns, "shop").GetAnnotations(); ann[NamespacesAnnotation] != "" {
		t.Errorf("parent still lists namespaces after prune: %v", ann)
	}

	// Delete: the render's objects and the parent.
	var deleted []string
	if err := c.Delete(t.Context(), manifests(t, cm(ns, "a", "app: shop")+cm(ns, "never", "")), set, false, func(l string) { deleted = append(deleted, l) }); err != nil {
		t.Fatal(err)
	}
	if want := []string{"ConfigMap prune-test/never not found", "ConfigMap prune-test/a deleted", "Secret prune-test/shop deleted"}; !reflect.DeepEqual(deleted, want) {
		t.Errorf("delete: %q, want %q", deleted, want)
	}
	get(t, c, configMaps, ns, "outsider")
}

// Another field manager owning a field: the apply fails naming the field and the manager;
// --force-conflicts takes it.
func TestConflictWithAnotherManager(t *testing.T) {
	s := apiserver.Shared(t)
	c := connect(t, s, apiserver.AdminContext)
	ns := "conflict-test"
	if err := s.CreateNamespace(t.Context(), ns); err != nil {
		t.Fatal(err)
	}
	mustApply(t, c, manifests(t, cm(ns, "cfg", "app: x")), ApplyOptions{})
	theirs := manifests(t, strings.Replace(cm(ns, "cfg", "app: x"), "k: v", "k: edited", 1))[0]
	theirs.SetLabels(nil)
	if _, err := c.dyn.Resource(configMaps).Namespace(ns).Apply(t.Context(), "cfg", theirs.Unstructured,
		metav1.ApplyOptions{FieldManager: "ops-team", Force: true}); err != nil {
		t.Fatal(err)
	}
	lines, err := apply(t, c, manifests(t, cm(ns, "cfg", "app: x")), ApplyOptions{})
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), `.data.k (owned by field manager "ops-team")`) ||
		!strings.Contains(err.Error(), "--force-conflicts") || !strings.Contains(err.Error(), "0 of 1 objects applied, 1 failed") || len(lines) != 0 {
		t.Fatalf("apply over another manager's field: %v (reported %q)", err, lines)
	}
	if _, err := c.Diff(t.Context(), manifests(t, cm(ns, "cfg", "app: x")), DiffOptions{}); !errors.Is(err, ErrConflict) {
		t.Errorf("diff without force: %v, want the conflict", err)
	}
	r, err := c.Diff(t.Context(), manifests(t, cm(ns, "cfg", "app: x")), DiffOptions{Force: true})
	if err != nil || r.Changed != 1 || r.Files[0].Objects[0].Fields[0].Path != "data.k" {
		t.Errorf("diff with force: %v %+v", err, r)
	}
	mustApply(t, c, manifests(t, cm(ns, "cfg", "app: x")), ApplyOptions{Force: true})
	if v, _, _ := unstructured.NestedString(get(t, c, configMaps, ns, "cfg").Object, "data", "k"); v != "v" {
		t.Errorf("after --force-conflicts data.k = %q, want v", v)
	}
}

// A wrong context, an unreachable server and a forbidden verb are clear errors, and a refused
// apply reports what it did not apply.
func TestErrors(t *testing.T) {
	s := apiserver.Shared(t)
	_, err := Connect(t.Context(), Config{Kubeconfig: s.Kubeconfig, Context: "prod"})
	if !errors.Is(err, ErrContext) || !strings.Contains(err.Error(), `context "prod" is not in the kubeconfig`) ||
		!strings.Contains(err.Error(), `"admin", "limited"`) {
		t.Errorf("unknown context: %v", err)
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "https://" + l.Addr().String()
	l.Close()
	kc, err := os.ReadFile(s.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(dead, []byte(strings.Replace(string(kc), s.URL, closed, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Connect(t.Context(), Config{Kubeconfig: dead})
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), closed) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("closed port: %v", err)
	}

	ns := "forbidden-test"
	if err := s.CreateNamespace(t.Context(), ns); err != nil {
		t.Fatal(err)
	}
	limited := connect(t, s, apiserver.LimitedContext)
	lines, err := apply(t, limited, manifests(t, cm(ns, "a", "")+cm(ns, "b", "")), ApplyOptions{})
	if !errors.Is(err, ErrForbidden) || len(lines) != 0 ||
		!strings.Contains(err.Error(), `context "limited" may not create "configmaps" in namespace "forbidden-test"`) ||
		!strings.Contains(err.Error(), "0 of 2 objects applied, 2 failed") {
		t.Errorf("limited user applies: %v (reported %q)", err, lines)
	}
	admin := connect(t, s, apiserver.AdminContext)
	if _, err := admin.dyn.Resource(configMaps).Namespace(ns).Get(t.Context(), "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("a refused apply left an object: %v", err)
	}
	err = limited.Delete(t.Context(), manifests(t, cm("default", "kube-root-ca.crt", "")), nil, false, nil)
	if !errors.Is(err, ErrForbidden) || !strings.Contains(err.Error(), `may not delete "configmaps" in namespace "default"`) {
		t.Errorf("limited user deletes: %v", err)
	}
	// An alias in a kubeconfig is refused before clientcmd expands it.
	bomb := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(bomb, []byte("apiVersion: v1\nkind: Config\na: &a [x, x]\nb: [*a, *a]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Connect(t.Context(), Config{Kubeconfig: bomb}); err == nil || !strings.Contains(err.Error(), "aliases are not allowed") {
		t.Errorf("kubeconfig with aliases: %v", err)
	}
}
