package helm

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/errors"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/kustomize/kyaml/yaml/merge2"
	"sigs.k8s.io/yaml"
)

// values returns the user-supplied values of the release: kustomize's values
// file (valuesFile, or the chart's values.yaml, combined with valuesInline as
// valuesMerge says), then each additionalValuesFiles entry, merged as helm
// merges -f files. The chart's own defaults are applied later by Helm.
func (g *Generator) values(ch *localChart) (map[string]interface{}, error) {
	first, err := g.valuesFileBytes(ch)
	if err != nil {
		return nil, err
	}
	vals, err := mergeValuesFile(map[string]interface{}{}, first, g.rel(g.ValuesFile))
	if err != nil {
		return nil, err
	}
	for _, file := range g.AdditionalValuesFiles {
		b, err := g.h.Loader().Load(file)
		if err != nil {
			return nil, err
		}
		if vals, err = mergeValuesFile(vals, b, g.rel(file)); err != nil {
			return nil, err
		}
	}
	return vals, nil
}

// valuesFileBytes is the first values file kustomize gives helm: the values
// file as is when there are no inline values, else the inline values alone
// (replace) or merged with the values file (inline wins with override, the
// file with merge), re-encoded the way kustomize writes its temporary file.
func (g *Generator) valuesFileBytes(ch *localChart) ([]byte, error) {
	if len(g.ValuesInline) == 0 {
		return g.loadValuesFile(ch)
	}
	inline := g.ValuesInline
	if g.ValuesMerge != mergeReplace {
		b, err := g.loadValuesFile(ch)
		if err != nil {
			return nil, err
		}
		file, err := kyaml.Parse(string(b))
		if err != nil {
			return nil, errors.WrapPrefixf(err, "could not parse values file into rnode")
		}
		in, err := kyaml.FromMap(g.ValuesInline)
		if err != nil {
			return nil, errors.WrapPrefixf(err, "could not parse values inline into rnode")
		}
		// merge2.Merge(dest, src) lets src win; dest is modified, hence copies.
		var merged *kyaml.RNode
		if g.ValuesMerge == mergeOverride {
			merged, err = merge2.Merge(in, file.Copy(), kyaml.MergeOptions{})
		} else {
			merged, err = merge2.Merge(file, in.Copy(), kyaml.MergeOptions{})
		}
		if err != nil {
			return nil, errors.WrapPrefixf(err, "could not merge values")
		}
		if inline, err = merged.Map(); err != nil {
			return nil, errors.WrapPrefixf(err, "could not parse merged values into map")
		}
	}
	return yaml.Marshal(inline)
}

// loadValuesFile reads valuesFile; by default, the values.yaml of a packaged
// chart is read from its archive.
func (g *Generator) loadValuesFile(ch *localChart) ([]byte, error) {
	if g.defaultValuesFile && ch.archive {
		for _, f := range ch.Raw {
			if f.Name == "values.yaml" {
				return f.Data, nil
			}
		}
		return nil, nil
	}
	return g.h.Loader().Load(g.ValuesFile)
}

// mergeValuesFile parses one values file and merges it over base: maps merge
// key by key, anything else replaces (helm's rule for -f files).
func mergeValuesFile(base map[string]interface{}, b []byte, name string) (map[string]interface{}, error) {
	m := map[string]interface{}{}
	if err := yaml.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("failed to parse values file %s: %w", name, err)
	}
	return mergeMaps(base, m), nil
}

func mergeMaps(base, over map[string]interface{}) map[string]interface{} {
	out := make(map[string]interface{}, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		if vm, ok := v.(map[string]interface{}); ok {
			if bm, ok := out[k].(map[string]interface{}); ok {
				out[k] = mergeMaps(bm, vm)
				continue
			}
		}
		out[k] = v
	}
	return out
}
