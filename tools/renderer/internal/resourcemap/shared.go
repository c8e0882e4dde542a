package resourcemap

import (
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// kustomize's label and annotation transformers put one YAML node at every
// field they create in an object (metadata/labels and the pod template's
// labels share it), and a later transformer that sets the field on one
// path changes it in place, so on every path. kustomize never copies an
// object between kustomizations, so the sharing lasts; krm copies objects
// (a base accumulated once, a snapshot), so its copies keep it.

// copySharing returns a deep copy of r whose YAML nodes are shared where
// r's are (seen maps r's nodes to their copies, across objects).
func copySharing(r *resource.Resource, seen map[*yaml.Node]*yaml.Node) *resource.Resource {
	c := r.DeepCopy()
	c.RNode = *yaml.NewRNode(copyNode(r.RNode.YNode(), seen))
	return c
}

func copyNode(n *yaml.Node, seen map[*yaml.Node]*yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if c, ok := seen[n]; ok {
		return c
	}
	c := *n
	seen[n] = &c
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, child := range n.Content {
			c.Content[i] = copyNode(child, seen)
		}
	}
	c.Alias = copyNode(n.Alias, seen)
	return &c
}
