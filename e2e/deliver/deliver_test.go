//go:build apiserver && bazel

// Package deliver tests the run targets of krm_kustomization end to end: in a scratch copy of
// this repository, Bazel writes the scripts of //examples/deploy:prod.apply, .diff and .delete
// (bazel run --script_path, which runs what bazel run runs), and they run against a real
// kube-apiserver (dev/testing/apiserver). It lives under e2e/, outside Bazel (.bazelignore)
// and Gazelle, because it drives Bazel itself; dev/scripts/test.sh runs it:
//
//	go test -tags 'apiserver bazel' ./e2e/deliver
//
// Bazel, the scratch copy (kept in KRM_TEST_DIR between runs, with its output base) and the
// disk cache (KRM_DISK_CACHE) are dev/testing/bazeltest's.
package deliver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/dev/testing/apiserver"
	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

const pkg = "//examples/deploy"

func TestRunTargets(t *testing.T) {
	root := bazeltest.Root(t)
	ws := filepath.Join(bazeltest.TestDir(t, "deliver"), "repo")
	bazeltest.CopyRepo(t, root, ws)
	b := bazeltest.New(t, ws, "")
	diskCache := "--disk_cache=" + bazeltest.DiskCache(t)
	bazel := func(args ...string) {
		t.Helper()
		b.Must(t, append(args[:1:1], append([]string{diskCache}, args[1:]...)...)...)
	}

	// The scripts bazel run would run, each starting krm in its runfiles.
	scripts := map[string]string{}
	for _, target := range []string{"prod.apply", "prod.diff", "prod.delete"} {
		scripts[target] = filepath.Join(ws, "..", target+".sh")
		bazel("run", "--script_path="+scripts[target], pkg+":"+target)
	}

	s := apiserver.Start(t)
	// A relative KUBECONFIG, run from elsewhere: krm takes it relative to the directory bazel
	// run was typed in (BUILD_WORKING_DIRECTORY, ws), not its runfiles nor this one.
	bazeltest.WriteFile(t, filepath.Join(ws, "kubeconfig.yaml"), bazeltest.ReadFile(t, s.Kubeconfig))
	elsewhere := t.TempDir()
	run := func(target string, wantCode int, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), scripts[target], args...)
		cmd.Dir = elsewhere
		cmd.Env = append(os.Environ(), "KUBECONFIG=kubeconfig.yaml", "KRM_ALLOWED_CONTEXTS=")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		if code != wantCode {
			t.Fatalf("bazel run %s:%s -- %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", pkg, target, strings.Join(args, " "), code, wantCode, stdout.String(), stderr.String())
		}
		t.Logf("bazel run %s:%s -- %s: exit %d\n%s%s", pkg, target, strings.Join(args, " "), code, stdout.String(), stderr.String())
		return stdout.String()
	}
	c := newClient(t, s.Kubeconfig)
	rendered := readManifests(t, filepath.Join(ws, "bazel-bin/examples/deploy/prod_manifests.yaml"))

	// The context is the user's, after `--`; without it apply refuses the current context.
	run("prod.apply", 2)
	out := run("prod.apply", 0, "--context", apiserver.AdminContext)
	checkLines(t, "first apply", out, rendered, "created")
	versions := map[string]string{}
	for _, obj := range rendered {
		live := c.get(t, obj)
		if live == nil {
			t.Fatalf("%s is not in the cluster after prod.apply", id(obj))
		}
		if err := contains(live.Object, obj.Object, ""); err != nil {
			t.Errorf("%s in the cluster: %v", id(obj), err)
		}
		versions[id(obj)] = live.GetResourceVersion()
	}
	parent := c.applySetParents(t)
	if len(parent) != 1 || !strings.HasPrefix(parent[0], "krm-examples-deploy-prod-") {
		t.Errorf("ApplySet parents in namespace default after prod.apply: %q, want one krm-examples-deploy-prod-...", parent)
	}

	// Again: nothing changes, not even a resourceVersion.
	out = run("prod.apply", 0, "--context", apiserver.AdminContext)
	checkLines(t, "second apply", out, rendered, "unchanged")
	for _, obj := range rendered {
		if rv := c.get(t, obj).GetResourceVersion(); rv != versions[id(obj)] {
			t.Errorf("%s: resourceVersion %s after the second apply, was %s", id(obj), rv, versions[id(obj)])
		}
	}
	if out := run("prod.diff", 0, "--color", "never"); out != "no differences\n" {
		t.Errorf("prod.diff after the apply:\n%s", out)
	}

	// A base edit: the diff shows exactly that field.
	base := filepath.Join(ws, "examples/components/base/deployment.yaml")
	edit(t, base, "mountPath: /etc/config", "mountPath: /etc/app")
	bazel("build", pkg+":prod.diff")
	want := `~ Deployment.apps example-prod/prod-example
-   spec.template.spec.containers[name=example].volumeMounts[name=conf].mountPath: "/etc/config"
+   spec.template.spec.containers[name=example].volumeMounts[name=conf].mountPath: "/etc/app"
1 changed in 1 file
`
	if out := run("prod.diff", 1, "--color", "never"); out != want {
		t.Errorf("prod.diff after editing %s:\n%s\nwant:\n%s", base, out, want)
	}

	// Stamped, with provenance: the apply target passes the kustomization's provenance
	// manifest and the workspace status's commit (--provenance-manifest, --source-commit-from),
	// and krm apply records both with each generation (docs/provenance.md). Before the
	// delete: no namespace controller runs, so a deleted Namespace would stay Terminating.
	status := filepath.Join(ws, "..", "workspace-status.sh")
	bazeltest.WriteFile(t, status, "#!/bin/sh\necho STABLE_GIT_COMMIT e2ec0ffee\n")
	scripts["prod.apply stamped"] = filepath.Join(ws, "..", "prod.apply.stamped.sh")
	bazel("run", "--stamp", "--workspace_status_command="+status, "--//rules:provenance", "--script_path="+scripts["prod.apply stamped"], pkg+":prod.apply")
	run("prod.apply stamped", 0, "--context", apiserver.AdminContext)
	entry := c.recorded(t, "apps", "Deployment", "example-prod", "prod-example")
	deployment := &unstructured.Unstructured{}
	deployment.SetAPIVersion("apps/v1")
	deployment.SetKind("Deployment")
	deployment.SetNamespace("example-prod")
	deployment.SetName("prod-example")
	gen := c.get(t, deployment).GetGeneration() // a new one: the base edit changed its template
	if entry["generation"] != float64(gen) || entry["commit"] != "e2ec0ffee" || !strings.HasPrefix(fmt.Sprint(entry["inputDigest"]), "sha256:") ||
		entry["kustomization"] == nil {
		t.Errorf("the stamped apply recorded %v for the Deployment, want generation %d of commit e2ec0ffee with its inputs digest and kustomization", entry, gen)
	}

	// Delete: every object goes, and the ApplySet's parent. (Built again: the stamped build
	// wrote its outputs in the same output directory, under the runfiles of this script.)
	bazel("build", pkg+":prod.delete")
	out = run("prod.delete", 0, "--context", apiserver.AdminContext)
	checkLines(t, "delete", out, rendered, "deleted")
	for _, obj := range rendered {
		live := c.get(t, obj)
		// No namespace controller runs: a deleted Namespace stays Terminating.
		if live != nil && !(obj.GetKind() == "Namespace" && live.GetDeletionTimestamp() != nil) {
			t.Errorf("%s is still in the cluster after prod.delete", id(obj))
		}
	}
	if parent := c.applySetParents(t); len(parent) != 0 {
		t.Errorf("ApplySet parents after prod.delete: %q", parent)
	}
}

