//go:build apiserver

package apiserver

import (
	"errors"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestMain(m *testing.M) { os.Exit(RunShared(m)) }

var (
	namespaces   = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	configMaps   = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	pods         = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	deployments  = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	clusterRoles = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}
)

func object(apiVersion, kind, namespace, name string, fields map[string]any) *unstructured.Unstructured {
	o := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": apiVersion,
		"kind":       kind,
		"metadata":   map[string]any{"name": name},
	}}
	if namespace != "" {
		o.SetNamespace(namespace)
	}
	for k, v := range fields {
		o.Object[k] = v
	}
	return o
}

func TestServer(t *testing.T) {
	start := time.Now()
	s := Start(t)
	t.Logf("started in %s at %s (etcd %s)", time.Since(start).Round(time.Millisecond), s.URL, s.EtcdURL)
	ctx := t.Context()
	admin := Dynamic(t, s.Kubeconfig, AdminContext)

	if _, err := admin.Resource(namespaces).Create(ctx, object("v1", "Namespace", "", "demo", nil), metav1.CreateOptions{}); err != nil {
		t.Fatalf("admin creates a Namespace: %v", err)
	}
	pod := object("v1", "Pod", "demo", "p", map[string]any{"spec": map[string]any{
		"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}})
	if _, err := admin.Resource(pods).Namespace("demo").Create(ctx, pod, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}); err == nil ||
		!strings.Contains(err.Error(), `serviceaccount "default" not found`) {
		t.Errorf("dry-run create of a Pod in a namespace without its default ServiceAccount: got %v, want serviceaccount \"default\" not found", err)
	}
	if err := s.CreateNamespace(ctx, "demo"); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Resource(pods).Namespace("demo").Create(ctx, pod, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
		t.Errorf("dry-run create of a Pod after CreateNamespace: %v", err)
	}
	cm := object("v1", "ConfigMap", "demo", "settings", map[string]any{"data": map[string]any{"mode": "test"}})
	if _, err := admin.Resource(configMaps).Namespace("demo").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatalf("admin creates a ConfigMap: %v", err)
	}
	got, err := admin.Resource(configMaps).Namespace("demo").Get(ctx, "settings", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("admin reads the ConfigMap back: %v", err)
	}
	if mode, _, _ := unstructured.NestedString(got.Object, "data", "mode"); mode != "test" {
		t.Errorf("ConfigMap data.mode = %q, want test", mode)
	}

	// Strict server-side dry run: a misspelt field is an error, and nothing is stored.
	deploy := object("apps/v1", "Deployment", "demo", "web", map[string]any{"spec": map[string]any{
		"replica":  int64(2),
		"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
		"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx"}}},
		},
	}})
	_, err = admin.Resource(deployments).Namespace("demo").Create(ctx, deploy,
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
	if err == nil || !strings.Contains(err.Error(), `unknown field "spec.replica"`) {
		t.Errorf("strict dry-run create of a Deployment with spec.replica: got %v, want unknown field \"spec.replica\"", err)
	}
	unstructured.RemoveNestedField(deploy.Object, "spec", "replica")
	if _, err := admin.Resource(deployments).Namespace("demo").Create(ctx, deploy,
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"}); err != nil {
		t.Errorf("strict dry-run create of a valid Deployment: %v", err)
	}
	if _, err := admin.Resource(deployments).Namespace("demo").Get(ctx, "web", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("after a dry run the Deployment exists (or reading it failed): %v", err)
	}

	// The limited user reads, and may not create a ClusterRole.
	limited := Dynamic(t, s.Kubeconfig, LimitedContext)
	if _, err := limited.Resource(configMaps).Namespace("demo").Get(ctx, "settings", metav1.GetOptions{}); err != nil {
		t.Errorf("limited user reads the ConfigMap: %v", err)
	}
	role := object("rbac.authorization.k8s.io/v1", "ClusterRole", "", "escalate", map[string]any{"rules": []any{}})
	_, err = limited.Resource(clusterRoles).Create(ctx, role, metav1.CreateOptions{})
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), LimitedUser) {
		t.Errorf("limited user creates a ClusterRole: got %v, want Forbidden naming %s", err, LimitedUser)
	}

	// Stopped: no process left, no port open.
	pids, addrs := s.PIDs(), s.Addrs()
	if len(pids) != 2 || len(addrs) != 3 {
		t.Fatalf("PIDs %v, Addrs %v: want 2 processes and 3 addresses", pids, addrs)
	}
	start = time.Now()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	t.Logf("stopped in %s", time.Since(start).Round(time.Millisecond))
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("process %d after Stop: kill -0 says %v, want no such process", pid, err)
		}
	}
	for _, a := range addrs {
		if c, err := net.DialTimeout("tcp", a, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections after Stop", a)
		}
	}
}

// Shared starts one server per test binary and hands out the same one.
func TestShared(t *testing.T) {
	s := Shared(t)
	if s2 := Shared(t); s2 != s {
		t.Fatal("Shared returned two different servers")
	}
	ns := object("v1", "Namespace", "", "shared-demo", nil)
	if _, err := Dynamic(t, s.Kubeconfig, AdminContext).Resource(namespaces).Create(t.Context(), ns, metav1.CreateOptions{}); err != nil {
		t.Fatalf("admin creates a Namespace on the shared server: %v", err)
	}
}
