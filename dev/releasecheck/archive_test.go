// Package releasecheck checks what is published of the tree: the source archive that
// dev/scripts/release.sh --source makes (the one the Bazel Central Registry downloads) holds what
// a consumer builds, every shipped target still resolves in it, and nothing of the dev tree
// rides along; docs/architecture.md names every package of the renderer; the versions
// written in several places (MODULE.bazel, WORKSPACE, deps.bzl, the docs) agree.
//
// It reads the git checkout and runs the release script, which a Bazel sandbox has neither
// of, so it is not a Bazel target (gazelle:exclude in the root BUILD.bazel): dev/scripts/test.sh
// runs it with go test.
package releasecheck

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bazelbuild/buildtools/build"
	"github.com/bmatcuk/doublestar/v4"
)

const version = "0.0.0-check"

// devOnly are the trees a consumer never builds: the archive must not carry them.
var devOnly = []string{"dev/", "tools/renderer/dev/", "dev/scripts/", "e2e/deliver/", "e2e/gazelle/", ".ci/"}

// needed are files a consumer's build, or the registry's presubmit, reads.
var needed = []string{
	"MODULE.bazel", "BUILD.bazel", "LICENSE", "go.mod", "go.sum",
	"rules/defs.bzl", "rules/private/versions.bzl",
	"tools/renderer/main.go", "tools/renderer/BUILD.bazel", "tools/prdiff/BUILD.bazel",
	"gazelle/BUILD.bazel", "starlark/lib.go",
	"e2e/bzlmod/MODULE.bazel", "examples/deploy/BUILD.bazel",
}

// maxArchive bounds the compressed archive: the product is about 1 MB; the test corpora and
// benchmarks it once carried were several.
const maxArchive = 3 << 20

func TestSourceArchive(t *testing.T) {
	root := checkout(t)
	out := t.TempDir()
	cmd := exec.Command("bash", filepath.Join(root, "dev", "scripts", "release.sh"), "--source", version, out)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("dev/scripts/release.sh --source: %v\n%s", err, b)
	}
	archive := filepath.Join(out, "rules_krm-"+version+".tar.gz")
	if st, err := os.Stat(archive); err != nil {
		t.Fatal(err)
	} else if st.Size() > maxArchive {
		t.Errorf("%s is %d bytes, more than %d: what grew?", filepath.Base(archive), st.Size(), maxArchive)
	}
	files := readArchive(t, archive, "rules_krm-"+version+"/")

	for name := range files {
		for _, d := range devOnly {
			if strings.HasPrefix(name, d) {
				t.Errorf("the archive holds %s (under %s, which a consumer never builds: export-ignore it in .gitattributes)", name, d)
			}
		}
	}
	for _, name := range needed {
		if _, ok := files[name]; !ok {
			t.Errorf("the archive lacks %s", name)
		}
	}
	for _, problem := range checkBuildFiles(files) {
		t.Error(problem)
	}
}

