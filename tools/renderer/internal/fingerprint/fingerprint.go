// Package fingerprint hashes what printing a YAML tree depends on. Provenance
// compares the fingerprints of each object before and after a step to learn
// which objects the step changed; transformers that report their own changes
// ask SameString whether a value they overwrite changes.
package fingerprint

import (
	"hash/maphash"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Fingerprints only ever compare within one process, so a random seed is
// fine (and maphash is far faster than a byte-wise hash).
var seed = maphash.MakeSeed()

const prime = 1099511628211

// ignored are mapping keys left out of fingerprints: kustomize's own origin
// records, which change without the object changing.
func ignored(k string) bool {
	switch len(k) {
	case len("config.kubernetes.io/origin"):
		return k == "config.kubernetes.io/origin"
	case len("alpha.config.kubernetes.io/transformations"):
		return k == "alpha.config.kubernetes.io/transformations"
	}
	return false
}

// onlyIgnored reports whether n is a mapping holding only ignored keys:
// kustomize's bookkeeping alone, which printing drops with the map.
func onlyIgnored(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return false
	}
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].Kind != yaml.ScalarNode || !ignored(n.Content[i].Value) {
			return false
		}
	}
	return true
}

// Of is a cheap hash of what printing a YAML tree depends on.
// Objects print through JSON (kyaml decodes the node into maps, JSON sorts
// their keys), so two trees that print alike hash alike: mapping key order,
// scalar styles and the tags of keys do not count, and kustomize's own
// origin records (which it rewrites as it goes) are left out. A change to
// any key, value, scalar type or sequence order changes the hash (up to
// 64-bit collisions).
func Of(n *yaml.Node) uint64 {
	return value(14695981039346656037, n)
}

// mix folds x into h.
func mix(h, x uint64) uint64 {
	h ^= x
	h *= prime
	return h ^ h>>29
}

// str folds the content of s into h.
func str(h uint64, s string) uint64 {
	return mix(h, maphash.String(seed, s)^uint64(len(s)))
}

// scalarType is the type a scalar decodes to: what its tag says, or for
// an untagged plain scalar what its value resolves to (quoted, literal and
// folded scalars are strings).
func scalarType(n *yaml.Node) uint64 {
	switch n.Tag {
	case "!!str":
		return 's'
	case "!!int", "!!float":
		return 'n'
	case "!!bool":
		return 'b'
	case "!!null":
		return 'z'
	case "", "!":
	default:
		return maphash.String(seed, n.Tag)
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 || n.Tag == "!" {
		return 's'
	}
	switch v := n.Value; v {
	case "", "~", "null", "Null", "NULL":
		return 'z'
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return 'b'
	default:
		if c := v[0]; c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' {
			return 'n' // maybe a number: the value itself tells the rest
		}
	}
	return 's'
}

// value folds the node n into h.
func value(h uint64, n *yaml.Node) uint64 {
	if n == nil {
		return mix(h, 0xfe)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return str(mix(h, scalarType(n)), n.Value)
	case yaml.MappingNode:
		// Order-insensitive: a sum of independent pair hashes.
		var sum, count uint64
		c := n.Content
		for i := 0; i+1 < len(c); i += 2 {
			k, v := c[i], c[i+1]
			if k == nil {
				continue
			}
			if ignored(k.Value) || k.Value == "annotations" && v != nil && onlyIgnored(v) {
				continue
			}
			sum += value(str(0x9e3779b97f4a7c15, k.Value), v)
			count++
		}
		return mix(mix(mix(h, 'm'), sum), count)
	case yaml.SequenceNode:
		h = mix(h, 'q')
		for _, e := range n.Content {
			h = value(h, e)
		}
		return mix(h, uint64(len(n.Content)))
	case yaml.DocumentNode:
		for _, e := range n.Content {
			h = value(h, e)
		}
		return h
	case yaml.AliasNode:
		if n.Alias != nil && n.Alias != n {
			return value(mix(h, 'a'), n.Alias)
		}
	}
	return str(mix(h, uint64(n.Kind)), n.Value)
}

// SameString reports whether n prints as a string scalar of value s does:
// Of(n) == Of(that scalar), without hashing.
func SameString(n *yaml.Node, s string) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.Value == s && scalarType(n) == 's'
}
