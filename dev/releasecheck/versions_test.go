package releasecheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bazelbuild/buildtools/build"
)

// TestVersionsAgree checks that the versions written in more than one place are the same
// everywhere: MODULE.bazel's bazel_dep lines are the source; WORKSPACE's http_archives, the
// install lines and WORKSPACE samples of the docs, and the offline Bazel's copies of rules_go
// and gazelle follow it; deps.bzl (WORKSPACE mode's Go repositories) follows go.mod.
func TestVersionsAgree(t *testing.T) {
	root := checkout(t)
	deps := map[string]string{} // bazel_dep name -> version
	repoNames := map[string]string{}
	for _, call := range calls(t, filepath.Join(root, "MODULE.bazel"), "bazel_dep") {
		name, version := call.AttrString("name"), call.AttrString("version")
		deps[name] = version
		repoNames[name] = name
		if r := call.AttrString("repo_name"); r != "" {
			repoNames[name] = r
		}
	}
	if len(deps) < 3 {
		t.Fatalf("MODULE.bazel: %d bazel_dep lines read", len(deps))
	}

	// WORKSPACE: the http_archive of each module names its version in every URL.
	archives := map[string]*build.Rule{}
	for _, call := range calls(t, filepath.Join(root, "WORKSPACE"), "http_archive") {
		archives[call.AttrString("name")] = call
	}
	for name, version := range deps {
		a := archives[repoNames[name]]
		if a == nil {
			t.Errorf("WORKSPACE has no http_archive %q for MODULE.bazel's bazel_dep %s", repoNames[name], name)
			continue
		}
		urls := a.AttrStrings("urls")
		if len(urls) == 0 {
			t.Errorf("WORKSPACE: http_archive %q has no urls", repoNames[name])
		}
		for _, u := range urls {
			if !strings.Contains(u, version) {
				t.Errorf("WORKSPACE: http_archive %q fetches %s, not version %s (MODULE.bazel)", repoNames[name], u, version)
			}
		}
	}

	// Docs: a bazel_dep line or a release URL of one of these modules says its version.
	depLine := regexp.MustCompile(`bazel_dep\(name = "([^"]+)", version = "([^"]+)"`)
	releaseURL := regexp.MustCompile(`github\.com/[^/\s]+/(bazel-skylib|platforms|rules_shell|rules_go|bazel-gazelle)/releases/download/v?([^/\s]+)/`)
	urlModule := map[string]string{"bazel-skylib": "bazel_skylib", "bazel-gazelle": "gazelle"}
	for _, doc := range []string{"README.md", "docs/rules.md", "docs/bazel.md", "docs/gazelle.md"} {
		data := readFile(t, filepath.Join(root, doc))
		for _, m := range depLine.FindAllStringSubmatch(data, -1) {
			if want, ok := deps[m[1]]; ok && m[2] != want {
				t.Errorf("%s: bazel_dep %s at version %s; MODULE.bazel has %s", doc, m[1], m[2], want)
			}
		}
		for _, m := range releaseURL.FindAllStringSubmatch(data, -1) {
			module := m[1]
			if n, ok := urlModule[module]; ok {
				module = n
			}
			if want := deps[module]; m[2] != want {
				t.Errorf("%s: a release URL of %s at version %s; MODULE.bazel has %s", doc, module, m[2], want)
			}
		}
	}

	// The offline Bazel of these machines copies rules_go and gazelle from the module proxy.
	env := readFile(t, filepath.Join(root, "dev/offline/bazel7/env.sh"))
	for variable, module := range map[string]string{"B7_RULES_GO": "rules_go", "B7_GAZELLE": "gazelle"} {
		m := regexp.MustCompile(variable + `=\$\{` + variable + `:-v([^}]+)\}`).FindStringSubmatch(env)
		if m == nil {
			t.Errorf("dev/offline/bazel7/env.sh sets no %s", variable)
		} else if m[1] != deps[module] {
			t.Errorf("dev/offline/bazel7/env.sh: %s is v%s; MODULE.bazel has %s %s", variable, m[1], module, deps[module])
		}
	}

	// deps.bzl: every requirement of go.mod at its version.
	required := map[string]string{}
	inRequire := false
	for _, line := range strings.Split(readFile(t, filepath.Join(root, "go.mod")), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) > 0 && f[0] == "require" && strings.HasSuffix(line, "("):
			inRequire = true
		case inRequire && len(f) > 0 && f[0] == ")":
			inRequire = false
		case inRequire && len(f) >= 2:
			required[f[0]] = f[1]
		case len(f) >= 3 && f[0] == "require":
			required[f[1]] = f[2]
		}
	}
	repos := map[string]string{}
	for _, call := range calls(t, filepath.Join(root, "deps.bzl"), "go_repository") {
		repos[call.AttrString("importpath")] = call.AttrString("version")
	}
	if len(required) < 10 {
		t.Fatalf("go.mod: %d requirements read", len(required))
	}
	for path, version := range required {
		if got, ok := repos[path]; !ok {
			t.Errorf("deps.bzl has no go_repository for %s %s (go.mod): run dev/scripts/gazelle.sh", path, version)
		} else if got != version {
			t.Errorf("deps.bzl: %s at %s; go.mod requires %s: run dev/scripts/gazelle.sh", path, got, version)
		}
	}
}

// calls are the calls of function kind in the Starlark file at path, anywhere (also inside
// a macro's body).
func calls(t *testing.T, path, kind string) []*build.Rule {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := build.ParseDefault(path, data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []*build.Rule
	build.Walk(f, func(e build.Expr, _ []build.Expr) {
		if c, ok := e.(*build.CallExpr); ok {
			if calleeName(c) == kind {
				out = append(out, &build.Rule{Call: c})
			}
		}
	})
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
