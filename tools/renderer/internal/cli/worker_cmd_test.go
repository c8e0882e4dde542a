package cli

import (
	"bufio"
	"bytes"
	"cmp"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/worker"
)

// workerTree writes a kustomization (with a deprecated field, so that a
// render warns) and returns the directory holding it (app).
func workerTree(t *testing.T) string {
	return tree(t, map[string]string{
		"app/kustomization.yaml": "commonLabels:\n  team: a\nresources:\n- cm.yaml\n",
		"app/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  k: v\n",
	})
}

// TestWorker runs krm as Bazel runs a persistent worker: one process, five
// requests (a render, a failing render, renders with the inputs declared in
// a manifest and in --input flags, one with an input left undeclared), and
// checks each response and output against krm run as a command; as a
// singleplex worker (no request ids: one request at a time) and as a
// multiplex one (ids: the requests run at once, answered in any order).
func TestWorker(t *testing.T) {
	for _, multiplex := range []bool{false, true} {
		t.Run(map[bool]string{false: "singleplex", true: "multiplex"}[multiplex], func(t *testing.T) { testWorker(t, multiplex) })
	}
}

func testWorker(t *testing.T, multiplex bool) {
	dir := workerTree(t)
	manifest := filepath.Join(dir, "inputs.txt")
	if err := os.WriteFile(manifest, []byte("app/kustomization.yaml\napp/cm.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdin bytes.Buffer
	for i, args := range [][]string{
		{"render", "app", "--manifests", "one.yaml"},
		{"render", "missing", "--manifests", "two.yaml"},
		{"render", "app", "--inputs", manifest, "--manifests", "three.yaml"},
		{"render", "app", "--input", "app/kustomization.yaml", "--input", "app/cm.yaml", "--manifests", "four.yaml"},
		{"render", "app", "--input", "app/kustomization.yaml", "--manifests", "five.yaml"},
	} {
		id := int32(0)
		if multiplex {
			id = int32(i + 1)
		}
		if err := worker.WriteRequest(&stdin, id, args...); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(os.Args[0], worker.Flag)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	cmd.Stdin = &stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("worker: %v\n%s", err, stderr.String())
	}
	r := bufio.NewReader(bytes.NewReader(stdout))
	var resps []worker.Response
	for {
		resp, err := worker.ReadResponse(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		resps = append(resps, resp)
	}
	if len(resps) != 5 {
		t.Fatalf("%d responses, want 5; stdout %q, stderr %s", len(resps), stdout, stderr.String())
	}
	if multiplex {
		slices.SortFunc(resps, func(a, b worker.Response) int { return cmp.Compare(a.ID, b.ID) })
		for i, r := range resps {
			if r.ID != int32(i+1) {
				t.Fatalf("response ids %v: want 1 to 5, each once", resps)
			}
		}
	}
	if resps[0].ExitCode != 0 || !strings.Contains(resps[0].Output, "'commonLabels' is deprecated") {
		t.Errorf("first response %+v: want success with the deprecation warning", resps[0])
	}
	if resps[1].ExitCode != 1 || !strings.Contains(resps[1].Output, "Error:") || !strings.Contains(resps[1].Output, "missing") {
		t.Errorf("second response %+v: want exit 1 naming the directory", resps[1])
	}
	if resps[2].ExitCode != 0 || resps[3].ExitCode != 0 {
		t.Errorf("third and fourth responses %+v %+v", resps[2], resps[3])
	}
	// Declared inputs hold in a worker, which runs outside any sandbox.
	if resps[4].ExitCode != 1 || !strings.Contains(resps[4].Output, "cm.yaml") {
		t.Errorf("fifth response %+v: want exit 1 naming the undeclared cm.yaml", resps[4])
	}
	var want, errs bytes.Buffer
	if code := run([]string{"build", filepath.Join(dir, "app")}, streams{stdout: &want, stderr: &errs}); code != 0 {
		t.Fatalf("krm build: %d %s", code, errs.String())
	}
	for _, name := range []string{"one.yaml", "three.yaml", "four.yaml"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s from the worker:\n%s\nkrm build prints:\n%s", name, got, want.Bytes())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "two.yaml")); !os.IsNotExist(err) {
		t.Errorf("the failed render wrote two.yaml")
	}
	if strings.Contains(stderr.String(), "deprecated") {
		t.Errorf("a warning went to the worker's log instead of its response: %s", stderr.String())
	}
}

// TestFlagfile: a last argument @FILE stands for the lines of FILE, as
// Bazel passes arguments to an action that may run in a worker.
func TestFlagfile(t *testing.T) {
	dir := workerTree(t)
	args := filepath.Join(dir, "args")
	if err := os.WriteFile(args, []byte("build\n"+filepath.Join(dir, "app")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "@"+args)
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("krm @args: %v", err)
	}
	var want, errs bytes.Buffer
	if code := run([]string{"build", filepath.Join(dir, "app")}, streams{stdout: &want, stderr: &errs}); code != 0 || !bytes.Equal(got, want.Bytes()) {
		t.Errorf("krm @args printed\n%s\nkrm build prints\n%s", got, want.Bytes())
	}
	cmd = exec.Command(os.Args[0], "@"+filepath.Join(dir, "nothing"))
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "reading arguments from @") {
		t.Errorf("missing flagfile: %v %s", err, out)
	}
}

// TestWorkerRefusesStdin: a request that names /dev/stdin (the worker's
// stdin is the protocol) as its inputs manifest, a declared input or (by a
// link) a dep's snapshot gets an error naming it, and the worker goes on
// serving:
// reading it would swallow the next requests or, Bazel keeping the pipe
// open, wait for ever.
func TestWorkerRefusesStdin(t *testing.T) {
	dir := workerTree(t)
	if err := os.Symlink("/dev/stdin", filepath.Join(dir, "snapshot.json")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], worker.Flag)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("worker: %v", err)
		}
	}()
	r := bufio.NewReader(stdout)
	for i, args := range [][]string{
		{"render", "app", "--inputs", "/dev/stdin", "--manifests", "one.yaml"},
		{"render", "app", "--input", "app/kustomization.yaml\t/dev/stdin", "--manifests", "two.yaml"},
		{"render", "app", "--input", "app/kustomization.yaml", "--input", "app/cm.yaml", "--dep", "base=snapshot.json", "--manifests", "three.yaml"},
		{"render", "app", "--input", "app/kustomization.yaml", "--input", "app/cm.yaml", "--manifests", "four.yaml"},
	} {
		if err := worker.WriteRequest(stdin, int32(i), args...); err != nil {
			t.Fatal(err)
		}
		got := make(chan worker.Response, 1)
		go func() {
			resp, err := worker.ReadResponse(r)
			if err != nil {
				resp.Output = err.Error()
				resp.ExitCode = -1
			}
			got <- resp
		}()
		select {
		case resp := <-got:
			if i == 3 {
				if resp.ExitCode != 0 {
					t.Errorf("request %d after the refused ones: %+v; want the worker still serving", i, resp)
				}
				continue
			}
			if resp.ExitCode == 0 || !strings.Contains(resp.Output, ": not a regular file") {
				t.Errorf("request %d (%s): %+v; want an error naming /dev/stdin", i, strings.Join(args, " "), resp)
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("request %d (%s): no response after 20s: the worker reads its protocol pipe", i, strings.Join(args, " "))
		}
	}
}
