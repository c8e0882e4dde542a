package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/worker"
)

// lazyTag builds the krm that starts without Helm and client-go and runs krm_helm, the full
// renderer beside it, for charts, cluster commands and workers (helm_helper.go).
const lazyTag = "krm_lazyhelm"

// The helper's file name and the variable naming another path: documented names.
const (
	helperFile    = "krm_helm"
	helperPathEnv = "KRM_HELM"
)

// Its start-up is the lean renderer's because it links the same: neither Helm nor client-go.
func TestLazyHelmLinksNoHelmNorClient(t *testing.T) {
	checkLinksNoHelmNorClient(t, lazyTag)
}

// lazyPair builds krm (-tags krm_lazyhelm) and, unless alone, krm_helm beside it.
func lazyPair(t *testing.T, alone bool) (krm string) {
	t.Helper()
	gocmd := goTool(t)
	if testing.Short() {
		t.Skip("builds two renderers")
	}
	dir := t.TempDir()
	krm = filepath.Join(dir, "krm")
	builds := [][]string{{"build", "-tags", lazyTag, "-o", krm, "."}}
	if !alone {
		builds = append(builds, []string{"build", "-o", filepath.Join(dir, helperFile), "."})
	}
	for _, args := range builds {
		if out, err := exec.Command(gocmd, args...).CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return krm
}

func runKRM(t *testing.T, env []string, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// A chart is rendered by krm_helm, byte-identical to the checked-in golden (kustomize's
// output), and so is a chart requested of a persistent worker; a build without a chart
// needs no helper.
func TestLazyHelmRendersChartsInHelper(t *testing.T) {
	krm := lazyPair(t, false)
	example, err := filepath.Abs("../../examples/helm")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join(example, "helm_manifests.golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runKRM(t, nil, krm, "build", "--enable-helm", example)
	if code != 0 || stdout != string(golden) || stderr != "" {
		t.Errorf("krm build --enable-helm examples/helm: exit %d, stderr %q, stdout equals the golden: %v", code, stderr, stdout == string(golden))
	}

	var stdin bytes.Buffer
	if err := worker.WriteRequest(&stdin, 7, "build", "--enable-helm", example); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(krm, worker.Flag)
	cmd.Stdin = &stdin
	var werr bytes.Buffer
	cmd.Stderr = &werr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("worker: %v\n%s", err, werr.String())
	}
	resp, err := worker.ReadResponse(bufio.NewReader(bytes.NewReader(out)))
	if err != nil && err != io.EOF {
		t.Fatal(err)
	}
	if resp.ID != 7 || resp.ExitCode != 0 || resp.Output != string(golden) {
		t.Errorf("worker response %d, exit %d, output equals the golden: %v\n%s", resp.ID, resp.ExitCode, resp.Output == string(golden), resp.Output)
	}
}

// Without krm_helm beside it, a build without a chart works; one with a chart fails
// naming where the helper should be and how to build it, and so does a worker; a krm
// without Helm named as the helper fails instead of running itself again and again.
func TestLazyHelmWithoutHelper(t *testing.T) {
	krm := lazyPair(t, false)
	alone := lazyPair(t, true)
	tree := t.TempDir()
	for name, data := range map[string]string{
		"kustomization.yaml": "resources:\n- cm.yaml\n",
		"cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n",
	} {
		if err := os.WriteFile(filepath.Join(tree, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if stdout, stderr, code := runKRM(t, nil, alone, "build", tree); code != 0 || !strings.Contains(stdout, "name: cm") {
		t.Errorf("build without a chart: exit %d\n%s%s", code, stdout, stderr)
	}
	missing := filepath.Join(filepath.Dir(alone), helperFile)
	for _, args := range [][]string{{"build", "--enable-helm", "../../examples/helm"}, {worker.Flag}} {
		_, stderr, code := runKRM(t, nil, alone, args...)
		if code != 1 || !strings.Contains(stderr, "which is not at "+missing+": build it there (go build -o "+missing+" ./tools/renderer)") {
			t.Errorf("krm %s without %s: exit %d, stderr:\n%s", args[0], helperFile, code, stderr)
		}
	}
	_, stderr, code := runKRM(t, []string{helperPathEnv + "=" + krm}, alone, "build", "--enable-helm", "../../examples/helm")
	if code != 1 || !strings.Contains(stderr, "a helm chart needs Helm, and "+krm+", run for it, has none") {
		t.Errorf("with %s naming a krm without Helm: exit %d, stderr:\n%s", helperPathEnv, code, stderr)
	}
}
