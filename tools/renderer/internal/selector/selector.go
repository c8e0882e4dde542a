// Package selector limits a transformer to some resources, following kpt's
// function selectors: any transformer or validator config object (builtin
// plugin configs, StarlarkRun, exec functions) may carry
//
//	selectors:            # the resources the transformer sees
//	- kind: Deployment
//	  labels: {app: web}
//	- apiVersion: v1
//	  kind: Service
//	exclude:              # resources it never sees
//	- name: legacy
//
// An entry matches a resource when all of its fields match: apiVersion
// ("apps/v1"), group ("apps"; group: "" is the core group), version
// ("v1"), kind, name and namespace (exact, current values), labels and
// annotations (every pair given must be present with that value). A list
// matches when any entry matches; an absent or empty selectors list
// selects every resource. A resource is handed to the transformer when
// selectors select it and no exclude entry matches it.
//
// The transformer runs on the selected resources alone; the others pass
// through untouched. Afterwards the resource map keeps its order: the
// selected resources that survive stay in their places, those the
// transformer deleted are gone, and those it added follow at the end.
package selector

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
	sigsyaml "sigs.k8s.io/yaml"
)

// Field names of a config object.
const (
	SelectorsField = "selectors"
	ExcludeField   = "exclude"
)

// Selector is one entry of a selectors or exclude list.
type Selector struct {
	APIVersion  string            `json:"apiVersion,omitempty"`
	Group       *string           `json:"group,omitempty"`
	Version     string            `json:"version,omitempty"`
	Kind        string            `json:"kind,omitempty"`
	Name        string            `json:"name,omitempty"`
	Namespace   string            `json:"namespace,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

func (s *Selector) empty() bool {
	return s.APIVersion == "" && s.Group == nil && s.Version == "" && s.Kind == "" &&
		s.Name == "" && s.Namespace == "" && len(s.Labels) == 0 && len(s.Annotations) == 0
}

// Matches reports whether every field of s matches r.
func (s *Selector) Matches(r *resource.Resource) bool {
	gvk := r.GetGvk()
	if s.APIVersion != "" && gvk.ApiVersion() != s.APIVersion {
		return false
	}
	if s.Group != nil && gvk.Group != *s.Group {
		return false
	}
	if s.Version != "" && gvk.Version != s.Version {
		return false
	}
	if s.Kind != "" && gvk.Kind != s.Kind {
		return false
	}
	if s.Name != "" && r.GetName() != s.Name {
		return false
	}
	if s.Namespace != "" && r.GetNamespace() != s.Namespace {
		return false
	}
	return hasAll(r.GetLabels(), s.Labels) && hasAll(r.GetAnnotations(), s.Annotations)
}

func hasAll(have, want map[string]string) bool {
	for k, v := range want {
		if got, ok := have[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// Spec is what a config object's selectors and exclude fields say.
type Spec struct {
	Selectors []Selector
	Exclude   []Selector
}

// Selects reports whether the transformer sees r.
func (s *Spec) Selects(r *resource.Resource) bool {
	if len(s.Selectors) > 0 && !anyMatches(s.Selectors, r) {
		return false
	}
	return !anyMatches(s.Exclude, r)
}

func anyMatches(list []Selector, r *resource.Resource) bool {
	for i := range list {
		if list[i].Matches(r) {
			return true
		}
	}
	return false
}

// FromConfig reads the selectors and exclude fields of a config object;
// it returns nil when there are none.
func FromConfig(config *resource.Resource) (*Spec, error) {
	sel, err := list(&config.RNode, SelectorsField)
	if err != nil {
		return nil, err
	}
	exc, err := list(&config.RNode, ExcludeField)
	if err != nil {
		return nil, err
	}
	if len(sel) == 0 && len(exc) == 0 {
		return nil, nil
	}
	return &Spec{Selectors: sel, Exclude: exc}, nil
}

func list(n *yaml.RNode, field string) ([]Selector, error) {
	f := n.Field(field)
	if f == nil || yaml.IsMissingOrNull(f.Value) {
		return nil, nil
	}
	if f.Value.YNode().Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s must be a list of selectors (fields: apiVersion, group, version, kind, name, namespace, labels, annotations)", field)
	}
	s, err := f.Value.String()
	if err != nil {
		return nil, err
	}
	var out []Selector
	if err := sigsyaml.UnmarshalStrict([]byte(s), &out); err != nil {
		return nil, fmt.Errorf("%s: %w (fields: apiVersion, group, version, kind, name, namespace, labels, annotations)", field, err)
	}
	for i := range out {
		if out[i].empty() {
			return nil, fmt.Errorf("%s[%d] is empty: give at least one of apiVersion, group, version, kind, name, namespace, labels, annotations", field, i)
		}
	}
	return out, nil
}

// Wrap limits the transformer c to the resources spec selects. A nil spec
// returns c itself. A plugin that is a generator as well keeps generating
// unrestricted.
func Wrap(c resmap.Configurable, spec *Spec) (resmap.Configurable, error) {
	if spec == nil {
		return c, nil
	}
	t, ok := c.(resmap.Transformer)
	if !ok {
		return nil, fmt.Errorf("%s and %s apply to transformers and validators, not generators", SelectorsField, ExcludeField)
	}
	w := &transformer{Configurable: c, inner: t, spec: spec}
	if g, ok := c.(resmap.Generator); ok {
		return &generatorTransformer{transformer: w, gen: g}, nil
	}
	return w, nil
}

// transformer is a transformer limited to the resources spec selects.
type transformer struct {
	resmap.Configurable
	inner resmap.Transformer
	spec  *Spec
}

// Transform runs the inner transformer on the selected resources of m and
// merges the result back in m's order.
func (w *transformer) Transform(m resmap.ResMap) error {
	all := m.Resources()
	selected := make(map[*resource.Resource]bool)
	var picked []*resource.Resource
	for _, r := range all {
		if w.spec.Selects(r) {
			selected[r] = true
			picked = append(picked, r)
		}
	}
	sub, err := resourcemap.FromResources(picked)
	if err != nil {
		return err
	}
	if err := w.inner.Transform(sub); err != nil {
		return err
	}
	after := sub.Resources()
	survived := make(map[*resource.Resource]bool, len(after))
	for _, r := range after {
		survived[r] = true
	}
	out := make([]*resource.Resource, 0, len(all)+len(after))
	for _, r := range all {
		if !selected[r] || survived[r] {
			out = append(out, r)
		}
	}
	for _, r := range after {
		if !selected[r] {
			out = append(out, r)
		}
	}
	if err := resourcemap.Refill(m, out); err != nil {
		return fmt.Errorf("after a transformer limited by %s: %w", strings.Join([]string{SelectorsField, ExcludeField}, "/"), err)
	}
	return nil
}

type generatorTransformer struct {
	*transformer
	gen resmap.Generator
}

func (g *generatorTransformer) Generate() (resmap.ResMap, error) { return g.gen.Generate() }
