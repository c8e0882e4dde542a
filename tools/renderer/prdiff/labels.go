package main

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Changes is what a set of changed files means for the build graph of one
// side (the base revision or the head), as the inputs of one bazel query.
type Changes struct {
	// All: a change that may affect every target (MODULE.bazel, .bazelrc,
	// a .bzl file the module files name, ...); the other fields are then empty.
	All bool
	// Bzl are the changed .bzl files (slash-separated paths), sorted: the
	// packages whose BUILD files load one, directly or through other .bzl
	// files (bazel query's rbuildfiles), are affected as if their BUILD
	// file had changed.
	Bzl []string
	// Files are the labels of changed files in a package, sorted. Some
	// may name no target (a file no rule uses); Files filters them out.
	Files []string
	// Packages are the packages whose BUILD file changed, as "//pkg:*"
	// patterns, sorted: every target in them is affected.
	Packages []string
	// Ignored are changed files in no package, sorted.
	Ignored []string
}

// Empty reports whether nothing of the build graph changed.
func (c *Changes) Empty() bool {
	return !c.All && len(c.Files) == 0 && len(c.Packages) == 0 && len(c.Bzl) == 0
}

// workspaceFiles are files at the workspace root that configure the whole
// build: a change to one may affect any target.
var workspaceFiles = map[string]bool{
	"MODULE.bazel": true, "MODULE.bazel.lock": true, "WORKSPACE": true, "WORKSPACE.bazel": true,
	"WORKSPACE.bzlmod": true, ".bazelrc": true, ".bazelversion": true, ".bazelignore": true,
}

// Classify maps changed files (slash-separated, relative to the workspace
// root) to the build graph of the tree at root: a file that exists there
// becomes the label of its package (the nearest directory with a BUILD or
// BUILD.bazel file), a BUILD file its whole package, a .bzl file the
// packages that load it (Changes.Bzl), and a workspace file (MODULE.bazel,
// *.MODULE.bazel, WORKSPACE, .bazelrc, ...) or a .bzl file whose name the
// module files mention (a module extension or repository rule: it may
// change any external repository) everything. Files that do not exist in
// root are left out: they are the other side's (a deleted file counts at
// the base, a new one at the head).
func Classify(root string, files []string) Changes {
	isFile := func(rel string) bool {
		st, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		return err == nil && st.Mode().IsRegular()
	}
	var top []string
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		top = append(top, e.Name())
	}
	var module strings.Builder
	for _, name := range moduleFiles(top) {
		if data, err := os.ReadFile(filepath.Join(root, name)); err == nil {
			module.Write(data)
		}
	}
	return classify(files, isFile, module.String())
}

// moduleFiles picks, from the names at the workspace root, the module files
// a .bzl file could be named in (MODULE.bazel, *.MODULE.bazel, WORKSPACE
// files), sorted.
func moduleFiles(top []string) []string {
	var found []string
	for _, n := range top {
		if (workspaceFiles[n] && (strings.HasPrefix(n, "MODULE.") || strings.HasPrefix(n, "WORKSPACE"))) || strings.HasSuffix(n, ".MODULE.bazel") {
			found = append(found, n)
		}
	}
	sort.Strings(found)
	return found
}

// classify is Classify with the file system as isFile (a regular file at a
// slash-separated path relative to the workspace root) and the text of the
// module files (MODULE.bazel, what it includes, WORKSPACE) as module.
func classify(files []string, isFile func(string) bool, module string) Changes {
	var c Changes
	labels, pkgs, bzl := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, f := range files {
		f = path.Clean(f)
		if !isFile(f) {
			continue
		}
		dir, base := path.Dir(f), path.Base(f)
		switch {
		case dir == "." && workspaceFiles[base], strings.HasSuffix(base, ".MODULE.bazel"),
			strings.HasSuffix(base, ".bzl") && strings.Contains(module, base):
			return Changes{All: true}
		case strings.HasSuffix(base, ".bzl"):
			bzl[f] = true
			continue
		case base == "BUILD" || base == "BUILD.bazel":
			pkgs["//"+pkgName(dir)+":*"] = true
			continue
		}
		pkg, ok := packageOf(dir, isFile)
		if !ok {
			c.Ignored = append(c.Ignored, f)
			continue
		}
		name := f
		if pkg != "" {
			name = strings.TrimPrefix(f, pkg+"/")
		}
		labels["//"+pkg+":"+name] = true
	}
	c.Files, c.Packages, c.Bzl = sortedKeys(labels), sortedKeys(pkgs), sortedKeys(bzl)
	sort.Strings(c.Ignored)
	return c
}

// packageOf returns the package of a directory: the nearest directory at or
// above it with a BUILD or BUILD.bazel file ("" for the root package).
func packageOf(dir string, isFile func(string) bool) (string, bool) {
	for {
		if isFile(path.Join(dir, "BUILD.bazel")) || isFile(path.Join(dir, "BUILD")) {
			return pkgName(dir), true
		}
		if dir == "." {
			return "", false
		}
		dir = path.Dir(dir)
	}
}

func pkgName(dir string) string {
	if dir == "." {
		return ""
	}
	return dir
}

// sortedKeys returns the keys of m, sorted (nil for none).
func sortedKeys(m map[string]bool) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Expr is the bazel query expression for the kustomizations affected by
// the changes: the krm_kustomization_rule targets among the reverse
// dependencies in //... of the changed files that are targets and of every
// target in the changed packages; "" when nothing is affected. A changed
// file that no rule uses names no target, and naming it in a query fails:
// the files are picked by a filter of their packages' source files.
func (c *Changes) Expr() string {
	if c.All {
		return "kind(krm_kustomization_rule, //...)"
	}
	terms := append([]string(nil), c.Packages...)
	if len(c.Files) > 0 {
		pkgs := map[string]bool{}
		quoted := make([]string, len(c.Files))
		for i, l := range c.Files {
			pkgs[l[:strings.Index(l, ":")]+":*"] = true
			quoted[i] = regexp.QuoteMeta(l)
		}
		terms = append(terms, `filter("^(`+strings.Join(quoted, "|")+`)$", kind("source file", `+strings.Join(sortedKeys(pkgs), " + ")+"))")
	}
	if len(terms) == 0 {
		return ""
	}
	return "kind(krm_kustomization_rule, rdeps(//..., " + strings.Join(terms, " + ") + "))"
}

// BzlExpr is the query for the BUILD files that load the changed .bzl
// files, directly or not ("" when none changed); it needs the query flags
// of BzlQueryFlags.
func (c *Changes) BzlExpr() string {
	if len(c.Bzl) == 0 {
		return ""
	}
	return "rbuildfiles(" + strings.Join(quoteAll(c.Bzl), ", ") + ")"
}

// BzlQueryFlags are what rbuildfiles needs: it runs on the graph of a
// universe (the workspace's packages), unordered.
var BzlQueryFlags = []string{"--universe_scope=//...", "--order_output=no"}

// buildFilePackages turns BUILD file labels (//pkg:BUILD.bazel) into the
// patterns of their packages (//pkg:*), sorted.
func buildFilePackages(labels []string) []string {
	pkgs := map[string]bool{}
	for _, l := range labels {
		if i := strings.LastIndex(l, ":"); i >= 0 {
			pkgs[l[:i]+":*"] = true
		}
	}
	return sortedKeys(pkgs)
}

// quoteAll quotes labels for the query language (file names may hold
// characters its bare words do not allow).
func quoteAll(labels []string) []string {
	q := make([]string, len(labels))
	for i, l := range labels {
		q[i] = `"` + l + `"`
	}
	return q
}
