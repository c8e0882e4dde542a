// Package secretdata finds the Secret values in Kubernetes objects, wherever they appear,
// for the commands that print values of objects (krm diff and its pull-request comment,
// krm validate): they print none of what it finds.
//
// It errs on the side of hiding: the API server is stricter about what a Secret is, but a
// value printed because its object only looked like a Secret is as public as any other.
//
//   - A Secret is a mapping, at the top of a document or inside another object, with a kind
//     key (in any case; a mapping may repeat it) whose value is Secret in any case, in any
//     API group or none. The items of a SecretList are Secrets whatever their kind says.
//   - Every field of a Secret holds values but apiVersion, kind, type, immutable and
//     metadata: so data, stringData, and fields spelt otherwise (Data, which a
//     case-insensitive decoder reads as data). Of its metadata, the annotations that copy
//     the object hold values: kubectl's last-applied-configuration, and any whose value is
//     JSON (kapp's original and original-diff).
//   - A string anywhere that holds a Secret holds values: text naming kind Secret, as YAML
//     or JSON (a manifest kept in a ConfigMap, an annotation embedding an object).
//
// Keys are not values: the keys of a Secret's data may be shown, as kubectl diff shows them.
package secretdata

import (
	"regexp"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// LastApplied is the annotation in which kubectl apply keeps the object it applied, as JSON.
const LastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// Set is the nodes of an object whose values must not be printed. The zero Set has none
// but the strings that hold a Secret.
type Set struct{ nodes map[*yaml.Node]bool }

// Find returns the Secret values of the object obj (a mapping); secret says that obj is a
// Secret whatever its kind says (an item of a SecretList).
func Find(obj *yaml.Node, secret bool) Set {
	s := Set{nodes: map[*yaml.Node]bool{}}
	s.walk(obj, secret)
	return s
}

// Has reports whether the value of n must not be printed.
func (s Set) Has(n *yaml.Node) bool {
	return s.nodes[n] || (n.Kind == yaml.ScalarNode && HoldsSecret(n.Value))
}

// Within reports whether the value of n, or of any node below it, must not be printed.
func (s Set) Within(n *yaml.Node) bool {
	if s.Has(n) {
		return true
	}
	for _, c := range n.Content {
		if s.Within(c) {
			return true
		}
	}
	return false
}

func (s Set) walk(n *yaml.Node, secret bool) {
	switch n.Kind {
	case yaml.MappingNode:
		if secret || IsSecret(n) {
			s.secret(n)
			return
		}
		items := IsSecretList(n)
		for i := 0; i+1 < len(n.Content); i += 2 {
			s.walk(n.Content[i+1], items && n.Content[i].Value == "items")
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			// The items of a SecretList are Secrets.
			s.walk(c, secret)
		}
	case yaml.DocumentNode:
		for _, c := range n.Content {
			s.walk(c, secret)
		}
	}
}

// secret adds the values of the Secret m.
func (s Set) secret(m *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch k.Value {
		case "apiVersion", "kind", "type", "immutable":
			s.walk(v, false)
		case "metadata":
			s.metadata(v)
		default:
			s.add(v)
		}
	}
}

// metadata adds the values of a Secret's metadata: the annotations that copy the Secret.
func (s Set) metadata(m *yaml.Node) {
	if m.Kind != yaml.MappingNode {
		s.walk(m, false)
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if !strings.EqualFold(k.Value, "annotations") || v.Kind != yaml.MappingNode {
			s.walk(v, false)
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			if a := v.Content[j+1]; v.Content[j].Value == LastApplied || isJSON(a) {
				s.add(a)
			} else {
				s.walk(a, false)
			}
		}
	}
}

// isJSON reports whether n is a string holding a JSON object or array (an annotation that
// copies an object, or a patch of it).
func isJSON(n *yaml.Node) bool {
	t := strings.TrimSpace(n.Value)
	return n.Kind != yaml.ScalarNode || strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")
}

// add adds the tree n.
func (s Set) add(n *yaml.Node) {
	s.nodes[n] = true
	for _, c := range n.Content {
		s.add(c)
	}
}

// IsSecret reports whether the mapping n is a Secret: one of its kind keys says so.
func IsSecret(n *yaml.Node) bool { return kindIs(n, "Secret") }

// IsSecretList reports whether the mapping n is a SecretList: its items are Secrets.
func IsSecretList(n *yaml.Node) bool { return kindIs(n, "SecretList") }

func kindIs(n *yaml.Node, kind string) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if strings.EqualFold(k.Value, "kind") && v.Kind == yaml.ScalarNode && strings.EqualFold(strings.TrimSpace(v.Value), kind) {
			return true
		}
	}
	return false
}

// secretText is a kind key naming Secret (or SecretList) in YAML or JSON, escaped or not
// (JSON in a JSON string), with a YAML tag or not.
var secretText = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bkind[\\"']*\s*:\s*(![^\s]*\s+)?[\\"']*\s*secret(list)?\b`)
})

// HoldsSecret reports whether the text s holds a Secret: it names kind Secret.
func HoldsSecret(s string) bool { return secretText().MatchString(s) }
