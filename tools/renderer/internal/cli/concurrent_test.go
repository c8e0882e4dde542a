package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// concurrentTree is a kustomization whose render depends on everything a
// build must keep to itself: the OpenAPI schema (with schema.json its
// patch merges the workers list by name, else replaces it), the executable
// declared for its exec function (./fn/run, which exists nowhere in the
// tree) and where its Starlark script and function print.
func concurrentTree(t *testing.T, name string, customSchema bool) (dir, exe string) {
	t.Helper()
	kust := "resources: [myapp.yaml]\npatches:\n- path: patch.yaml\ntransformers: [print.yaml, fn.yaml]\n"
	if customSchema {
		kust += "openapi:\n  path: schema.json\n"
	}
	dir = tree(t, map[string]string{
		"kustomization.yaml": kust,
		"myapp.yaml": "apiVersion: example.com/v1\nkind: MyApp\nmetadata:\n  name: jobs\nspec:\n  workers:\n" +
			"  - name: email\n    replicas: 1\n  - name: sms\n    replicas: 1\n",
		"patch.yaml": "apiVersion: example.com/v1\nkind: MyApp\nmetadata:\n  name: jobs\nspec:\n  workers:\n  - name: sms\n    replicas: 5\n",
		"schema.json": `{"definitions": {"com.example.v1.MyApp": {"type": "object",
  "properties": {"spec": {"type": "object", "properties": {"workers": {"type": "array",
    "items": {"type": "object"}, "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge"}}}},
  "x-kubernetes-group-version-kind": [{"group": "example.com", "kind": "MyApp", "version": "v1"}]}}}`,
		"print.yaml": "apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata:\n  name: print\nsource: |\n" +
			"  print(\"script of " + name + "\")\n",
		"fn.yaml": "apiVersion: example.com/v1\nkind: Fn\nmetadata:\n  name: f\n  annotations:\n" +
			"    config.kubernetes.io/function: |\n      exec:\n        path: ./fn/run\n",
	})
	// The declared executable names its tree in the objects and on stderr.
	exe = filepath.Join(t.TempDir(), name)
	script := fmt.Sprintf("#!/bin/sh\necho function of %s >&2\nexec sed 's/name: jobs$/name: jobs-%s/'\n", name, name)
	if err := os.WriteFile(exe, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, exe
}

// renderResult is what one render left: its exit status, manifests and stderr.
type renderResult struct {
	code              int
	manifests, stderr string
}

// TestConcurrentBuilds runs renders of three trees at once in one process,
// as a persistent worker serving several requests could: each with its own
// declared executable, output streams and, for one, an OpenAPI schema of
// its own. Each must leave exactly what it leaves when run alone. Run it
// with -race: the renders with the built-in schema run in parallel; the one
// that sets openapi holds kyaml's process-wide schema to itself
// (accumulate.HoldOpenAPI).
func TestConcurrentBuilds(t *testing.T) {
	type job struct{ name, dir, exe string }
	var jobs []job
	for _, j := range []struct {
		name   string
		custom bool
	}{{"a", true}, {"b", false}, {"c", false}} {
		dir, exe := concurrentTree(t, j.name, j.custom)
		jobs = append(jobs, job{j.name, dir, exe})
	}
	out := t.TempDir()
	render := func(j job, round int) renderResult {
		manifests := filepath.Join(out, fmt.Sprintf("%s-%d.yaml", j.name, round))
		var stdout, stderr bytes.Buffer
		code := run([]string{"render", j.dir, "--manifests", manifests, "--hermetic",
			"--function", filepath.Join(j.dir, "fn", "run") + "=" + j.exe}, streams{stdout: &stdout, stderr: &stderr})
		m, _ := os.ReadFile(manifests)
		return renderResult{code, string(m), stderr.String()}
	}

	alone := map[string]renderResult{}
	for _, j := range jobs {
		r := render(j, 0)
		if r.code != 0 {
			t.Fatalf("%s alone: exit %d\n%s", j.name, r.code, r.stderr)
		}
		alone[j.name] = r
	}
	// The trees differ where shared state would show: the schema merges
	// the workers (email kept), each function renames to its own tree, each
	// prints its own name.
	if a, b := alone["a"].manifests, alone["b"].manifests; !bytes.Contains([]byte(a), []byte("name: email")) ||
		bytes.Contains([]byte(b), []byte("name: email")) {
		t.Fatalf("the custom schema does not change the render:\na:\n%s\nb:\n%s", a, b)
	}
	for _, j := range jobs {
		r := alone[j.name]
		for _, want := range []string{"name: jobs-" + j.name + "\n"} {
			if !bytes.Contains([]byte(r.manifests), []byte(want)) {
				t.Errorf("%s: manifests lack %q:\n%s", j.name, want, r.manifests)
			}
		}
		for _, want := range []string{"script of " + j.name, "function of " + j.name} {
			if !bytes.Contains([]byte(r.stderr), []byte(want)) {
				t.Errorf("%s: stderr lacks %q:\n%s", j.name, want, r.stderr)
			}
		}
	}

	const rounds = 4
	var wg sync.WaitGroup
	results := make([][]renderResult, rounds)
	for round := range results {
		results[round] = make([]renderResult, len(jobs))
		for i, j := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[round][i] = render(j, round+1)
			}()
		}
	}
	wg.Wait()
	for round, rs := range results {
		for i, r := range rs {
			if want := alone[jobs[i].name]; r != want {
				t.Errorf("round %d, %s: concurrent render differs from the render alone:\nexit %d, manifests:\n%s\nstderr:\n%s\nwant exit %d, manifests:\n%s\nstderr:\n%s",
					round, jobs[i].name, r.code, r.manifests, r.stderr, want.code, want.manifests, want.stderr)
			}
		}
	}
}
