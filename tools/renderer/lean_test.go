package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The three builds of krm, as one install step names them in one directory: the default
// (this package: `go install`'s name is the directory's), the full renderer and the lean one.
const (
	defaultFile = "renderer"
	helperFile  = "krm_helm"
	leanFile    = "krm_nohelm"
)

// Under Bazel the binaries are the test's data (BUILD.bazel names them in these variables);
// under go test, `go install` builds them.
var bazelBinaries = map[string]string{
	defaultFile: "RENDERER_TEST_DEFAULT",
	helperFile:  "RENDERER_TEST_FULL",
	leanFile:    "RENDERER_TEST_LEAN",
}

// packages are the main packages of the builds, in the module.
var packages = map[string]string{
	defaultFile: "github.com/rules-krm/rules_krm/tools/renderer",
	helperFile:  "github.com/rules-krm/rules_krm/tools/renderer/krm_helm",
	leanFile:    "github.com/rules-krm/rules_krm/tools/renderer/krm_nohelm",
}

// heavy are the module paths whose initialisation made krm start at twice kustomize's CPU,
// and those of the API server's checks of custom resources (docs/architecture.md).
var heavy = []string{"helm.sh/helm", "k8s.io/client-go", "k8s.io/apiextensions-apiserver", "k8s.io/apiserver", "github.com/google/cel-go"}

// installDir is where install put the binaries, removed by TestMain.
var installDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if installDir != "" {
		os.RemoveAll(installDir)
	}
	os.Exit(code)
}

var installOnce = sync.OnceValues(installAll)

// installed is the directory holding the three builds: one `go install` of the three
// packages into an empty GOBIN (what a user's one install step does), or under Bazel copies
// of the test's data (copies: krm finds krm_helm beside its executable, symlinks resolved).
func installed(t *testing.T) string {
	t.Helper()
	dir, err := installOnce()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func installAll() (string, error) {
	dir, err := os.MkdirTemp("", "krm-install-")
	if err != nil {
		return "", err
	}
	installDir = dir
	if os.Getenv(bazelBinaries[defaultFile]) != "" {
		for name, env := range bazelBinaries {
			// rootpath: relative to the main repository, two levels above this package.
			if err := copyFile(filepath.Join("..", "..", os.Getenv(env)), filepath.Join(dir, name)); err != nil {
				return "", err
			}
		}
		return dir, nil
	}
	cmd := exec.Command("go", "install", ".", "./krm_helm", "./krm_nohelm")
	cmd.Env = append(os.Environ(), "GOBIN="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go install . ./krm_helm ./krm_nohelm: %v\n%s", err, out)
	}
	return dir, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// The default build (what `go install` and `go build` of this package make) and the lean
// renderer start fast because they link neither Helm nor client-go; krm_helm links both. The
// executables are read (every Go binary names its functions' packages, stripped or not), and
// where the go command is at hand, so are the packages' dependencies, which name the package.
func TestBuildsLinkHelmOnlyInKrmHelm(t *testing.T) {
	dir := installed(t)
	for name, wantHeavy := range map[string]bool{defaultFile: false, leanFile: false, helperFile: true} {
		exe, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, mod := range heavy {
			if got := bytes.Contains(exe, []byte(mod+"/")); got != wantHeavy {
				t.Errorf("%s links %s: %v, want %v", name, mod, got, wantHeavy)
			}
		}
	}
	if os.Getenv(bazelBinaries[defaultFile]) != "" {
		return // no go command nor module in the sandbox: the executables tell
	}
	for name, pkg := range packages {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		linked := map[string]bool{}
		for _, dep := range strings.Fields(string(out)) {
			for _, mod := range heavy {
				if dep == mod || strings.HasPrefix(dep, mod+"/") {
					linked[mod] = true
					if name != helperFile {
						t.Errorf("%s links %s", pkg, dep)
					}
				}
			}
		}
		if name == helperFile && len(linked) != len(heavy) {
			t.Errorf("%s links only %v of %v", pkg, linked, heavy)
		}
	}
}

// The lean renderer's cluster commands say which krm to use.
func TestLeanRendererClusterCommands(t *testing.T) {
	bin := filepath.Join(installed(t), leanFile)
	manifests := filepath.Join(t.TempDir(), "m.yaml")
	if err := os.WriteFile(manifests, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "Error: this krm is the lean renderer (krm_nohelm) without a Kubernetes client: use the full krm (@rules_krm//tools/renderer:krm)\n"
	for _, args := range [][]string{{"apply", "--context", "prod", manifests}, {"delete", manifests}, {"diff", "--cluster", manifests},
		// krm trace and krm status read live objects through the same seam.
		{"trace", "--context", "prod", "-m", manifests, "ConfigMap/a"}, {"status", "--context", "prod", manifests}} {
		stdout, stderr, code := runKRM(t, nil, bin, args...)
		if code != 2 || stdout != "" || stderr != want {
			t.Errorf("krm_nohelm %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
}

// runKRM runs bin with args, in the test's environment with env added.
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
