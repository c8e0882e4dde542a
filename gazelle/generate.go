package gazelle

import (
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/rule"
	bzl "github.com/bazelbuild/buildtools/build"
)

// GenerateRules implements language.Language: one krm_kustomization per kustomization
// directory the package declares, its imports being the kustomization directories it names.
func (l *krmLang) GenerateRules(args language.GenerateArgs) language.GenerateResult {
	kc := getKrmConfig(args.Config)
	var res language.GenerateResult
	if !kc.enabled {
		return res
	}
	t := l.repoTree(args.Config)
	root := args.Config.RepoRoot
	names := map[string]bool{} // the krm_kustomization targets generated
	dirs := t.kustomizationsOf(args.Rel)
	sort.Strings(dirs)
	for _, dir := range dirs {
		name := kc.targetName(args.Rel)
		if c, ok := t.claims[dir]; ok {
			name = c.name
		}
		rd := t.reads[dir]
		for _, w := range rd.warnings {
			log.Print(w)
		}
		if rd.err != nil {
			log.Printf("%v", rd.err)
			continue
		}
		names[name] = true
		r := rule.NewRule(kustomizationKind, name)
		r.SetAttr("srcs", t.srcs(args.Rel, rd.files))
		if rel := relTo(args.Rel, dir); rel != "." {
			r.SetAttr("dir", rel)
		}
		if rd.kind == componentKind {
			r.SetAttr("kind", componentKind)
		} else if rd.helmCharts {
			r.SetAttr("kind", "Kustomization")
		}
		if kc.loadRestrictor != loadRestrictionsRoot {
			r.SetAttr("load_restrictor", kc.loadRestrictor)
		}
		if rd.buildMetadata && rd.kind != componentKind {
			r.SetAttr("build_metadata", true)
		}
		if rd.openapi {
			r.SetAttr("openapi", true)
		}
		if rd.helmInheritsNamespace {
			r.SetAttr("helm_inherits_namespace", true)
		}
		if args.File == nil || !args.File.HasDefaultVisibility() {
			r.SetAttr("visibility", kc.visibility)
		}
		res.Gen = append(res.Gen, r)
		res.Imports = append(res.Imports, rd.dirs)
		if rd.kind == componentKind && rd.standalone && kc.componentManifests {
			// kustomize builds this component alone: so does a second target.
			alone := rule.NewRule(kustomizationKind, name+standaloneSuffix)
			for _, key := range []string{"srcs", "dir", "load_restrictor", "openapi", "visibility"} {
				if v := r.Attr(key); v != nil {
					alone.SetAttr(key, v)
				}
			}
			alone.SetAttr("kind", "Kustomization")
			if rd.buildMetadata {
				alone.SetAttr("build_metadata", true)
			}
			names[name+standaloneSuffix] = true
			res.Gen = append(res.Gen, alone)
			res.Imports = append(res.Imports, rd.dirs)
		}
		if kc.golden && rd.kind != componentKind {
			if g := goldenTest(root, args.Rel, name); g != nil {
				res.Gen = append(res.Gen, g)
				res.Imports = append(res.Imports, nil)
			}
		}
		if kc.validate && rd.kind != componentKind {
			v := rule.NewRule(validateTestKind, name+validateTestSuffix)
			v.SetAttr("kustomization", ":"+name)
			if len(kc.policies) > 0 {
				v.SetAttr("policies", kc.policies)
			}
			res.Gen = append(res.Gen, v)
			res.Imports = append(res.Imports, nil)
		}
	}
	if r := exportsRule(args, t.exports[args.Rel]); r != nil {
		res.Gen = append(res.Gen, r)
		res.Imports = append(res.Imports, nil)
	}
	res.Empty = l.empty(args, kc, names, len(t.exports[args.Rel]) > 0)
	return res
}

// exportsRule is `exports_files(srcs = [...])` for the files of this package that
// kustomizations of other packages read (Bazel keeps source files used by a rule private to
// their package otherwise). Gazelle matches rules by name, and exports_files, package() and
// licenses() have none: when the BUILD file has one of those that is not ours, the user
// exports the files by hand.
func exportsRule(args language.GenerateArgs, files []string) *rule.Rule {
	if len(files) == 0 {
		return nil
	}
	if args.File != nil {
		if exportedByHand(args.File, files) {
			return nil
		}
		for _, r := range args.File.Rules {
			if r.Name() == "" && !(r.Kind() == exportsKind && r.Attr("srcs") != nil) {
				log.Printf("%s: kustomizations of other packages read %s: add them to exports_files (gazelle cannot: this BUILD file has %s())",
					pathOr(args.Rel), strings.Join(files, ", "), r.Kind())
				return nil
			}
		}
	}
	r := rule.NewRule(exportsKind, "")
	r.SetAttr("srcs", files)
	return r
}

