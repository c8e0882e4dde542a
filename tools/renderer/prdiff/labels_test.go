package main

import (
	"reflect"
	"testing"
)

func fakeTree(files ...string) func(string) bool {
	m := map[string]bool{}
	for _, f := range files {
		m[f] = true
	}
	return func(p string) bool { return m[p] }
}

func TestClassify(t *testing.T) {
	module := `ext = use_extension("//rules:ext.bzl", "ext")` + "\n"
	tree := fakeTree(
		"BUILD.bazel", "MODULE.bazel", "top.yaml",
		"app/base/BUILD.bazel", "app/base/kustomization.yaml", "app/base/cfg/greeting.txt",
		"app/prod/BUILD", "app/prod/kustomization.yaml",
		"app/dev/kustomization.yaml", // no BUILD: the root package's
		"rules/defs.bzl", "rules/ext.bzl", "deps.MODULE.bazel", ".bazelrc",
	)
	noRoot := fakeTree("app/base/BUILD.bazel", "app/base/kustomization.yaml", "README.md", "docs/x.md")
	for _, tc := range []struct {
		name  string
		tree  func(string) bool
		files []string
		want  Changes
	}{
		{"files", tree, []string{"app/base/kustomization.yaml", "app/base/cfg/greeting.txt", "app/prod/kustomization.yaml", "app/dev/kustomization.yaml", "top.yaml"},
			Changes{Files: []string{"//:app/dev/kustomization.yaml", "//:top.yaml", "//app/base:cfg/greeting.txt", "//app/base:kustomization.yaml", "//app/prod:kustomization.yaml"}}},
		{"build files", tree, []string{"app/prod/BUILD", "BUILD.bazel", "app/base/kustomization.yaml"},
			Changes{Files: []string{"//app/base:kustomization.yaml"}, Packages: []string{"//:*", "//app/prod:*"}}},
		{"not on this side", tree, []string{"app/gone/kustomization.yaml", "app/gone/BUILD.bazel"}, Changes{}},
		{"no package", noRoot, []string{"README.md", "docs/x.md", "app/base/kustomization.yaml"},
			Changes{Files: []string{"//app/base:kustomization.yaml"}, Ignored: []string{"README.md", "docs/x.md"}}},
		{"bzl", tree, []string{"app/base/kustomization.yaml", "rules/defs.bzl"},
			Changes{Files: []string{"//app/base:kustomization.yaml"}, Bzl: []string{"rules/defs.bzl"}}},
		{"bzl of the module", tree, []string{"rules/ext.bzl", "app/base/kustomization.yaml"}, Changes{All: true}},
		{"module", tree, []string{"MODULE.bazel"}, Changes{All: true}},
		{"module include", tree, []string{"deps.MODULE.bazel"}, Changes{All: true}},
		{"bazelrc", tree, []string{".bazelrc"}, Changes{All: true}},
		{"nothing", tree, nil, Changes{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := classify(tc.files, tc.tree, module)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("classify(%q)\n got %+v\nwant %+v", tc.files, got, tc.want)
			}
		})
	}
}

func TestExpr(t *testing.T) {
	c := Changes{Files: []string{"//a:x.yaml", "//a:y+1.yaml", "//b/c:z.txt"}, Packages: []string{"//d:*"}}
	if got, want := c.Expr(), `kind(krm_kustomization_rule, rdeps(//..., //d:* + filter("^(//a:x\.yaml|//a:y\+1\.yaml|//b/c:z\.txt)$", kind("source file", //a:* + //b/c:*))))`; got != want {
		t.Errorf("Expr() = %s\nwant %s", got, want)
	}
	if got := (&Changes{}).Expr(); got != "" {
		t.Errorf("Expr() of no changes = %q, want \"\"", got)
	}
	if got, want := (&Changes{All: true}).Expr(), "kind(krm_kustomization_rule, //...)"; got != want {
		t.Errorf("Expr() = %s, want %s", got, want)
	}
	bzl := Changes{Bzl: []string{"rules/a.bzl", "rules/b.bzl"}}
	if got, want := bzl.BzlExpr(), `rbuildfiles("rules/a.bzl", "rules/b.bzl")`; got != want {
		t.Errorf("BzlExpr() = %s, want %s", got, want)
	}
	if bzl.Empty() || (&Changes{}).BzlExpr() != "" {
		t.Errorf("changed .bzl files: Empty() = %v, BzlExpr() of none = %q", bzl.Empty(), (&Changes{}).BzlExpr())
	}
	if got, want := buildFilePackages([]string{"//a/b:BUILD.bazel", "//:BUILD", "//a/b:BUILD.bazel"}), []string{"//:*", "//a/b:*"}; !reflect.DeepEqual(got, want) {
		t.Errorf("buildFilePackages = %q, want %q", got, want)
	}
}

func TestBinRelative(t *testing.T) {
	for in, want := range map[string]string{
		"bazel-out/k8-fastbuild/bin/app/prod/prod_manifests.yaml":         "app/prod/prod_manifests.yaml",
		"bazel-out/k8-fastbuild/bin/app/prod/prod_manifests.stamped.yaml": "app/prod/prod_manifests.yaml",
		"bazel-out/darwin_arm64-opt/bin/top_manifests.yaml":               "top_manifests.yaml",
		"app/prod/kustomization.yaml":                                     "",
		"bazel-out/k8-fastbuild/genfiles/x.yaml":                          "",
	} {
		got, ok := binRelative(in)
		if got != want || ok != (want != "") {
			t.Errorf("binRelative(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