// recorded is the newest entry of the generation record of the ApplySet of namespace default
// (there is one) for the object named.
func (c *client) recorded(t *testing.T, group, kind, namespace, name string) map[string]any {
	t.Helper()
	parents := c.applySetParents(t)
	if len(parents) != 1 {
		t.Fatalf("ApplySet parents: %q, want one", parents)
	}
	cm, err := c.dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default").
		Get(context.Background(), parents[0]+".krm-generations", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the generation record: %v", err)
	}
	data, _, _ := unstructured.NestedString(cm.Object, "data", "generations.json")
	var rec struct {
		Objects []struct {
			Group, Kind, Namespace, Name string
			Generations                  []map[string]any
		}
	}
	if err := json.Unmarshal([]byte(data), &rec); err != nil {
		t.Fatalf("the generation record: %v\n%s", err, data)
	}
	for _, o := range rec.Objects {
		if o.Group == group && o.Kind == kind && o.Namespace == namespace && o.Name == name && len(o.Generations) > 0 {
			return o.Generations[len(o.Generations)-1]
		}
	}
	t.Fatalf("the generation record has no %s %s/%s:\n%s", kind, namespace, name, data)
	return nil
}

func edit(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(data, []byte(old)) != 1 {
		t.Fatalf("%s holds %q %d times, want once", path, old, bytes.Count(data, []byte(old)))
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readManifests(t *testing.T, path string) []*unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var objs []*unstructured.Unstructured
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		objs = append(objs, &unstructured.Unstructured{Object: m})
	}
	if len(objs) < 2 {
		t.Fatalf("%s holds %d objects", path, len(objs))
	}
	return objs
}

