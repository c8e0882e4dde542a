package transform

import (
	"sigs.k8s.io/kustomize/api/builtins"
	prefixfilter "sigs.k8s.io/kustomize/api/filters/prefix"
	suffixfilter "sigs.k8s.io/kustomize/api/filters/suffix"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/resid"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// prefixPlugin and suffixPlugin are kustomize's PrefixTransformer and
// SuffixTransformer (configured by them) with the previous-ID and
// prefix/suffix annotations written by resourcemap instead of by kyaml
// pipes, and IDs read without building annotation maps; the fields change
// through kustomize's own filters.
type prefixPlugin struct {
	*builtins.PrefixTransformerPlugin
}

func (p prefixPlugin) Transform(m resmap.ResMap) error {
	return affixNames(m, p.FieldSpecs, p.Prefix, resourcemap.AddNamePrefix, func(fs types.FieldSpec) kio.Filter {
		return prefixfilter.Filter{Prefix: p.Prefix, FieldSpec: fs}
	})
}

type suffixPlugin struct {
	*builtins.SuffixTransformerPlugin
}

func (p suffixPlugin) Transform(m resmap.ResMap) error {
	return affixNames(m, p.FieldSpecs, p.Suffix, resourcemap.AddNameSuffix, func(fs types.FieldSpec) kio.Filter {
		return suffixfilter.Filter{Suffix: p.Suffix, FieldSpec: fs}
	})
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
func affixNames(m resmap.ResMap, fss types.FsSlice, affix string,
	record func(*resource.Resource, string), filter func(types.FieldSpec) kio.Filter) error {
	for _, r := range m.Resources() {
		id := resourcemap.OrgID(r)
		if selectedByAny(id, affixSkipped) {
			continue
		}
		for _, fs := range fss {
			if !id.IsSelected(&fs.Gvk) {
				continue
			}
			if fs.Path == "metadata/name" {
				record(r, affix)
				if affix != "" {
					resourcemap.StorePreviousID(r)
				}
			}
			if err := r.ApplyFilter(filter(fs)); err != nil {
				return err
			}
		}
	}
	return nil
}

func selectedByAny(id resid.ResId, gvks []resid.Gvk) bool {
	for i := range gvks {
		if id.IsSelected(&gvks[i]) {
			return true
		}
	}
	return false
}
