// Package fieldspec holds the field-spec configuration that tells each builtin
// transformer which fields of which kinds it visits: kustomize's defaults plus
// any `configurations:` files a kustomization adds.
package fieldspec

import (
	"fmt"
	"sort"

	"sigs.k8s.io/kustomize/api/ifc"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/yaml"
)

// NameBackReference lists the fields (Referrers) that refer to objects of Gvk by name.
type NameBackReference struct {
	resid.Gvk `json:",inline,omitempty" yaml:",inline,omitempty"`
	Referrers types.FsSlice `json:"fieldSpecs,omitempty" yaml:"fieldSpecs,omitempty"`
}

// NameBackReferences is sorted by Gvk, like kustomize sorts it.
type NameBackReferences []NameBackReference

func (s NameBackReferences) Len() int           { return len(s) }
func (s NameBackReferences) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }
func (s NameBackReferences) Less(i, j int) bool { return s[i].Gvk.IsLessThan(s[j].Gvk) }

func (s NameBackReferences) deepCopy() NameBackReferences {
	if s == nil {
		return nil
	}
	out := make(NameBackReferences, len(s))
	copy(out, s)
	for i := range out {
		out[i].Referrers = out[i].Referrers.DeepCopy()
	}
	return out
}

func (s NameBackReferences) mergeOne(o NameBackReference) (NameBackReferences, error) {
	var out NameBackReferences
	found := false
	for _, c := range s {
		if c.Gvk.Equals(o.Gvk) {
			merged, err := c.Referrers.MergeAll(o.Referrers)
			if err != nil {
				return nil, err
			}
			c.Referrers = merged
			found = true
		}
		out = append(out, c)
	}
	if !found {
		out = append(out, o)
	}
	return out, nil
}

// Config is the set of field specs per transformer. Its YAML form is the
// format of kustomize's `configurations:` files.
type Config struct {
	NamePrefix                types.FsSlice      `json:"namePrefix,omitempty"`
	NameSuffix                types.FsSlice      `json:"nameSuffix,omitempty"`
	NameSpace                 types.FsSlice      `json:"namespace,omitempty"`
	CommonLabels              types.FsSlice      `json:"commonLabels,omitempty"`
	Labels                    types.FsSlice      `json:"labels,omitempty"`
	TemplateLabels            types.FsSlice      `json:"templateLabels,omitempty"`
	VolumeClaimTemplateLabels types.FsSlice      `json:"volumeClaimTemplateLabels,omitempty"`
	CommonAnnotations         types.FsSlice      `json:"commonAnnotations,omitempty"`
	NameReference             NameBackReferences `json:"nameReference,omitempty"`
	VarReference              types.FsSlice      `json:"varReference,omitempty"`
	Images                    types.FsSlice      `json:"images,omitempty"`
	Replicas                  types.FsSlice      `json:"replicas,omitempty"`
}

// Parse reads a configurations file strictly: unknown keys are errors.
func Parse(data []byte) (*Config, error) {
	var c Config
	if err := yaml.UnmarshalStrict(data, &c); err != nil {
		return nil, err
	}
	c.sort()
	return &c, nil
}

// Load returns the defaults merged with the configuration files at paths.
func Load(ldr ifc.Loader, paths []string) (*Config, error) {
	base := Defaults()
	if len(paths) == 0 {
		return base, nil
	}
	custom := &Config{}
	for _, p := range paths {
		data, err := ldr.Load(p)
		if err != nil {
			return nil, err
		}
		c, err := Parse(data)
		if err != nil {
			return nil, fmt.Errorf("configurations file %s: %w", p, err)
		}
		if custom, err = custom.Merge(c); err != nil {
			return nil, fmt.Errorf("configurations file %s: %w", p, err)
		}
	}
	return base.Merge(custom)
}

// DeepCopy returns an independent copy.
func (c *Config) DeepCopy() *Config {
	return &Config{
		NamePrefix:                c.NamePrefix.DeepCopy(),
		NameSuffix:                c.NameSuffix.DeepCopy(),
		NameSpace:                 c.NameSpace.DeepCopy(),
		CommonLabels:              c.CommonLabels.DeepCopy(),
		Labels:                    c.Labels.DeepCopy(),
		TemplateLabels:            c.TemplateLabels.DeepCopy(),
		VolumeClaimTemplateLabels: c.VolumeClaimTemplateLabels.DeepCopy(),
		CommonAnnotations:         c.CommonAnnotations.DeepCopy(),
		NameReference:             c.NameReference.deepCopy(),
		VarReference:              c.VarReference.DeepCopy(),
		Images:                    c.Images.DeepCopy(),
		Replicas:                  c.Replicas.DeepCopy(),
	}
}

// Merge returns the union of c and o, sorted the way kustomize sorts it
// (field order decides the order fields are visited in).
func (c *Config) Merge(o *Config) (*Config, error) {
	if o == nil {
		return c, nil
	}
	m := &Config{}
	pairs := []struct {
		dst  *types.FsSlice
		a, b types.FsSlice
		name string
	}{
		{&m.NamePrefix, c.NamePrefix, o.NamePrefix, "namePrefix"},
		{&m.NameSuffix, c.NameSuffix, o.NameSuffix, "nameSuffix"},
		{&m.NameSpace, c.NameSpace, o.NameSpace, "namespace"},
		{&m.CommonAnnotations, c.CommonAnnotations, o.CommonAnnotations, "commonAnnotations"},
		{&m.CommonLabels, c.CommonLabels, o.CommonLabels, "commonLabels"},
		{&m.Labels, c.Labels, o.Labels, "labels"},
		{&m.TemplateLabels, c.TemplateLabels, o.TemplateLabels, "templateLabels"},
		{&m.VolumeClaimTemplateLabels, c.VolumeClaimTemplateLabels, o.VolumeClaimTemplateLabels, "volumeClaimTemplateLabels"},
		{&m.VarReference, c.VarReference, o.VarReference, "varReference"},
		{&m.Images, c.Images, o.Images, "images"},
		{&m.Replicas, c.Replicas, o.Replicas, "replicas"},
	}
	for _, p := range pairs {
		// Copy first: MergeAll appends into (and sort reorders) its receiver's array.
		merged, err := copyFs(p.a).MergeAll(p.b)
		if err != nil {
			return nil, fmt.Errorf("failed to merge %s field specs: %w", p.name, err)
		}
		*p.dst = merged
	}
	nr := c.NameReference.deepCopy()
	for _, r := range o.NameReference {
		var err error
		if nr, err = nr.mergeOne(r); err != nil {
			return nil, fmt.Errorf("failed to merge nameReference field specs: %w", err)
		}
	}
	m.NameReference = nr
	m.sort()
	return m, nil
}

func copyFs(s types.FsSlice) types.FsSlice {
	if s == nil {
		return nil
	}
	return s.DeepCopy()
}

func (c *Config) sort() {
	for _, s := range []types.FsSlice{
		c.NamePrefix, c.NameSuffix, c.NameSpace, c.CommonLabels, c.Labels,
		c.TemplateLabels, c.VolumeClaimTemplateLabels, c.CommonAnnotations,
		c.VarReference, c.Images, c.Replicas,
	} {
		sort.Sort(s)
	}
	sort.Sort(c.NameReference)
}
