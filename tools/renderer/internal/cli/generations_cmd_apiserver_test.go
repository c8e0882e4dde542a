//go:build apiserver

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/rules-krm/rules_krm/dev/testing/apiserver"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
)

var (
	widgetsGVR     = schema.GroupVersionResource{Group: "gen.example.com", Version: "v1", Resource: "widgets"}
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	configMapsGVR  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
)

// genFixture is testdata/generations rendered with provenance (commit A: a/, commit B: b/,
// which patches spec.size) on a server of the test's own, and the test as the controller.
type genFixture struct {
	t             *testing.T
	s             *apiserver.Server
	dyn           *dynamic.DynamicClient
	kc            string
	dir, root     string
	manA, manB    string // provenance manifests
	yamlA, yamlB  string // rendered manifests
	applySetFlags []string
	recordName    string
}

func newGenFixture(t *testing.T) *genFixture {
	s := apiserver.Start(t)
	if err := s.CreateNamespace(t.Context(), "gen"); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	f := &genFixture{t: t, s: s, dyn: apiserver.Dynamic(t, s.Kubeconfig, apiserver.AdminContext), kc: "--kubeconfig=" + s.Kubeconfig,
		dir: t.TempDir(), root: root, applySetFlags: []string{"--applyset", "gen-set", "--applyset-namespace", "gen"},
		recordName: genrecord.Name("gen-set")}
	render := func(commit string) (string, string) {
		man := filepath.Join(f.dir, commit+".provenance.json")
		out := f.krm(0, "build", filepath.Join(root, "generations", commit), "--provenance-manifest", man, "--workspace-root", root)
		return man, writeTemp(t, f.dir, commit+"_manifests.yaml", out)
	}
	f.manA, f.yamlA = render("a")
	f.manB, f.yamlB = render("b")
	return f
}

// krm runs a command and checks its exit status; it returns stdout and stderr together.
func (f *genFixture) krm(want int, args ...string) string {
	f.t.Helper()
	var o, e bytes.Buffer
	code := run(args, streams{stdin: strings.NewReader(""), stdout: &o, stderr: &e})
	if code != want {
		f.t.Fatalf("krm %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, &o, &e)
	}
	return o.String() + e.String()
}

func (f *genFixture) apply(want int, manifests string, extra ...string) string {
	f.t.Helper()
	args := append([]string{"apply", f.kc, "--context", apiserver.AdminContext}, f.applySetFlags...)
	return f.krm(want, append(append(args, extra...), manifests)...)
}

func (f *genFixture) trace(want int, id, man, manifests string, extra ...string) string {
	f.t.Helper()
	args := append([]string{"trace", f.kc, "--context", apiserver.AdminContext, "-m", man, "--manifests", manifests, "--workspace-root", f.root}, extra...)
	return f.krm(want, append(args, id)...)
}

func (f *genFixture) traceJSON(want int, id, man, manifests string, extra ...string) map[string]any {
	f.t.Helper()
	out := f.trace(want, id, man, manifests, append(extra, "-o", "json")...)
	var j map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &j); err != nil {
		f.t.Fatalf("trace -o json: %v\n%s", err, out)
	}
	return j
}

