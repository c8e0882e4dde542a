package gazelle

import (
	"flag"
	"log"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// The directives of the krm language (docs/gazelle.md has the table users read).
const (
	// krm_enabled true|false: generate krm targets in this directory and below.
	enabledDirective = "krm_enabled"
	// krm_name TEMPLATE: the target name; {dirname} is the directory's base name.
	nameDirective = "krm_name"
	// krm_golden_tests on|off: a krm_golden_test beside every Kustomization with a golden.
	goldenDirective = "krm_golden_tests"
	// krm_validate on|off: a krm_validate_test beside every Kustomization.
	validateDirective = "krm_validate"
	// krm_validate_policies LABEL...: the policies (files or filegroups of
	// ValidatingAdmissionPolicies) of the krm_validate_tests here and below; empty: none.
	policiesDirective = "krm_validate_policies"
	// krm_load_restrictor LoadRestrictionsRootOnly|LoadRestrictionsNone.
	loadRestrictorDirective = "krm_load_restrictor"
	// krm_visibility LABEL...: visibility of new targets.
	visibilityDirective = "krm_visibility"
	// krm_component_manifests on|off: a <name>_standalone target rendering each component
	// that kustomize builds alone.
	componentManifestsDirective = "krm_component_manifests"
)

const (
	defaultName          = "{dirname}"
	rootName             = "root" // {dirname} of the repository root
	loadRestrictionsRoot = "LoadRestrictionsRootOnly"
	loadRestrictionsNone = "LoadRestrictionsNone"
	defaultVisibility    = "//visibility:public"
	goldenSuffix         = "_manifests.golden.yaml"
	goldenTestSuffix     = "_golden_test"
	validateTestSuffix   = "_validate_test"
	standaloneSuffix     = "_standalone"
	kustomizationKind    = "krm_kustomization"
	goldenTestKind       = "krm_golden_test"
	validateTestKind     = "krm_validate_test"
	exportsKind          = "exports_files"
	componentKind        = "Component"
	rulesKrmDefs         = "@rules_krm//rules:defs.bzl"
	languageName         = "krm"
)

// krmConfig is the krm configuration of one directory, inherited by its subdirectories.
type krmConfig struct {
	enabled            bool
	componentManifests bool
	name               string
	golden             bool
	validate           bool
	policies           []string
	loadRestrictor     string
	visibility         []string
}

func newKrmConfig() *krmConfig {
	return &krmConfig{enabled: true, componentManifests: true, name: defaultName, loadRestrictor: loadRestrictionsRoot, visibility: []string{defaultVisibility}}
}

func getKrmConfig(c *config.Config) *krmConfig {
	if kc, ok := c.Exts[languageName].(*krmConfig); ok {
		return kc
	}
	return newKrmConfig()
}

// targetName is the name of the krm_kustomization target of directory rel.
func (kc *krmConfig) targetName(rel string) string {
	base := rel[strings.LastIndex(rel, "/")+1:]
	if base == "" {
		base = rootName
	}
	return strings.ReplaceAll(kc.name, "{dirname}", base)
}

// RegisterFlags implements config.Configurer: krm has no flags, only directives.
func (*krmLang) RegisterFlags(fs *flag.FlagSet, cmd string, c *config.Config) {}

// CheckFlags implements config.Configurer.
func (*krmLang) CheckFlags(fs *flag.FlagSet, c *config.Config) error { return nil }

// KnownDirectives implements config.Configurer.
func (*krmLang) KnownDirectives() []string {
	return []string{enabledDirective, nameDirective, goldenDirective, validateDirective, policiesDirective, loadRestrictorDirective, visibilityDirective, componentManifestsDirective}
}

// Configure implements config.Configurer: copies the parent's configuration and applies the
// directives of the BUILD file in rel.
func (*krmLang) Configure(c *config.Config, rel string, f *rule.File) {
	kc := *getKrmConfig(c)
	kc.visibility = append([]string(nil), kc.visibility...)
	kc.policies = append([]string(nil), kc.policies...)
	if f != nil {
		for _, d := range f.Directives {
			applyDirective(&kc, f.Path, d)
		}
	}
	c.Exts[languageName] = &kc
}

func applyDirective(kc *krmConfig, file string, d rule.Directive) {
	v := strings.TrimSpace(d.Value)
	switch d.Key {
	case enabledDirective:
		kc.enabled = choice(file, d, kc.enabled, "true", "false")
	case nameDirective:
		if v == "" {
			v = defaultName
		}
		kc.name = v
	case goldenDirective:
		kc.golden = choice(file, d, kc.golden, "on", "off")
	case validateDirective:
		kc.validate = choice(file, d, kc.validate, "on", "off")
	case policiesDirective:
		kc.policies = strings.Fields(v)
	case componentManifestsDirective:
		kc.componentManifests = choice(file, d, kc.componentManifests, "on", "off")
	case loadRestrictorDirective:
		switch v {
		case loadRestrictionsRoot, loadRestrictionsNone:
			kc.loadRestrictor = v
		default:
			log.Printf("%s: # gazelle:%s %s: want %s or %s", file, d.Key, v, loadRestrictionsRoot, loadRestrictionsNone)
		}
	case visibilityDirective:
		kc.visibility = strings.Fields(v)
	}
}

// choice is true for yes, false for no, and (with a log line) was for anything else.
func choice(file string, d rule.Directive, was bool, yes, no string) bool {
	switch strings.TrimSpace(d.Value) {
	case yes:
		return true
	case no:
		return false
	}
	log.Printf("%s: # gazelle:%s %s: want %s or %s", file, d.Key, d.Value, yes, no)
	return was
}
