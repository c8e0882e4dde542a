// Package krmfn is what the Starlark and exec KRM functions share: it turns
// a resource map into the items a function sees, and merges the items a
// function returns back into the resource map.
//
// A function sees each resource as the user wrote it (after the
// transformations so far): kustomize's build annotations (previous names,
// prefixes, origin and transformation records, reader annotations) are
// hidden from it and put back on the resources it returns. Resources keep
// their identity across the function through a Go-side index (Starlark) or
// an id annotation (exec functions), so a resource the function edits stays
// the same kustomize resource (generator options, var references and its
// position in the output are kept); a resource it returns that matches no
// input is new, and an input it does not return is deleted. Surviving inputs
// keep their order; new resources follow in the order the function returned
// them, like kustomize's own function plugins.
package krmfn

import (
	"errors"
	"fmt"
	"strconv"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// Annotations kustomize records on resources while it builds; functions
// never see them.
const (
	originAnnotation          = "config.kubernetes.io/origin"
	transformationsAnnotation = "alpha.config.kubernetes.io/transformations"
	// FunctionAnnotation names the executable of an exec KRM function.
	FunctionAnnotation = "config.kubernetes.io/function"

	// Generator options a generating function may set on what it returns,
	// as with kustomize's exec and function plugins.
	needsHashAnnotation = "kustomize.config.k8s.io/needs-hash"
	behaviorAnnotation  = "kustomize.config.k8s.io/behavior"
)

// hiddenAnnotations are removed from the items and function config a
// function sees.
var hiddenAnnotations = func() map[string]bool {
	m := map[string]bool{originAnnotation: true, transformationsAnnotation: true}
	for _, a := range resource.BuildAnnotations {
		m[a] = true
	}
	return m
}()

// IsHidden reports whether an annotation is kustomize bookkeeping that a
// function does not see.
func IsHidden(key string) bool { return hiddenAnnotations[key] }

// pair is one hidden annotation, its key and value nodes as they were.
type pair struct{ key, value *yaml.Node }

// Hidden is what StripHidden removed from one node.
type Hidden []pair

// StripHidden removes the hidden annotations from n (dropping an
// annotations map it leaves empty) and returns them.
func StripHidden(n *yaml.RNode) (Hidden, error) {
	anno, err := n.Pipe(yaml.Lookup(yaml.MetadataField, yaml.AnnotationsField))
	if err != nil || anno == nil || anno.YNode().Kind != yaml.MappingNode {
		return nil, err
	}
	var h Hidden
	c := anno.YNode().Content
	kept := c[:0:0]
	for i := 0; i+1 < len(c); i += 2 {
		if hiddenAnnotations[c[i].Value] {
			h = append(h, pair{c[i], c[i+1]})
			continue
		}
		kept = append(kept, c[i], c[i+1])
	}
	if len(h) == 0 {
		return nil, nil
	}
	anno.YNode().Content = kept
	if len(kept) == 0 {
		if _, err := n.Pipe(yaml.Lookup(yaml.MetadataField), yaml.FieldClearer{Name: yaml.AnnotationsField}); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// Restore puts hidden annotations back on n, as they were written.
func (h Hidden) Restore(n *yaml.RNode) error {
	if len(h) == 0 {
		return nil
	}
	anno, err := n.Pipe(yaml.LookupCreate(yaml.MappingNode, yaml.MetadataField, yaml.AnnotationsField))
	if err != nil {
		return err
	}
	if anno.YNode().Kind != yaml.MappingNode {
		return fmt.Errorf("metadata.annotations is not a mapping")
	}
	for _, p := range h {
		if _, err := anno.Pipe(yaml.FieldClearer{Name: p.key.Value}); err != nil {
			return err
		}
		anno.YNode().Content = append(anno.YNode().Content, p.key, p.value)
	}
	return nil
}

// Input is the resource map as a function sees it.
type Input struct {
	// Items are copies of the resources, without hidden annotations.
	Items []*yaml.RNode
	res   []*resource.Resource
	// hidden[i] are the annotations removed from Items[i].
	hidden []Hidden
}

// NewInput copies the resources of m for a function.
func NewInput(m resmap.ResMap) (*Input, error) {
	in := &Input{res: m.Resources()}
	for _, r := range in.res {
		n := r.RNode.Copy()
		h, err := StripHidden(n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.CurId(), err)
		}
		in.Items = append(in.Items, n)
		in.hidden = append(in.hidden, h)
	}
	return in, nil
}

// Output is one resource a function returned: From is the index in
// Input.Items of the resource it came from, or -1 for a new resource.
type Output struct {
	Node *yaml.RNode
	From int
}

// Apply makes m hold what the function returned. name names the function
// in errors.
func (in *Input) Apply(m resmap.ResMap, rf *resource.Factory, outs []Output, name string) error {
	kept := make([]*resource.Resource, len(in.res))
	var added []*resource.Resource
	for i, o := range outs {
		if o.Node == nil || o.Node.YNode().Kind != yaml.MappingNode {
			return fmt.Errorf("%s: item %d is not a mapping", name, i)
		}
		if o.From >= 0 && o.From < len(in.res) && kept[o.From] == nil {
			if SameNode(o.Node.YNode(), in.Items[o.From].YNode()) {
				// Unchanged: the resource keeps its node as it was (styles,
				// comments), so that a validator changes nothing.
				kept[o.From] = in.res[o.From]
				continue
			}
			if _, err := o.Node.GetValidatedMetadata(); err != nil {
				return fmt.Errorf("%s: item %d: %w", name, i, err)
			}
			if err := in.hidden[o.From].Restore(o.Node); err != nil {
				return err
			}
			r := in.res[o.From]
			r.RNode = *o.Node
			kept[o.From] = r
			continue
		}
		// A new resource, or a copy of an input: it must not carry the
		// bookkeeping of the resource it was copied from.
		if _, err := StripHidden(o.Node); err != nil {
			return err
		}
		rs, err := rf.ResourcesFromRNodes([]*yaml.RNode{o.Node})
		if err != nil {
			return fmt.Errorf("%s: item %d: %w", name, i, err)
		}
		added = append(added, rs...)
	}
	var list []*resource.Resource
	for _, r := range append(kept, added...) {
		if r != nil {
			list = append(list, r)
		}
	}
	if _, err := fromResources(list, name, "returned"); err != nil {
		return err
	}
	return resourcemap.Refill(m, list)
}

// fromResources makes a map of list in linear time; a repeated ID is the
// function's error.
func fromResources(list []*resource.Resource, name, verb string) (*resourcemap.Map, error) {
	m, err := resourcemap.FromResources(list)
	var dup *resourcemap.DuplicateError
	if errors.As(err, &dup) {
		return nil, fmt.Errorf("%s %s two resources with the id %s", name, verb, dup.ID)
	}
	return m, err
}

// Generated turns what a generating function returned into resources,
// honouring the needs-hash and behavior annotations like kustomize's
// function plugins do.
func Generated(rmf *resmap.Factory, nodes []*yaml.RNode, name string) (resmap.ResMap, error) {
	for i, n := range nodes {
		if n == nil || n.YNode().Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%s: item %d is not a mapping", name, i)
		}
		if _, err := StripHidden(n); err != nil {
			return nil, err
		}
	}
	rs, err := rmf.RF().ResourcesFromRNodes(nodes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for _, r := range rs {
		anno := r.GetAnnotations()
		needsHash := false
		if v, ok := anno[needsHashAnnotation]; ok {
			if needsHash, err = strconv.ParseBool(v); err != nil {
				return nil, fmt.Errorf("%s: %s: the annotation %q contains an invalid value (%q)", name, r.CurId(), needsHashAnnotation, v)
			}
		}
		behavior := anno[behaviorAnnotation]
		if _, ok := anno[needsHashAnnotation]; ok || behavior != "" {
			delete(anno, needsHashAnnotation)
			delete(anno, behaviorAnnotation)
			if err := r.SetAnnotations(anno); err != nil {
				return nil, err
			}
		}
		if needsHash {
			r.EnableHashSuffix()
		}
		r.SetBehavior(types.NewGenerationBehavior(behavior))
	}
	m, err := fromResources(rs, name, "generated")
	if err != nil {
		return nil, err
	}
	return m, nil
}

// SameNode reports whether two YAML trees hold the same data in the same
// order: the same kinds, scalar values and resolved tags, whatever their
// styles, comments and positions.
func SameNode(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case yaml.ScalarNode:
		return a.Value == b.Value && a.ShortTag() == b.ShortTag()
	case yaml.AliasNode:
		return SameNode(a.Alias, b.Alias)
	}
	if len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !SameNode(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// FunctionConfig is the config object a function is handed: a copy of the
// object the user wrote, without kustomize's bookkeeping annotations.
func FunctionConfig(config []byte) (*yaml.RNode, error) {
	n, err := yaml.Parse(string(config))
	if err != nil {
		return nil, err
	}
	if _, err := StripHidden(n); err != nil {
		return nil, err
	}
	return n, nil
}

// Name is how errors name the function a config object configures.
func Name(n *yaml.RNode) string {
	return n.GetKind() + " " + strconv.Quote(n.GetName())
}

// RunFunc runs a function on items and returns what it produced.
type RunFunc func(items []*yaml.RNode) ([]Output, error)

// Transform runs run on the resources of m and merges its output back.
func Transform(m resmap.ResMap, rmf *resmap.Factory, name string, run RunFunc) error {
	in, err := NewInput(m)
	if err != nil {
		return err
	}
	outs, err := run(in.Items)
	if err != nil {
		return err
	}
	return in.Apply(m, rmf.RF(), outs, name)
}

// Generate runs run on an empty items list; what it returns is generated.
func Generate(rmf *resmap.Factory, name string, run RunFunc) (resmap.ResMap, error) {
	outs, err := run(nil)
	if err != nil {
		return nil, err
	}
	nodes := make([]*yaml.RNode, len(outs))
	for i, o := range outs {
		nodes[i] = o.Node
	}
	return Generated(rmf, nodes, name)
}