// TestCheckBuildFiles: the checks see a label into a missing package, a glob that matches
// nothing and a missing .bzl file, and pass a test's reference into the dev tree.
func TestCheckBuildFiles(t *testing.T) {
	files := map[string][]byte{
		"a/BUILD.bazel": []byte(`load("//b:defs.bzl", "x")
load("//missing:defs.bzl", "y")
go_library(name = "a", srcs = glob(["*.go"]), deps = ["//dev/testing/thing", "//b"])
go_test(name = "a_test", data = glob(["testdata/**"]), deps = ["//dev/testing/thing"])
filegroup(name = "ok", srcs = glob(["none/**"], allow_empty = True))
`),
		"a/a.go":          nil,
		"b/BUILD.bazel":   []byte(`exports_files(["defs.bzl"])`),
		"m/MODULE.bazel":  nil,
		"m/BUILD.bazel":   []byte(`krm_kustomization(name = "m", deps = ["//c"])`),
		"m/c/BUILD.bazel": nil,
		"b/defs.bzl":      nil,
	}
	got := checkBuildFiles(files)
	want := []string{
		`a/BUILD.bazel: loads //missing:defs.bzl, which the archive lacks`,
		`a/BUILD.bazel: glob(["testdata/**"]) matches no file in the archive (Bazel 8 fails on it)`,
		`a/BUILD.bazel: go_library "a" names //dev/testing/thing, a package the archive lacks`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("checkBuildFiles =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// checkBuildFiles reports, for the BUILD files among files, what would break a consumer:
// a load of a missing file; a glob that matches nothing (Bazel evaluates every glob of a
// package it loads, tests' too); a label of a non-test target into a missing package.
func checkBuildFiles(files map[string][]byte) []string {
	packages := map[string]bool{}
	modules := map[string]bool{}
	for name := range files {
		if isBuildFile(name) {
			packages[path.Dir(name)] = true
		}
		if path.Base(name) == "MODULE.bazel" {
			modules[path.Dir(name)] = true
		}
	}
	var problems []string
	names := sortedKeys(files)
	for _, name := range names {
		if !isBuildFile(name) {
			continue
		}
		pkg := path.Dir(name)
		f, err := build.ParseBuild(name, files[name])
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, stmt := range f.Stmt {
			if l, ok := stmt.(*build.LoadStmt); ok {
				if file, ok := labelFile(l.Module.Value, pkg, moduleRoot(pkg, modules)); ok {
					if _, ok := files[file]; !ok {
						problems = append(problems, name+": loads "+l.Module.Value+", which the archive lacks")
					}
				}
			}
		}
		build.Walk(f, func(x build.Expr, _ []build.Expr) {
			call, ok := x.(*build.CallExpr)
			if !ok || calleeName(call) != "glob" {
				return
			}
			if p := globProblem(call, pkg, files, packages); p != "" {
				problems = append(problems, name+": "+p)
			}
		})
		for _, r := range f.Rules("") {
			if strings.HasSuffix(r.Kind(), "_test") || r.AttrLiteral("testonly") == "True" {
				continue
			}
			for _, key := range r.AttrKeys() {
				build.Walk(r.Attr(key), func(x build.Expr, _ []build.Expr) {
					s, ok := x.(*build.StringExpr)
					if !ok || !strings.HasPrefix(s.Value, "//") || strings.HasPrefix(s.Value, "//visibility:") || strings.HasPrefix(s.Value, "//conditions:") {
						return
					}
					target, _, _ := strings.Cut(strings.TrimPrefix(s.Value, "//"), ":")
					target = path.Join(moduleRoot(pkg, modules), strings.TrimSuffix(target, "/..."))
					if !packages[target] {
						problems = append(problems, name+": "+r.Kind()+" \""+r.Name()+"\" names "+s.Value+", a package the archive lacks")
					}
				})
			}
		}
	}
	return problems
}

// globProblem says why a glob call would fail in the archive, or "".
func globProblem(call *build.CallExpr, pkg string, files map[string][]byte, packages map[string]bool) string {
	var include, exclude []string
	for i, arg := range call.List {
		switch a := arg.(type) {
		case *build.AssignExpr:
			key := a.LHS.(*build.Ident).Name
			if key == "allow_empty" {
				if id, ok := a.RHS.(*build.Ident); ok && id.Name == "True" {
					return ""
				}
			}
			if key == "exclude" {
				exclude = stringList(a.RHS)
			}
			if key == "include" {
				include = stringList(a.RHS)
			}
		default:
			if i == 0 {
				include = stringList(arg)
			}
		}
	}
	for name := range files {
		rel, ok := strings.CutPrefix(name, pkg+"/")
		if pkg == "." {
			rel, ok = name, true
		}
		if !ok || ownerPackage(name, packages) != pkg {
			continue
		}
		if matchAny(include, rel) && !matchAny(exclude, rel) {
			return ""
		}
	}
	return "glob([\"" + strings.Join(include, "\", \"") + "\"]) matches no file in the archive (Bazel 8 fails on it)"
}

// moduleRoot is the directory of the module a package belongs to: a test module such as
// e2e/bzlmod has its own MODULE.bazel, and its labels start there.
func moduleRoot(pkg string, modules map[string]bool) string {
	for dir := pkg; ; dir = path.Dir(dir) {
		if modules[dir] || dir == "." {
			return dir
		}
	}
}

// ownerPackage is the package a file belongs to: its nearest directory with a BUILD file.
func ownerPackage(name string, packages map[string]bool) string {
	for dir := path.Dir(name); ; dir = path.Dir(dir) {
		if packages[dir] || dir == "." {
			return dir
		}
	}
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := doublestar.Match(p, name); ok {
			return true
		}
	}
	return false
}

func stringList(x build.Expr) []string {
	var out []string
	if l, ok := x.(*build.ListExpr); ok {
		for _, e := range l.List {
			if s, ok := e.(*build.StringExpr); ok {
				out = append(out, s.Value)
			}
		}
	}
	return out
}

func calleeName(call *build.CallExpr) string {
	if id, ok := call.X.(*build.Ident); ok {
		return id.Name
	}
	return ""
}

// labelFile is the archive path of a .bzl label of this repository (//pkg:file or :file),
// false for another repository's.
func labelFile(label, pkg, module string) (string, bool) {
	switch {
	case strings.HasPrefix(label, "//"):
		p, name, _ := strings.Cut(strings.TrimPrefix(label, "//"), ":")
		return path.Join(module, p, name), true
	case strings.HasPrefix(label, ":"):
		return path.Join(pkg, label[1:]), true
	}
	return "", false
}

func isBuildFile(name string) bool {
	base := path.Base(name)
	return base == "BUILD.bazel" || base == "BUILD"
}

func readArchive(t *testing.T, file, prefix string) map[string][]byte {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	tr := tar.NewReader(z)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg && h.Typeflag != tar.TypeSymlink {
			continue
		}
		name, ok := strings.CutPrefix(h.Name, prefix)
		if !ok {
			t.Fatalf("%s: entry %s is not under %s", file, h.Name, prefix)
		}
		var b []byte
		if isBuildFile(name) || strings.HasSuffix(name, ".bzl") {
			if b, err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
		files[name] = b
	}
	return files
}

func checkout(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("git rev-parse --show-toplevel: %v (this test reads the git checkout: run it with go test from one)", err)
	}
	return strings.TrimSpace(string(out))
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
