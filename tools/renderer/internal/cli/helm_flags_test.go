package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuildHelmFlags(t *testing.T) {
	example := exampleCopy(t, "helm")
	golden, err := os.ReadFile(filepath.Join(example, "helm_manifests.golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI("build", example)
	if code != 1 || !strings.Contains(errOut, "must specify --enable-helm") {
		t.Errorf("without --enable-helm: exit %d, stderr:\n%s", code, errOut)
	}
	code, out, errOut := runCLI("build", example, "--enable-helm", "--helm-command", "/opt/helm3/helm")
	if code != 0 || out != string(golden) {
		t.Errorf("with --enable-helm: exit %d, stdout differs from the golden: %v, stderr:\n%s", code, out != string(golden), errOut)
	}
	if !strings.Contains(errOut, "--helm-command /opt/helm3/helm is ignored") {
		t.Errorf("no note about the ignored --helm-command; stderr:\n%s", errOut)
	}
}
