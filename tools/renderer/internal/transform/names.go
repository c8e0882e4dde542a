package transform

import (
	"sigs.k8s.io/kustomize/api/builtins"
	fsfilter "sigs.k8s.io/kustomize/api/filters/fieldspec"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yaml11"
)

// prefixPlugin and suffixPlugin are kustomize's PrefixTransformer and
// SuffixTransformer (configured by them) with the previous-ID and
// prefix/suffix annotations written by resourcemap instead of by kyaml
// pipes, IDs read without building annotation maps, and names set by
// yaml11.SetScalar (without a YAML 1.1 parse whose answer is discarded);
// the fields are found by kustomize's field-spec walk.
type prefixPlugin struct {
	*builtins.PrefixTransformerPlugin
	changes
}

func (p *prefixPlugin) Transform(m resmap.ResMap) error {
	return affixNames(m, p.FieldSpecs, p.Prefix, &p.changes, resourcemap.AddNamePrefix, func(old string) string { return p.Prefix + old })
}

type suffixPlugin struct {
	*builtins.SuffixTransformerPlugin
	changes
}

func (p *suffixPlugin) Transform(m resmap.ResMap) error {
	return affixNames(m, p.FieldSpecs, p.Suffix, &p.changes, resourcemap.AddNameSuffix, func(old string) string { return old + p.Suffix })
}

// affixSkipped are the kinds kustomize never renames with a prefix or suffix.
var affixSkipped = []resid.Gvk{
	{Kind: "CustomResourceDefinition"},
	{Group: "apiregistration.k8s.io", Kind: "APIService"},
	{Kind: "Namespace"},
}

// affixNames is the loop both kustomize transformers run: for each object
// not skipped by its original ID, each field spec selecting that ID; the
// name spec also records the affix and, when there is one, the previous ID.
// Each object it records an affix on or sets a field of goes to c, which
// is exact for the non-empty affix the builder requires: the affix
// annotation grows, and the affix changes every value it sets.
func affixNames(m resmap.ResMap, fss types.FsSlice, affix string, c *changes,
	record func(*resource.Resource, string), affixed func(string) string) error {
	c.reset()
	set := false
	filters := make([]kio.Filter, len(fss))
	for i, fs := range fss {
		filters[i] = affixFilter(fs, func(old string) string { set = true; return affixed(old) })
	}
	for _, r := range m.Resources() {
		id := resourcemap.OrgID(r)
		if selectedByAny(id, affixSkipped) {
			continue
		}
		set = false
		for i, fs := range fss {
			if !id.IsSelected(&fs.Gvk) {
				continue
			}
			if fs.Path == "metadata/name" {
				record(r, affix)
				set = true
				if affix != "" {
					resourcemap.StorePreviousID(r)
				}
			}
			if err := r.ApplyFilter(filters[i]); err != nil {
				return err
			}
		}
		if set {
			c.add(r)
		}
	}
	return nil
}

// affixFilter is kustomize's prefix.Filter or suffix.Filter: it sets each
// field fs leads to (creating a missing last one) to affixed(its value).
func affixFilter(fs types.FieldSpec, affixed func(string) string) kio.Filter {
	set := func(node *yaml.RNode) error { return yaml11.SetScalar(affixed(node.YNode().Value))(node) }
	return kio.FilterAll(yaml.FilterFunc(func(node *yaml.RNode) (*yaml.RNode, error) {
		return node, node.PipeE(fsfilter.Filter{FieldSpec: fs, SetValue: set, CreateKind: yaml.ScalarNode, CreateTag: yaml.NodeTagString})
	}))
}

func selectedByAny(id resid.ResId, gvks []resid.Gvk) bool {
	for i := range gvks {
		if id.IsSelected(&gvks[i]) {
			return true
		}
	}
	return false
}
