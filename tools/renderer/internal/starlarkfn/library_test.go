package starlarkfn

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	starlarklib "github.com/rules-krm/rules_krm/starlark"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

const workloads = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  template:
    metadata:
      labels:
        app: web
    spec:
      initContainers:
      - name: init
        image: busybox:1.36
      containers:
      - name: app
        image: registry.example.com/web:1.0
        env:
        - name: MODE
          valueFrom:
            configMapKeyRef: {name: cfg, key: mode}
      - name: proxy
        image: envoy@sha256:abc
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "0 0 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: job
            image: registry.example.com/web
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
`

// runLib runs script on the workloads above and returns the result.
func runLib(t *testing.T, script string) string {
	t.Helper()
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	m := resMap(t, h, workloads)
	if err := configure(t, h, inline("lib", script)).Transform(m); err != nil {
		t.Fatal(err)
	}
	return rnodes(t, m)
}

func TestLibraryLabels(t *testing.T) {
	got := runLib(t, `
load("@rules_krm//starlark:labels.star", "remove_labels", "set_labels")
items = ctx.resource_list["items"]
changed = set_labels(items, {"owner": "team-a"}, templates = True, group = "apps")
set_labels(items, {"tier": "edge"}, group = "")
remove_labels(items, ["app"], kind = "Deployment")
if len(changed) != 1:
    fail(changed)
`)
	for _, want := range []string{
		"kind: Deployment\nmetadata:\n  name: web\n  labels:\n    owner: team-a\nspec:\n  template:\n    metadata:\n      labels:\n        app: web\n        owner: team-a\n",
		"kind: Service\nmetadata:\n  name: web\n  labels:\n    tier: edge\n",
		"kind: CronJob\nmetadata:\n  name: nightly\nspec:",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing\n%s\nin\n%s", want, got)
		}
	}
}

func TestLibraryAnnotations(t *testing.T) {
	got := runLib(t, `
load("@rules_krm//starlark:annotations.star", "remove_annotations", "set_annotations")
items = ctx.resource_list["items"]
set_annotations(items, {"team": "a", "note": "x"}, labels = {"app": "web"})
remove_annotations(items, ["note"])
set_annotations(items, {"cron": "yes"}, api_version = "batch/v1", version = "v1", name = "nightly")
set_annotations(items, {"never": "x"}, kind = "Deployment", namespace = "prod")
`)
	for _, want := range []string{
		"name: web\n  labels:\n    app: web\n  annotations:\n    team: a\n",
		"name: nightly\n  annotations:\n    cron: \"yes\"\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing\n%s\nin\n%s", want, got)
		}
	}
	if strings.Contains(got, "note") || strings.Contains(got, "never") {
		t.Errorf("unexpected annotation in\n%s", got)
	}
}

func TestLibraryImages(t *testing.T) {
	got := runLib(t, `
load("@rules_krm//starlark:images.star", "set_image", "split_image")
items = ctx.resource_list["items"]
if split_image("host:5000/a/b:1.0@sha256:x") != ("host:5000/a/b", "1.0", "sha256:x"):
    fail(split_image("host:5000/a/b:1.0@sha256:x"))
if split_image("host:5000/a") != ("host:5000/a", "", ""):
    fail("port is no tag")
n = set_image(items, "registry.example.com/web", new_tag = "2.0")
n += set_image(items, "busybox", new_name = "mirror.example.com/busybox")
n += set_image(items, "envoy", digest = "sha256:def", kind = "Deployment")
if n != 4:
    fail("changed %d containers" % n)
`)
	for _, want := range []string{
		"image: registry.example.com/web:2.0\n",
		"image: mirror.example.com/busybox:1.36\n",
		"image: envoy@sha256:def\n",
		"          - name: job\n            image: registry.example.com/web:2.0\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing\n%s\nin\n%s", want, got)
		}
	}
}

func TestLibraryContainers(t *testing.T) {
	got := runLib(t, `
load("@rules_krm//starlark:containers.star", "add_sidecar", "set_env", "set_resources")
items = ctx.resource_list["items"]
sidecar = {"name": "log", "image": "fluent-bit:3"}
add_sidecar(items, sidecar, kind = "Deployment")
add_sidecar(items, sidecar, kind = "Deployment")  # idempotent
add_sidecar(items, {"name": "proxy", "image": "envoy:v2"}, kind = "Deployment")  # replaces in place
add_sidecar(items, sidecar, kind = "Service")  # no pod spec: nothing
n = set_env(items, {"MODE": "prod", "LOG": "info"}, containers = ["app", "job"])
if n != 2:
    fail("set_env changed %d containers" % n)
