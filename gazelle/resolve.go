package gazelle

import (
	"log"
	"sort"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/label"
	"github.com/bazelbuild/bazel-gazelle/repo"
	"github.com/bazelbuild/bazel-gazelle/resolve"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// Imports implements resolve.Resolver: a krm_kustomization, generated or written by hand,
// is imported by its kustomization directory (repo-relative).
func (*krmLang) Imports(c *config.Config, r *rule.Rule, f *rule.File) []resolve.ImportSpec {
	if r.Kind() != kustomizationKind || strings.HasSuffix(r.Name(), standaloneSuffix) {
		// A component's standalone render is not what others name.
		return nil
	}
	return []resolve.ImportSpec{{Lang: languageName, Imp: joinRel(f.Pkg, r.AttrString("dir"))}}
}

// Embeds implements resolve.Resolver: kustomizations embed nothing.
func (*krmLang) Embeds(r *rule.Rule, from label.Label) []label.Label { return nil }

// Resolve implements resolve.Resolver: deps are the targets of the kustomization
// directories the rule names, found by `# gazelle:resolve krm krm DIR LABEL` (for
// kustomizations of other repositories), then in the rule index.
func (l *krmLang) Resolve(c *config.Config, ix *resolve.RuleIndex, rc *repo.RemoteCache, r *rule.Rule, imports interface{}, from label.Label) {
	dirs, _ := imports.([]string)
	if r.Kind() != kustomizationKind {
		return
	}
	seen := map[string]bool{}
	var deps []string
	for _, dir := range dirs {
		dep, ok := l.resolveDir(c, ix, dir, from)
		if !ok {
			continue
		}
		s := dep.Rel(from.Repo, from.Pkg).String()
		if !seen[s] {
			seen[s] = true
			deps = append(deps, s)
		}
	}
	sort.Strings(deps)
	if len(deps) > 0 {
		r.SetAttr("deps", deps)
	} else {
		r.DelAttr("deps")
	}
}

func (l *krmLang) resolveDir(c *config.Config, ix *resolve.RuleIndex, dir string, from label.Label) (label.Label, bool) {
	spec := resolve.ImportSpec{Lang: languageName, Imp: dir}
	if lbl, ok := resolve.FindRuleWithOverride(c, spec, languageName); ok {
		return lbl, true
	}
	matches := ix.FindRulesByImportWithConfig(c, spec, languageName)
	switch {
	case len(matches) == 1:
		return matches[0].Label, true
	case len(matches) > 1:
		log.Printf("%s: several krm_kustomization targets declare the directory %s; add the one to use by hand or a `# gazelle:resolve krm krm %s LABEL` directive", from, pathOr(dir), dir)
		return label.NoLabel, false
	}
	// Not indexed (for example `gazelle update` of a subtree): the target gazelle generates.
	t := l.repoTree(c)
	if t.kustomizations[dir] != "" {
		if cl, ok := t.claims[dir]; ok {
			return label.New("", cl.pkg, cl.name), true
		}
		return label.New("", dir, getKrmConfig(c).targetName(dir)), true
	}
	log.Printf("%s: no krm_kustomization target for the directory %s (excluded, or krm_enabled false): add it to deps by hand, or a `# gazelle:resolve krm krm %s LABEL` directive", from, pathOr(dir), dir)
	return label.NoLabel, false
}
