package gazelle

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoKustomizeDeps keeps kustomize's api module and kyaml's openapi package out of the
// gazelle binaries that rules_krm's consumers build: with Bazel, kyaml's openapi package
// builds only with a patch (bazel/patches/kyaml-openapi-embed.patch) that only a root module
// can apply, which would leave every consumer to apply it.
func TestNoKustomizeDeps(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the dependencies with (in a Bazel sandbox?): %v", err)
	}
	cmd := exec.Command(goTool, "list", "-deps", "github.com/rules-krm/rules_krm/gazelle")
	cmd.Env = append(cmd.Environ(), "GOTOOLCHAIN=local")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, stderr.String())
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"sigs.k8s.io/kustomize/kyaml/openapi", "sigs.k8s.io/kustomize/api"} {
			if pkg == banned || strings.HasPrefix(pkg, banned+"/") {
				t.Errorf("the gazelle package depends on %s", pkg)
			}
		}
	}
}