set_resources(items, requests = {"cpu": "100m"}, limits = {"memory": "1Gi"}, kind = "CronJob")
sidecar["image"] = "changed-after"  # the resources hold copies
`)
	for _, want := range []string{
		`      containers:
      - name: app
        image: registry.example.com/web:1.0
        env:
        - name: MODE
          value: prod
        - name: LOG
          value: info
      - name: proxy
        image: envoy:v2
      - name: log
        image: fluent-bit:3
`,
		`          - name: job
            image: registry.example.com/web
            env:
            - name: MODE
              value: prod
            - name: LOG
              value: info
            resources:
              requests:
                cpu: 100m
              limits:
                memory: 1Gi
`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing\n%s\nin\n%s", want, got)
		}
	}
	if strings.Contains(got, "valueFrom") || strings.Contains(got, "changed-after") || strings.Count(got, "name: log") != 1 {
		t.Errorf("unexpected:\n%s", got)
	}
}

func TestLibraryWorkloads(t *testing.T) {
	runLib(t, `
load("@rules_krm//starlark:workloads.star", "containers", "pod_spec", "pod_template")
load("@rules_krm//starlark:select.star", "matches", "select", "split_api_version")
items = ctx.resource_list["items"]
names = [[c["name"] for c in containers(r, init = True)] for r in items]
if names != [["app", "proxy", "init"], ["job"], []]:
    fail(names)
if pod_spec(items[2]) != None or pod_template(items[2]) != None:
    fail("a Service has no pod spec")
if [r["kind"] for r in select(items, labels = {"app": "web"})] != ["Deployment"]:
    fail("labels")
if not matches(items[1], group = "batch", version = "v1") or matches(items[1], group = ""):
    fail("group")
if split_api_version("v1") != ("", "v1"):
    fail("core group")
`)
}

// Every library module has a docstring header and loads on its own.
func TestLibraryModules(t *testing.T) {
	entries, err := fs.ReadDir(starlarklib.Files, ".")
	if err != nil {
		t.Fatal(err)
	}
	var script strings.Builder
	for _, e := range entries {
		b, err := fs.ReadFile(starlarklib.Files, e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), `"""`) {
			t.Errorf("%s does not start with a docstring", e.Name())
		}
		script.WriteString(`load("@rules_krm//starlark:` + e.Name() + `", x_` + strings.TrimSuffix(e.Name(), ".star") + ` = "` + firstDef(t, string(b)) + "\")\n")
	}
	if len(entries) < 6 {
		t.Errorf("library has %d modules", len(entries))
	}
	runLib(t, script.String())
}

func firstDef(t *testing.T, src string) string {
	for _, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(line, "def ") && !strings.HasPrefix(line, "def _") {
			return strings.TrimPrefix(line[:strings.Index(line, "(")], "def ")
		}
	}
	t.Fatalf("no public function in\n%s", src)
	return ""
}

// $KRM_STARLARK_LIB replaces the built-in copy of the library.
func TestLibraryEnv(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "labels.star"), []byte(`def set_labels(items, labels):
    items.clear()
`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(LibraryEnv, dir)
	got := runLib(t, `
load("@rules_krm//starlark:labels.star", "set_labels")
set_labels(ctx.resource_list["items"], {})
`)
	if got != "" {
		t.Errorf("the library of %s was not used: %s", LibraryEnv, got)
	}

	// The repository's starlark/ directory, as the env var would name it,
	// is the library krm embeds.
	repo, err := filepath.Abs("../../../../starlark")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(repo, "containers.star")); err == nil { // not in Bazel's runfiles
		t.Setenv(LibraryEnv, repo)
		TestLibraryContainers(t)
	}

	t.Setenv(LibraryEnv, filepath.Join(dir, "missing"))
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	err = configure(t, h, inline("env", `load("@rules_krm//starlark:labels.star", "set_labels")`)).Transform(resMap(t, h, workloads))
	wantErr(t, err, "$KRM_STARLARK_LIB=", "is not a directory")
}
