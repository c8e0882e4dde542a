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
	"k8s.io/apimachinery/pkg/types"
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

func (f *genFixture) recordVersion() string {
	f.t.Helper()
	cm, err := f.dyn.Resource(configMapsGVR).Namespace("gen").Get(f.t.Context(), f.recordName, metav1.GetOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	return cm.GetResourceVersion()
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
	t.Logf("krm apply of A:\n%s", out)
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
	t.Logf("krm trace after B:\n%s", text)
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
	t.Logf("krm trace after Ready observes 2:\n%s", text)
	mustContain(t, "trace after Ready observes 2", text,
		"reflects generation 2: commit bbbb, inputs sha256:",
		"; current\n      from generations/b/kustomization.yaml, generations/b/size.yaml, generations/base/kustomization.yaml, generations/base/widget.yaml\n")
	j = f.traceJSON(0, widgetID, f.manB, f.yamlB)
	t.Logf("krm trace -o json: %v", j)
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
	// Over the ApplySet, without the render: its members as the cluster has them.
	out = f.krm(0, append([]string{"status", f.kc, "--context", apiserver.AdminContext}, f.applySetFlags...)...)
	mustContain(t, "krm status --applyset", out, "Deployment.apps gen/web", "1 (status): commit bbbb", "Widget.gen.example.com gen/web", "2: commit bbbb")
	if code, _, errOut := runCLI("status", f.kc, "--context", apiserver.AdminContext, "--applyset", "nope", "--applyset-namespace", "gen"); code != 1 ||
		!strings.Contains(errOut, "ApplySet nope has no members") {
		t.Errorf("krm status of an unknown ApplySet: exit %d %s", code, errOut)
	}

	// An output of its own (the RFC's observedGenerationPath), lagging behind: named per kind.
	f.setStatus(widgetsGVR, "web", map[string]any{"observedGeneration": int64(2), "latestImage": map[string]any{"image": "web@sha256:1", "observedGeneration": int64(1)}})
	outputPath := "--output-path=gen.example.com/Widget=.status.latestImage.observedGeneration"
	text = f.trace(0, widgetID, f.manB, f.yamlB, outputPath)
	mustContain(t, "trace --output-path", text, "    .status.latestImage\n      reflects generation 1: commit aaaa, inputs sha256:")
	if code, out, _ := runCLI("status", f.kc, "--context", apiserver.AdminContext, outputPath, f.yamlB); code != 3 || !strings.Contains(out, "1: commit aaaa") {
		t.Errorf("krm status --output-path: exit %d\n%s", code, out)
	}
	f.widgetReady(true, 2)

	out = f.krm(0, "status", f.kc, "--context", apiserver.AdminContext, "-o", "json", f.yamlB)
	var widget map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var l map[string]any
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("krm status -o json: %v: %s", err, line)
		}
		if l["object"] == "Widget.gen.example.com gen/web" {
			widget = l
		}
	}
	if widget["generation"] != float64(2) || widget["observedGeneration"] != float64(2) || widget["sourceCommit"] != "bbbb" ||
		widget["current"] != true || widget["state"] != "Current" || widget["output"] != ".status.conditions[type=Ready]" {
		t.Errorf("krm status -o json: %v\n%s", widget, out)
	}
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

// widgetManifest is a render of the Widget alone with spec.size n (what commit n would apply).
func (f *genFixture) widgetManifest(n int) string {
	return writeTemp(f.t, f.dir, fmt.Sprintf("widget-%d.yaml", n), fmt.Sprintf(
		"apiVersion: gen.example.com/v1\nkind: Widget\nmetadata:\n  name: web\n  namespace: gen\nspec:\n  size: %d\n", n))
}

// Garbage collection: once generation N is observed the older ones go; an object nobody
// observes keeps the newest few; the record stays small.
func TestGenerationsCollected(t *testing.T) {
	f := newGenFixture(t)
	f.apply(0, f.yamlA, "--provenance-manifest", f.manA, "--source-commit", "aaaa")
	for n := 2; n <= 13; n++ {
		f.widgetReady(true, f.generation(widgetsGVR, "web"))
		f.apply(0, f.widgetManifest(n), "--source-commit", fmt.Sprint("c", n))
	}
	rec, data := f.record()
	web := genrecord.Key{Group: "gen.example.com", Kind: "Widget", Namespace: "gen", Name: "web"}
	if gs := rec.Generations(web); len(gs) != 2 || gs[0].Generation != 12 || gs[1].Generation != 13 || gs[1].Commit != "c13" {
		t.Errorf("observed each time: generations %+v, want 12 and 13", gs)
	}
	for n := 14; n <= 30; n++ { // nobody observes these
		f.apply(0, f.widgetManifest(n), "--source-commit", fmt.Sprint("c", n))
	}
	rec, data = f.record()
	rv := f.recordVersion()
	f.apply(0, f.widgetManifest(30), "--source-commit", "c30") // again, as it was: no write
	if f.recordVersion() != rv {
		t.Error("an apply that changed nothing rewrote the record")
	}
	if gs := rec.Generations(web); len(gs) != genrecord.MaxPerObject || gs[len(gs)-1].Generation != 30 {
		t.Errorf("unobserved: %d generations %+v, want the newest %d", len(gs), gs, genrecord.MaxPerObject)
	}
	if len(data) > 4096 {
		t.Errorf("the record takes %d bytes", len(data))
	}
	// The Deployment kept its one generation, applied by A, through all of it.
	deploy := genrecord.Key{Group: "apps", Kind: "Deployment", Namespace: "gen", Name: "web"}
	if gs := rec.Generations(deploy); len(gs) != 1 || gs[0].Commit != "aaaa" {
		t.Errorf("Deployment: %+v", gs)
	}
}