// srcs writes the repo-relative files for package pkg: relative paths for its own files,
// labels for the files of other packages (sorted as gazelle sorts: relative paths first).
func (t *tree) srcs(pkg string, files []string) []string {
	var own, other []string
	for _, f := range files {
		owner := t.packageOf(f)
		if owner == pkg {
			own = append(own, relTo(pkg, f))
		} else {
			other = append(other, "//"+owner+":"+relTo(owner, f))
		}
	}
	sort.Strings(own)
	sort.Strings(other)
	return append(own, other...)
}

// goldenTest is the krm_golden_test of the Kustomization name when its golden file exists.
func goldenTest(root, pkg, name string) *rule.Rule {
	golden := name + goldenSuffix
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(pkg), golden)); err != nil {
		log.Printf("%s: no golden file %s: create it with `bazel build //%s:%s_manifests` and a copy of bazel-bin/%s/%s_manifests.yaml, then rerun gazelle",
			pathOr(pkg), golden, pkg, name, pkg, name)
		return nil
	}
	r := rule.NewRule(goldenTestKind, name+goldenTestSuffix)
	r.SetAttr("golden", golden)
	r.SetAttr("kustomization", ":"+name)
	return r
}

// empty lists the krm rules of the existing BUILD file whose kustomization is gone, so that
// gazelle deletes them (unless hand-written attributes keep them alive), and the
// krm_validate_tests that krm_validate off no longer asks for.
func (l *krmLang) empty(args language.GenerateArgs, kc *krmConfig, generated map[string]bool, exports bool) []*rule.Rule {
	if args.File == nil {
		return nil
	}
	var out []*rule.Rule
	for _, r := range args.File.Rules {
		switch r.Kind() {
		case kustomizationKind:
			dir := joinRel(args.Rel, r.AttrString("dir"))
			gone := kustomizationFile(args.Config.RepoRoot, dir) == "" || strings.HasSuffix(r.Name(), standaloneSuffix)
			if !generated[r.Name()] && gone {
				out = append(out, rule.NewRule(kustomizationKind, r.Name()))
			}
		case exportsKind:
			if !exports && r.Attr("srcs") != nil {
				out = append(out, rule.NewRule(exportsKind, ""))
			}
		case goldenTestKind:
			// Only tests of this package's kustomization and golden file are gazelle's: a
			// hand-written one naming labels elsewhere (another module's golden) stays.
			target := strings.TrimPrefix(r.AttrString("kustomization"), ":")
			golden := r.AttrString("golden")
			if strings.ContainsAny(target, "/@") || strings.ContainsAny(golden, ":@") {
				continue
			}
			golden = filepath.Join(args.Config.RepoRoot, filepath.FromSlash(args.Rel), golden)
			if _, err := os.Stat(golden); err != nil || !generated[target] {
				out = append(out, rule.NewRule(goldenTestKind, r.Name()))
			}
		case validateTestKind:
			// A test of a kustomization elsewhere is the user's; so is one of this
			// package, under another name than gazelle's, while its target exists.
			target := strings.TrimPrefix(r.AttrString("kustomization"), ":")
			if strings.ContainsAny(target, "/@") {
				continue
			}
			if !generated[target] || !kc.validate && r.Name() == target+validateTestSuffix {
				out = append(out, rule.NewRule(validateTestKind, r.Name()))
			}
		}
	}
	return out
}

// relTo is the slash path p relative to the package directory pkg ("." for pkg itself).
func relTo(pkg, p string) string {
	if pkg == "" {
		if p == "" {
			return "."
		}
		return p
	}
	if p == pkg {
		return "."
	}
	return strings.TrimPrefix(p, pkg+"/")
}

func pathOr(pkg string) string {
	if pkg == "" {
		return "."
	}
	return pkg
}

// exportedByHand reports whether exports_files([...]) calls of f (positional, as users
// write them) export all of files.
func exportedByHand(f *rule.File, files []string) bool {
	exported := map[string]bool{}
	for _, r := range f.Rules {
		if r.Kind() != exportsKind || len(r.Args()) == 0 {
			continue
		}
		if list, ok := r.Args()[0].(*bzl.ListExpr); ok {
			for _, e := range list.List {
				if str, ok := e.(*bzl.StringExpr); ok {
					exported[str.Value] = true
				}
			}
		}
	}
	for _, f := range files {
		if !exported[f] {
			return false
		}
	}
	return true
}