func id(obj *unstructured.Unstructured) string {
	return strings.TrimPrefix(obj.GetNamespace()+"/", "/") + obj.GetKind() + "/" + obj.GetName()
}

// checkLines checks that out has one line per rendered object, each ending in verb.
func checkLines(t *testing.T, what, out string, rendered []*unstructured.Unstructured, verb string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	// delete also names the ApplySet's parent and, last, its generation record (krm apply
	// wrote one: the Deployment has generations).
	if verb == "deleted" && len(lines) > 0 && strings.HasPrefix(lines[len(lines)-1], "ConfigMap default/krm-examples-deploy-prod-") &&
		strings.HasSuffix(lines[len(lines)-1], ".krm-generations deleted") {
		lines = lines[:len(lines)-1]
	} else if verb == "deleted" {
		t.Errorf("%s: no line for the ApplySet's generation record:\n%s", what, out)
	}
	if verb == "deleted" && len(lines) > 0 && strings.HasPrefix(lines[len(lines)-1], "Secret default/krm-examples-deploy-prod-") {
		lines = lines[:len(lines)-1]
	} else if verb == "deleted" {
		t.Errorf("%s: no line for the ApplySet's parent:\n%s", what, out)
	}
	if len(lines) != len(rendered) {
		t.Errorf("%s: %d lines, want one per object (%d):\n%s", what, len(lines), len(rendered), out)
	}
	for _, l := range lines {
		if !strings.HasSuffix(l, " "+verb) {
			t.Errorf("%s: %q, want every object %s:\n%s", what, l, verb, out)
		}
	}
}

// contains reports the first field of want that got lacks or holds another value (got may
// have more: defaults, status, metadata of the server's).
func contains(got, want any, path string) error {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: %v, want a map", path, got)
		}
		for k, v := range w {
			if err := contains(g[k], v, path+"."+k); err != nil {
				return err
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%s: %v, want %d items", path, got, len(w))
		}
		for i := range w {
			if err := contains(g[i], w[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	default:
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("%s: %v, want %v", path, got, want)
		}
	}
	return nil
}

type client struct {
	dyn    dynamic.Interface
	mapper *restmapper.DeferredDiscoveryRESTMapper
}

func newClient(t *testing.T, kubeconfig string) *client {
	rc := apiserver.RESTConfig(t, kubeconfig, "")
	dyn, err := dynamic.NewForConfig(rc)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(rc)
	if err != nil {
		t.Fatal(err)
	}
	return &client{dyn: dyn, mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))}
}

// get returns the live object of obj, nil when there is none.
func (c *client) get(t *testing.T, obj *unstructured.Unstructured) *unstructured.Unstructured {
	t.Helper()
	gvk := obj.GroupVersionKind()
	m, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		t.Fatalf("%s: %v", id(obj), err)
	}
	live, err := c.dyn.Resource(m.Resource).Namespace(obj.GetNamespace()).Get(context.Background(), obj.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatalf("%s: %v", id(obj), err)
	}
	return live
}

// applySetParents lists the Secrets of namespace default that are ApplySet parents.
func (c *client) applySetParents(t *testing.T) []string {
	t.Helper()
	list, err := c.dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "secrets"}).Namespace("default").
		List(context.Background(), metav1.ListOptions{LabelSelector: "applyset.kubernetes.io/id"})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, s := range list.Items {
		names = append(names, s.GetName())
	}
	return names
}
