//go:build apiserver

package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rules-krm/rules_krm/dev/testing/apiserver"
)

// krm trace on objects the API server returns: examples/provenance rendered with provenance
// and applied by krm apply traces back with every field as rendered (exit 0), read from the
// server (--context) or piped in as kubectl get -o json prints it; after another field
// manager edits spec.replicas through the API, trace reports exactly that field, its
// rendered and live values, the manager and the source line (exit 3).
func TestTraceLiveObjects(t *testing.T) {
	s := apiserver.Start(t)
	if err := s.CreateNamespace(t.Context(), "shop"); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	man := filepath.Join(dir, "prod.provenance.json")
	kc := "--kubeconfig=" + s.Kubeconfig
	krm := func(want int, stdin []byte, args ...string) string {
		t.Helper()
		var o, e bytes.Buffer
		code := run(args, streams{stdin: bytes.NewReader(stdin), stdout: &o, stderr: &e})
		if code != want {
			t.Fatalf("krm %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, &o, &e)
		}
		return o.String() + e.String()
	}
	rendered := krm(0, nil, "build", filepath.Join(root, "examples", "provenance", "prod"),
		"--provenance-manifest", man, "--workspace-root", root)
	manifests := writeTemp(t, dir, "prod_manifests.yaml", rendered)
	krm(0, nil, "apply", kc, "--context", apiserver.AdminContext, manifests)

	trace := func(want int, stdin []byte, args ...string) string {
		t.Helper()
		return krm(want, stdin, append([]string{"trace", "-m", man, "--workspace-root", root}, args...)...)
	}
	for _, id := range []string{"Deployment/shop/prod-web", "Service/shop/prod-web", "ConfigMap/shop/prod-web-settings-hf678c7m2b"} {
		out := trace(0, nil, kc, "--context", apiserver.AdminContext, id)
		for _, want := range []string{": matches, rendered from these inputs\n",
			"  live fields:   as rendered (" + manifests + "): every field the render sets has its rendered value\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("trace --context %s: no %q in\n%s", id, want, out)
			}
		}
	}

	dyn := apiserver.Dynamic(t, s.Kubeconfig, apiserver.AdminContext)
	deployments := dyn.Resource(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}).Namespace("shop")
	live, err := deployments.Get(t.Context(), "prod-web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if live.GetGeneration() == 0 || len(live.GetManagedFields()) == 0 {
		t.Fatalf("the server's Deployment has no generation or managedFields: %v", live.Object["metadata"])
	}
	asKubectl, err := json.Marshal(live.Object)
	if err != nil {
		t.Fatal(err)
	}
	if out := trace(0, asKubectl, "-", "--manifests", manifests); !strings.Contains(out, "every field the render sets has its rendered value") {
		t.Errorf("trace - (kubectl get -o json):\n%s", out)
	}

	// Another field manager edits spec.replicas, as kubectl edit or scale would.
	if _, err := deployments.Patch(t.Context(), "prod-web", types.MergePatchType, []byte(`{"spec":{"replicas":5}}`),
		metav1.PatchOptions{FieldManager: "trace-test-editor"}); err != nil {
		t.Fatal(err)
	}
	out := trace(3, nil, "--context", apiserver.AdminContext, kc, "Deployment/shop/prod-web")
	want := `rendered from these inputs, but DRIFTED since: 1 field differs
  live fields:   1 field differs from the render (` + manifests + `):
    spec.replicas: 1 → 5
      live value owned by field manager "trace-test-editor" (Update)
      set by examples/provenance/base/deployment.yaml:6
`
	if !strings.Contains(out, want) {
		t.Errorf("trace after the edit:\n%s\nwant it to hold:\n%s", out, want)
	}

	// Gone from the cluster, not in the manifest: errors naming it.
	if err := deployments.Delete(t.Context(), "prod-web", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if out := trace(1, nil, kc, "--context", apiserver.AdminContext, "Deployment/shop/prod-web"); !strings.Contains(out, `Deployment.apps shop/prod-web: not found in context "admin"`) {
		t.Errorf("trace of a deleted object:\n%s", out)
	}
	if out := trace(1, nil, kc, "--context", apiserver.AdminContext, "Deployment/shop/nope"); !strings.Contains(out, "Deployment/shop/nope is not in the provenance manifest") {
		t.Errorf("trace of an object the render lacks:\n%s", out)
	}
	if out := trace(2, nil, kc, "--context", "nope", "Service/shop/prod-web"); !strings.Contains(out, `context "nope" is not in the kubeconfig`) {
		t.Errorf("trace with a wrong context:\n%s", out)
	}

	// An alias bomb on stdin is refused at once, before anything expands it.
	var bomb strings.Builder
	bomb.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 20; i++ {
		bomb.WriteString(strings.NewReplacer("N", string(rune('a'+i)), "P", string(rune('a'+i-1))).Replace("  N: &N [*P, *P, *P, *P, *P, *P, *P, *P, *P, *P]\n"))
	}
	start := time.Now()
	if out := trace(1, []byte(bomb.String()), "-"); !strings.Contains(out, "aliases are not allowed") {
		t.Errorf("alias bomb:\n%s", out)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("refusing the alias bomb took %v", d)
	}
}
