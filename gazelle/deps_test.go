package gazelle

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var depsQuery = flag.String("deps_query", "", "the labels of the rules //gazelle:gazelle_bin depends on, one a line (:gazelle_bin_deps, a genquery; default: go list -deps of this package)")

// bannedDep is a Go package (and those below it) that the gazelle binaries must not
// depend on, by import path (go list) and by Bazel repository and package (genquery).
type bannedDep struct {
	importPath, repo, pkg string
}

var bannedDeps = []bannedDep{
	{"sigs.k8s.io/kustomize/kyaml/openapi", "io_k8s_sigs_kustomize_kyaml", "openapi"},
	{"sigs.k8s.io/kustomize/api", "io_k8s_sigs_kustomize_api", ""},
}

// TestNoKustomizeDeps keeps kustomize's api module and kyaml's openapi package out of the
// gazelle binaries that rules_krm's consumers build: with Bazel, kyaml's openapi package
// builds only with a patch (bazel/patches/kyaml-openapi-embed.patch) that only a root module
// can apply, which would leave every consumer to apply it. Under Bazel the dependencies are
// :gazelle_bin_deps (a genquery, -deps_query), under go test those go list prints.
func TestNoKustomizeDeps(t *testing.T) {
	if *depsQuery != "" {
		// $(rootpath) is relative to the runfiles root, one level above this package.
		b, err := os.ReadFile(filepath.Join("..", *depsQuery))
		if err != nil {
			t.Fatal(err)
		}
		labels := strings.Fields(string(b))
		checkDeps(t, labels, "//gazelle:gazelle", "in_yaml_go_yaml_v3//:yaml", func(label string, d bannedDep) bool {
			repo, pkg := splitLabel(label)
			return (repo == d.repo || strings.HasSuffix(repo, "~"+d.repo) || strings.HasSuffix(repo, "+"+d.repo)) &&
				(d.pkg == "" || pkg == d.pkg || strings.HasPrefix(pkg, d.pkg+"/"))
		})
		return
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to list the dependencies with: %v", err)
	}
	cmd := exec.Command(goTool, "list", "-deps", "github.com/rules-krm/rules_krm/gazelle")
	cmd.Env = append(cmd.Environ(), "GOTOOLCHAIN=local")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, stderr.String())
	}
	checkDeps(t, strings.Fields(string(out)), "github.com/rules-krm/rules_krm/gazelle", "go.yaml.in/yaml/v3", func(pkg string, d bannedDep) bool {
		return pkg == d.importPath || strings.HasPrefix(pkg, d.importPath+"/")
	})
}

// checkDeps reports each of deps that is banned; deps must hold self and known (the
// package itself and one of its dependencies), so that an empty or cut list fails.
func checkDeps(t *testing.T, deps []string, self, known string, banned func(dep string, d bannedDep) bool) {
	t.Helper()
	seen := map[string]bool{}
	for _, dep := range deps {
		for _, s := range []string{self, known} {
			if strings.HasSuffix(dep, s) {
				seen[s] = true
			}
		}
		for _, d := range bannedDeps {
			if banned(dep, d) {
				t.Errorf("the gazelle package depends on %s (%s)", dep, d.importPath)
			}
		}
	}
	for _, s := range []string{self, known} {
		if !seen[s] {
			t.Errorf("the dependencies listed (%d) do not hold %s: not those of the gazelle package?", len(deps), s)
		}
	}
}

// splitLabel is the repository (without @) and the package of a label as bazel query
// prints it (@@repo//pkg:name, @repo//pkg:name, //pkg:name).
func splitLabel(label string) (repo, pkg string) {
	repo, rest, ok := strings.Cut(strings.TrimLeft(label, "@"), "//")
	if !ok {
		return "", ""
	}
	pkg, _, _ = strings.Cut(rest, ":")
	return repo, pkg
}
