package resourcemap

import (
	"fmt"

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

// AnchorShared returns a copy of n in which each node reachable by more
// than one path is anchored where it first appears and aliased elsewhere,
// so that YAML text keeps the sharing; ResolveShared undoes it.
func AnchorShared(n *yaml.Node) *yaml.Node {
	c := copyNode(n, map[*yaml.Node]*yaml.Node{})
	count := map[*yaml.Node]int{}
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		count[n]++
		if count[n] > 1 {
			return
		}
		for _, child := range n.Content {
			walk(child)
		}
	}
	walk(c)
	anchors := map[*yaml.Node]bool{}
	var mark func(parent *yaml.Node)
	mark = func(parent *yaml.Node) {
		for i, child := range parent.Content {
			if count[child] < 2 {
				mark(child)
				continue
			}
			if !anchors[child] {
				anchors[child] = true
				child.Anchor = fmt.Sprintf("krm%d", len(anchors))
				mark(child)
				continue
			}
			parent.Content[i] = &yaml.Node{Kind: yaml.AliasNode, Value: child.Anchor, Alias: child}
		}
	}
	mark(c)
	return c
}

// ResolveShared replaces the aliases AnchorShared wrote by the nodes they
// name, and drops the anchors.
func ResolveShared(n *yaml.Node) {
	for i, child := range n.Content {
		if child.Kind == yaml.AliasNode && child.Alias != nil {
			n.Content[i] = child.Alias
			continue
		}
		child.Anchor = ""
		ResolveShared(child)
	}
}
