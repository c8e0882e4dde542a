package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// leanTag builds the lean renderer, //tools/renderer:krm_nohelm (helm_enabled.go and
// cluster_enabled.go are left out).
const leanTag = "krm_nohelm"

// goTool is the go command, or skips the test where there is none or no module to build (a
// Bazel sandbox: no go.mod among the runfiles).
func goTool(t *testing.T) string {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	if _, err := os.Stat(filepath.Join("..", "..", "go.mod")); err != nil {
		t.Skipf("not in the rules_krm module: %v", err)
	}
	return gocmd
}

// The lean renderer runs every render action without a chart, so it must start fast: it
// links neither Helm nor client-go (helmsupport and clustersupport are the seams).
func TestLeanRendererLinksNoHelmNorClient(t *testing.T) {
	checkLinksNoHelmNorClient(t, leanTag)
}

// checkLinksNoHelmNorClient fails the test for each Helm or client-go package that krm built
// with tag links.
func checkLinksNoHelmNorClient(t *testing.T, tag string) {
	t.Helper()
	out, err := exec.Command(goTool(t), "list", "-deps", "-tags", tag, "github.com/rules-krm/rules_krm/tools/renderer").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"k8s.io/client-go", "helm.sh/helm"} {
			if pkg == banned || strings.HasPrefix(pkg, banned+"/") {
				t.Errorf("krm -tags %s links %s", tag, pkg)
			}
		}
	}
}

// The lean renderer's cluster commands say which krm to use.
func TestLeanRendererClusterCommands(t *testing.T) {
	gocmd := goTool(t)
	if testing.Short() {
		t.Skip("builds the lean renderer")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "krm_nohelm")
	if out, err := exec.Command(gocmd, "build", "-tags", leanTag, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	manifests := filepath.Join(dir, "m.yaml")
	if err := os.WriteFile(manifests, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "Error: this krm is the lean renderer (krm_nohelm) without a Kubernetes client: use the full krm (@rules_krm//tools/renderer:krm)\n"
	for _, args := range [][]string{{"apply", "--context", "prod"}, {"delete"}, {"diff", "--cluster"}} {
		cmd := exec.Command(bin, append(args, manifests)...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || stdout.Len() > 0 || stderr.String() != want {
			t.Errorf("krm_nohelm %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, &stdout, &stderr)
		}
	}
	// krm trace reads live objects through the same seam.
	cmd := exec.Command(bin, "trace", "--context", "prod", "-m", manifests, "ConfigMap/a")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); !isExit(err, 2) || stdout.Len() > 0 || stderr.String() != want {
		t.Errorf("krm_nohelm trace --context: %v\nstdout:\n%s\nstderr:\n%s", err, &stdout, &stderr)
	}
}

func isExit(err error, code int) bool {
	ee, ok := err.(*exec.ExitError)
	return ok && ee.ExitCode() == code
}