func (f *genFixture) generation(gvr schema.GroupVersionResource, name string) int64 {
	f.t.Helper()
	u, err := f.dyn.Resource(gvr).Namespace("gen").Get(f.t.Context(), name, metav1.GetOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	return u.GetGeneration()
}

// setStatus writes an object's status through the status subresource, as its controller would.
func (f *genFixture) setStatus(gvr schema.GroupVersionResource, name string, status map[string]any) {
	f.t.Helper()
	res := f.dyn.Resource(gvr).Namespace("gen")
	u, err := res.Get(f.t.Context(), name, metav1.GetOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	u.Object["status"] = status
	if _, err := res.UpdateStatus(f.t.Context(), u, metav1.UpdateOptions{FieldManager: "test-controller"}); err != nil {
		f.t.Fatal(err)
	}
}

// widgetReady is the Widget controller's status: Ready=True of generation gen.
func (f *genFixture) widgetReady(ready bool, gen int64) {
	status := "True"
	if !ready {
		status = "False"
	}
	f.setStatus(widgetsGVR, "web", map[string]any{
		"observedGeneration": gen,
		"conditions": []any{map[string]any{"type": "Ready", "status": status, "reason": "Reconciled", "message": "size " + fmt.Sprint(gen),
			"observedGeneration": gen, "lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}},
	})
}

// deploymentReady is the Deployment controller's status of a Deployment of 0 replicas.
func (f *genFixture) deploymentReady(gen int64) {
	f.setStatus(deploymentsGVR, "web", map[string]any{
		"observedGeneration": gen,
		"conditions": []any{map[string]any{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable",
			"message": "Deployment has minimum availability.", "lastUpdateTime": time.Now().UTC().Format(time.RFC3339),
			"lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}},
	})
}

func (f *genFixture) record() (*genrecord.Record, string) {
	f.t.Helper()
	cm, err := f.dyn.Resource(configMapsGVR).Namespace("gen").Get(f.t.Context(), f.recordName, metav1.GetOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	data, _, _ := unstructured.NestedString(cm.Object, "data", genrecord.DataKey)
	rec, err := genrecord.Parse([]byte(data))
	if err != nil {
		f.t.Fatal(err)
	}
	return rec, data
}

func outputs(t *testing.T, j map[string]any) []map[string]any {
	t.Helper()
	list, _ := j["outputs"].([]any)
	var out []map[string]any
	for _, o := range list {
		out = append(out, o.(map[string]any))
	}
	if len(out) == 0 {
		t.Fatalf("no outputs in %v", j)
	}
	return out
}

func mustContain(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("%s: no %q in\n%s", what, w, out)
		}
	}
}

const widgetID = "Widget.gen.example.com/gen/web"

// Apply commit A (generation 1), Ready observes 1; apply commit B (generation 2): Ready
// reflects commit A and is not current; Ready observes 2: commit B, current. The same for the
// Deployment's status.observedGeneration, the weaker signal; krm status over the render.
func TestGenerationsTraced(t *testing.T) {
	f := newGenFixture(t)
	out := f.apply(0, f.yamlA, "--provenance-manifest", f.manA, "--source-commit", "aaaa")
	mustContain(t, "apply A", out, "Widget.gen.example.com gen/web created", "Deployment.apps gen/web created")
	if g := f.generation(widgetsGVR, "web"); g != 1 {
		t.Fatalf("generation %d after A", g)
	}
	f.widgetReady(true, 1)
	f.deploymentReady(1)
	f.apply(0, f.yamlB, "--provenance-manifest", f.manB, "--source-commit", "bbbb")
	if g := f.generation(widgetsGVR, "web"); g != 2 {
		t.Fatalf("generation %d after B", g)
	}

	text := f.trace(0, widgetID, f.manB, f.yamlB)
	mustContain(t, "trace after B", text,
		"  status:        live generation 2 (commit bbbb, inputs sha256:",
		"    .status.conditions[type=Ready] True (Reconciled)\n      reflects generation 1: commit aaaa, inputs sha256:",
		"; NOT CURRENT (the live generation is 2)\n      its provenance manifest is not at hand (-m is of inputs sha256:",
		"  record:        ConfigMap gen/gen-set.krm-generations\n")
	j := f.traceJSON(0, widgetID, f.manB, f.yamlB)
	ready := outputs(t, j)[0]
	if j["generation"] != float64(2) || ready["path"] != ".status.conditions[type=Ready]" || ready["observedGeneration"] != float64(1) ||
		ready["sourceCommit"] != "aaaa" || ready["current"] != false || !strings.HasPrefix(ready["inputDigest"].(string), "sha256:") {
		t.Errorf("trace -o json after B: %v", j)
	}
	if code, out, _ := runCLI("status", f.kc, "--context", apiserver.AdminContext, f.yamlB); code != 3 ||
		!strings.Contains(out, "Widget.gen.example.com gen/web") || !strings.Contains(out, "1: commit aaaa") {
		t.Errorf("krm status after B: exit %d\n%s", code, out)
	}

	f.widgetReady(true, 2)
	text = f.trace(0, widgetID, f.manB, f.yamlB)
	mustContain(t, "trace after Ready observes 2", text,
		"reflects generation 2: commit bbbb, inputs sha256:",
		"; current\n      from generations/b/kustomization.yaml, generations/b/size.yaml, generations/base/kustomization.yaml, generations/base/widget.yaml\n")
	j = f.traceJSON(0, widgetID, f.manB, f.yamlB)
	if o := outputs(t, j); o[0]["sourceCommit"] != "bbbb" || o[0]["current"] != true || o[1]["path"] != ".status" || o[1]["weak"] != true {
		t.Errorf("trace -o json after Ready observes 2: %v", o)
	}

	// The Deployment's generation did not change with B: status.observedGeneration 1 is B's
	// too (B rendered the same spec), the weaker signal labelled so.
	text = f.trace(0, "Deployment/gen/web", f.manB, f.yamlB)
	mustContain(t, "trace of the Deployment", text, ".status.observedGeneration (a weaker signal", "reflects generation 1: commit bbbb")

	out = f.krm(0, "status", f.kc, "--context", apiserver.AdminContext, f.yamlB)
	for _, want := range []string{
		"CustomResourceDefinition.apiextensions.k8s.io widgets.gen.example.com  1 ",
		"Widget.gen.example.com gen/web",
		"2: commit bbbb",
		"1 (status): commit bbbb",
	} {
		mustContain(t, "krm status", out, want)
	}
	t.Logf("krm status:\n%s", out)
}

// A real controller: kube-controller-manager's Deployment controller writes
// status.observedGeneration and the conditions of a Deployment of 0 replicas (no kubelet
// needed), and krm apply --wait returns once it has, for each generation applied.
func TestWaitForDeploymentController(t *testing.T) {
	s := apiserver.Start(t)
	if err := s.CreateNamespace(t.Context(), "gen"); err != nil {
		t.Fatal(err)
	}
	s.StartControllers(t)
	dir := t.TempDir()
	deploy := func(image string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "generations", "base", "deployment.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		y := strings.Replace(strings.Replace(string(data), "name: web\n", "name: web\n  namespace: gen\n", 1), "web:1.0", image, 1)
		return writeTemp(t, dir, "deploy-"+image+".yaml", y)
	}
	kc := "--kubeconfig=" + s.Kubeconfig
	for i, image := range []string{"web:1.0", "web:1.1"} {
		code, out, errOut := runCLI("apply", kc, "--context", apiserver.AdminContext, "--applyset", "ctrl", "--applyset-namespace", "gen",
			"--source-commit", fmt.Sprint("c", i+1), "--wait", "--timeout", "90s", deploy(image))
		if code != 0 || !strings.Contains(out, fmt.Sprintf("Deployment.apps gen/web current (generation %d)\n", i+1)) {
			t.Fatalf("apply --wait of %s: exit %d\n%s\n%s", image, code, out, errOut)
		}
		t.Logf("apply --wait of %s:\n%s", image, out)
	}
	code, out, errOut := runCLI("status", kc, "--context", apiserver.AdminContext, "--applyset", "ctrl", "--applyset-namespace", "gen", deploy("web:1.1"))
	if code != 0 || !strings.Contains(out, "2 (status): commit c2  yes      Current") {
		t.Errorf("krm status: exit %d\n%s\n%s", code, out, errOut)
	}
}