// --wait returns once a late controller marks the Widget ready (and the Deployment
// available); without one it times out naming the object and the condition.
func TestApplyWaits(t *testing.T) {
	f := newGenFixture(t)
	f.apply(0, f.yamlA, "--source-commit", "aaaa")
	f.widgetReady(true, 1)
	f.deploymentReady(1)
	done := make(chan error, 1)
	go func() { // the controller, late: it sees generation 2 a second after it appears
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			u, err := f.dyn.Resource(widgetsGVR).Namespace("gen").Get(t.Context(), "web", metav1.GetOptions{})
			if err == nil && u.GetGeneration() == 2 {
				time.Sleep(time.Second)
				u.Object["status"] = map[string]any{"observedGeneration": int64(2), "conditions": []any{map[string]any{
					"type": "Ready", "status": "True", "reason": "Reconciled", "message": "size 2", "observedGeneration": int64(2),
					"lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}}}
				_, err = f.dyn.Resource(widgetsGVR).Namespace("gen").UpdateStatus(t.Context(), u, metav1.UpdateOptions{})
				done <- err
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		done <- fmt.Errorf("generation 2 never appeared")
	}()
	start := time.Now()
	out := f.apply(0, f.yamlB, "--source-commit", "bbbb", "--wait", "--timeout", "60s")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mustContain(t, "apply --wait", out,
		"Widget.gen.example.com gen/web InProgress: Ready condition observes generation 1, not yet 2\n",
		"Widget.gen.example.com gen/web current (generation 2)\n",
		"Deployment.apps gen/web current (generation 1)\n")
	if d := time.Since(start); d < time.Second {
		t.Errorf("apply --wait returned after %v, before the controller wrote", d)
	}
	t.Logf("apply --wait:\n%s", out)

	start = time.Now()
	out = f.apply(1, f.widgetManifest(3), "--source-commit", "cccc", "--wait", "--timeout", "3s")
	mustContain(t, "apply --wait timing out", out,
		"Error: context admin (", "1 of 1 objects not current after 3s:\n  Widget.gen.example.com gen/web: InProgress: Ready condition observes generation 2, not yet 3\n")
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("timing out took %v", d)
	}

	f.widgetReady(false, 3) // the controller says why: Ready=False of generation 3
	out = f.apply(1, f.widgetManifest(3), "--wait", "--timeout", "2s")
	mustContain(t, "apply --wait on Ready=False", out, "Widget.gen.example.com gen/web: InProgress: Ready=False (Reconciled): size 3")
}

// writeRecord replaces the record object's data, as another krm would have written it.
func (f *genFixture) writeRecord(data string) {
	f.t.Helper()
	res := f.dyn.Resource(configMapsGVR).Namespace("gen")
	cm, err := res.Get(f.t.Context(), f.recordName, metav1.GetOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	cm.Object["data"] = map[string]any{genrecord.DataKey: data}
	if _, err := res.Update(f.t.Context(), cm, metav1.UpdateOptions{}); err != nil {
		f.t.Fatal(err)
	}
}

// A user who may apply but not write the record, a missing record, records of an older and
// a newer krm, and a generation made by kubectl in between.
func TestGenerationsEdgeCases(t *testing.T) {
	f := newGenFixture(t)
	f.apply(0, f.yamlA, "--provenance-manifest", f.manA, "--source-commit", "aaaa")
	f.widgetReady(true, 1)

	// The limited user may apply Widgets and the ApplySet's Secret, not write ConfigMaps.
	rbac := []struct {
		gvr schema.GroupVersionResource
		obj string
	}{
		{schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"}, `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"deployer"},
"rules":[{"apiGroups":["gen.example.com",""],"resources":["widgets","secrets"],"verbs":["get","list","create","patch","update"]}]}`},
		{schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"}, `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"deployer"},
"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"deployer"},"subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"` + apiserver.LimitedUser + `"}]}`},
	}
	for _, r := range rbac {
		var u unstructured.Unstructured
		if err := u.UnmarshalJSON([]byte(r.obj)); err != nil {
			t.Fatal(err)
		}
		if _, err := f.dyn.Resource(r.gvr).Namespace("gen").Create(t.Context(), &u, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	limited := append([]string{"apply", f.kc, "--context", apiserver.LimitedContext}, f.applySetFlags...)
	deadline := time.Now().Add(20 * time.Second) // RBAC reads the new binding through an informer
	for {
		code, _, errOut := runCLI(append(limited, "--no-record", "--dry-run", f.widgetManifest(5))...)
		if code == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the limited user cannot apply after the grant: %s", errOut)
		}
		time.Sleep(200 * time.Millisecond)
	}
	code, out, errOut := runCLI(append(limited, "--source-commit", "limited", f.widgetManifest(5))...)
	if code != 1 || out != "" || !strings.Contains(errOut, `the generation record is forbidden: context "limited" may not update configmaps in namespace "gen", where the generation record ConfigMap gen-set.krm-generations of ApplySet Secret gen/gen-set is kept: grant get, create and update on configmaps there, or apply with --no-record`) {
		t.Errorf("limited apply: exit %d\n%s\n%s", code, out, errOut)
	}
	if g := f.generation(widgetsGVR, "web"); g != 1 {
		t.Errorf("the refused apply applied: generation %d", g)
	}
	if code, out, errOut = runCLI(append(limited, "--no-record", "--source-commit", "limited", f.widgetManifest(5))...); code != 0 || out != "Widget.gen.example.com gen/web configured\n" {
		t.Errorf("limited apply --no-record: exit %d\n%s\n%s", code, out, errOut)
	}
	f.widgetReady(true, 2)
	text := f.trace(3, widgetID, f.manA, f.yamlA) // spec.size drifted from A's render
	mustContain(t, "trace of an unrecorded generation", text,
		"  status:        live generation 2 (not recorded: applied by someone else, or collected)\n",
		"reflects generation 2: not recorded: applied by someone else, or collected; current\n")

	// kubectl in between: another field manager's server-side apply makes generation 3.
	patch := []byte(`{"apiVersion":"gen.example.com/v1","kind":"Widget","metadata":{"name":"web","namespace":"gen"},"spec":{"size":42}}`)
	if _, err := f.dyn.Resource(widgetsGVR).Namespace("gen").Patch(t.Context(), "web", types.ApplyPatchType, patch,
		metav1.PatchOptions{FieldManager: "kubectl", Force: ptrTo(true)}); err != nil {
		t.Fatal(err)
	}
	f.widgetReady(true, 3)
	f.apply(0, f.yamlB, "--provenance-manifest", f.manB, "--source-commit", "bbbb", "--force-conflicts") // generation 4
	j := f.traceJSON(0, widgetID, f.manB, f.yamlB)
	if o := outputs(t, j)[0]; j["generation"] != float64(4) || o["observedGeneration"] != float64(3) || o["recorded"] != false || o["sourceCommit"] != "" || o["current"] != false {
		t.Errorf("after kubectl's generation 3: %v", j)
	}
	f.widgetReady(true, 4)

	// A record of an older krm (no version, fewer fields) is read, and rewritten by the next apply.
	f.writeRecord(`{"objects":[{"group":"gen.example.com","kind":"Widget","namespace":"gen","name":"web","generations":[{"generation":4,"commit":"old-krm"}]}]}`)
	text = f.trace(0, widgetID, f.manB, f.yamlB)
	mustContain(t, "trace of an older krm's record", text, "reflects generation 4: commit old-krm; current\n")
	f.apply(0, f.yamlB, "--provenance-manifest", f.manB, "--source-commit", "bbbb")
	if rec, data := f.record(); !strings.HasPrefix(data, `{"version":1,`) || rec.Read != 1 {
		t.Errorf("rewritten record: %s", data)
	}

	// A newer krm's record is left alone: apply warns, trace says to upgrade.
	newer := `{"version":9,"sets":{}}`
	f.writeRecord(newer)
	out = f.apply(0, f.yamlB, "--source-commit", "bbbb")
	mustContain(t, "apply over a newer record", out, "Warning: generations not recorded: ConfigMap gen/gen-set.krm-generations: the generation record is of version 9, written by a newer krm than this one (version 1): upgrade krm\n")
	if _, err := f.dyn.Resource(configMapsGVR).Namespace("gen").Get(t.Context(), f.recordName, metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	}
	text = f.trace(0, widgetID, f.manB, f.yamlB)
	mustContain(t, "trace of a newer record", text, "  record:        none: ConfigMap gen/gen-set.krm-generations: the generation record is of version 9")

	// A missing record: trace says so, with and without --applyset; the next apply makes one.
	if err := f.dyn.Resource(configMapsGVR).Namespace("gen").Delete(t.Context(), f.recordName, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	text = f.trace(0, widgetID, f.manB, f.yamlB, f.applySetFlags...)
	mustContain(t, "trace without a record (--applyset)", text,
		"  record:        none: no generation record: ConfigMap gen/gen-set.krm-generations (of ApplySet Secret gen/gen-set) does not exist",
		"reflects generation 4: no record read; current")
	text = f.trace(0, widgetID, f.manB, f.yamlB)
	mustContain(t, "trace without a record", text, "  record:        none: no generation record: no ConfigMap labelled rules-krm.dev/generations-of=applyset-")
	f.apply(0, f.yamlB, "--provenance-manifest", f.manB, "--source-commit", "bbbb")
	mustContain(t, "trace after the record is made again", f.trace(0, widgetID, f.manB, f.yamlB), "reflects generation 4: commit bbbb, inputs sha256:")
}

func ptrTo[T any](v T) *T { return &v }

// Another field manager's plain Update (not a server-side apply) between two krm applies: its
// generation has no record, which trace and status say; krm's next apply meets the fields it
// took as a conflict naming it, takes them back with --force-conflicts, and records its own.
func TestGenerationsUpdatedByAnother(t *testing.T) {
	f := newGenFixture(t)
	f.apply(0, f.yamlA, "--provenance-manifest", f.manA, "--source-commit", "aaaa")
	f.widgetReady(true, 1)
	f.deploymentReady(1)

	res := f.dyn.Resource(widgetsGVR).Namespace("gen")
	u, err := res.Get(t.Context(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := unstructured.SetNestedField(u.Object, int64(7), "spec", "size"); err != nil {
		t.Fatal(err)
	}
	if _, err := res.Update(t.Context(), u, metav1.UpdateOptions{FieldManager: "other-controller"}); err != nil {
		t.Fatal(err)
	}
	if g := f.generation(widgetsGVR, "web"); g != 2 {
		t.Fatalf("generation %d after the Update", g)
	}
	f.widgetReady(true, 2)

	text := f.trace(3, widgetID, f.manA, f.yamlA) // spec.size drifted from A's render
	t.Logf("krm trace after the Update:\n%s", text)
	mustContain(t, "trace after the Update", text,
		"  status:        live generation 2 (not recorded: applied by someone else, or collected)\n",
		"reflects generation 2: not recorded: applied by someone else, or collected; current\n")
	j := f.traceJSON(3, widgetID, f.manA, f.yamlA)
	if o := outputs(t, j)[0]; j["generation"] != float64(2) || o["observedGeneration"] != float64(2) || o["recorded"] != false ||
		o["sourceCommit"] != "" || o["inputDigest"] != "" || o["current"] != true {
		t.Errorf("trace -o json after the Update: %v", j)
	}
	code, out, errOut := runCLI("status", f.kc, "--context", apiserver.AdminContext, f.yamlA)
	t.Logf("krm status after the Update:\n%s", out)
	if code != 0 || !strings.Contains(out, "2: not recorded") {
		t.Errorf("krm status after the Update: exit %d\n%s\n%s", code, out, errOut)
	}

	// krm's next apply: spec.size is the other manager's now.
	out = f.apply(1, f.yamlB, "--provenance-manifest", f.manB, "--source-commit", "bbbb")
	mustContain(t, "apply over the other manager's field", out, `"other-controller"`, ".spec.size", "--force-conflicts")
	if g := f.generation(widgetsGVR, "web"); g != 2 {
		t.Fatalf("the conflicting apply applied: generation %d", g)
	}
	f.apply(0, f.yamlB, "--provenance-manifest", f.manB, "--source-commit", "bbbb", "--force-conflicts") // generation 3
	rec, _ := f.record()
	web := genrecord.Key{Group: "gen.example.com", Kind: "Widget", Namespace: "gen", Name: "web"}
	if gs := rec.Generations(web); len(gs) != 1 || gs[0].Generation != 3 || gs[0].Commit != "bbbb" {
		t.Errorf("record after B: %+v, want generation 3 of bbbb alone (1 is collected: the Ready condition observed 2)", gs)
	}
	j = f.traceJSON(0, widgetID, f.manB, f.yamlB)
	if o := outputs(t, j)[0]; j["generation"] != float64(3) || j["sourceCommit"] != "bbbb" || o["observedGeneration"] != float64(2) ||
		o["recorded"] != false || o["current"] != false {
		t.Errorf("trace -o json after B: %v", j)
	}
	f.widgetReady(true, 3)
	mustContain(t, "trace once B is observed", f.trace(0, widgetID, f.manB, f.yamlB), "reflects generation 3: commit bbbb, inputs sha256:")
}
