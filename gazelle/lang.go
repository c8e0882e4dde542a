// Package gazelle is the krm language of Gazelle: it generates a krm_kustomization target
// (and, on request, a krm_golden_test and a krm_validate_test) for every directory holding a kustomization file,
// with srcs listing exactly the files the kustomization reads and deps the kustomizations
// it names. Documentation: docs/gazelle.md.
package gazelle

import (
	"sync"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

type krmLang struct {
	treeOnce sync.Once
	tree     *tree
}

// NewLanguage is called by gazelle_binary to install the krm language.
func NewLanguage() language.Language { return &krmLang{} }

// Name implements language.Language.
func (*krmLang) Name() string { return languageName }

// repoTree scans the repository on first use.
func (l *krmLang) repoTree(c *config.Config) *tree {
	l.treeOnce.Do(func() { l.tree = scanTree(c.RepoRoot, c.ValidBuildFileNames) })
	return l.tree
}

// Kinds implements language.Language. srcs, kind, dir and load_restrictor follow the
// kustomization file (mergeable); deps are resolved; everything else (visibility, tags,
// functions, provenance) is the user's and survives regeneration.
func (*krmLang) Kinds() map[string]rule.KindInfo {
	return map[string]rule.KindInfo{
		kustomizationKind: {
			NonEmptyAttrs:  map[string]bool{"srcs": true, "deps": true},
			MergeableAttrs: map[string]bool{"srcs": true, "dir": true, "kind": true, "load_restrictor": true, "build_metadata": true, "openapi": true, "helm_inherits_namespace": true},
			ResolveAttrs:   map[string]bool{"deps": true},
		},
		exportsKind: {
			NonEmptyAttrs:  map[string]bool{"srcs": true},
			MergeableAttrs: map[string]bool{"srcs": true},
		},
		goldenTestKind: {
			NonEmptyAttrs:  map[string]bool{"golden": true, "kustomization": true},
			MergeableAttrs: map[string]bool{"golden": true, "kustomization": true},
		},
		// crds, allow_kinds, namespace_labels and kubernetes_version are the user's; policies
		// krm_validate_policies' (an entry marked # keep stays).
		validateTestKind: {
			NonEmptyAttrs:  map[string]bool{"kustomization": true},
			MergeableAttrs: map[string]bool{"kustomization": true, "policies": true},
		},
	}
}

// Loads implements language.Language.
func (*krmLang) Loads() []rule.LoadInfo {
	return []rule.LoadInfo{{Name: rulesKrmDefs, Symbols: []string{kustomizationKind, goldenTestKind, validateTestKind}}}
}

// Fix implements language.Language: nothing is deprecated yet.
func (*krmLang) Fix(c *config.Config, f *rule.File) {}
