package resourcemap

import (
	"unicode/utf8"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Annotations in which kustomize records the name prefixes and suffixes
// applied to a resource.
const (
	prefixesKey = "internal.config.kubernetes.io/prefixes"
	suffixesKey = "internal.config.kubernetes.io/suffixes"
)

// StorePreviousID is r.StorePreviousId(): it appends r's current name,
// effective namespace and kind to its previous-ID annotations. kustomize
// does each append as a kyaml SetAnnotation pipe after reading all
// annotations into a map (three times per call, for every object a prefix,
// suffix or namespace moves); this writes the same nodes in one walk, and
// falls back to kustomize where the walk could differ.
func StorePreviousID(r *resource.Resource) {
	id := CurID(r)
	ns := id.EffectiveNamespace()
	an, ok := annotationsToSet(r.YNode(), prevNamesKey, prevNamespacesKey, prevKindsKey)
	if !ok || !utf8.ValidString(id.Name) || !utf8.ValidString(ns) || !utf8.ValidString(id.Kind) {
		r.StorePreviousId()
		return
	}
	an.appendCsv(prevNamesKey, id.Name)
	an.appendCsv(prevNamespacesKey, ns)
	an.appendCsv(prevKindsKey, id.Kind)
}

// AddNamePrefix is r.AddNamePrefix(p), written as StorePreviousID writes.
func AddNamePrefix(r *resource.Resource, p string) { appendCsvAnnotation(r, prefixesKey, p) }

// AddNameSuffix is r.AddNameSuffix(s), written as StorePreviousID writes.
func AddNameSuffix(r *resource.Resource, s string) { appendCsvAnnotation(r, suffixesKey, s) }

func appendCsvAnnotation(r *resource.Resource, key, value string) {
	an, ok := annotationsToSet(r.YNode(), key)
	if !ok || !utf8.ValidString(value) {
		if key == prefixesKey {
			r.AddNamePrefix(value)
		} else {
			r.AddNameSuffix(value)
		}
		return
	}
	an.appendCsv(key, value)
}

// csvAnnotations is where appendCsv writes: a resource's metadata mapping
// and its annotations mapping (nil until one is needed).
type csvAnnotations struct {
	md, an *yaml.Node
}

// annotationsToSet finds the mappings kyaml's SetAnnotation writes keys to
// in the resource node n, when its result is known: metadata is the only
// one, a non-empty mapping; annotations is absent or the only one, a
// non-empty mapping; each of keys is there at most once, a plain scalar.
// Then kyaml's ClearEmptyAnnotations removes nothing and its PathGetter
// finds (or appends) exactly these. Otherwise it reports false.
func annotationsToSet(n *yaml.Node, keys ...string) (csvAnnotations, bool) {
	var out csvAnnotations
	if !isMap(n) {
		return out, false
	}
	var ok bool
	if out.md, ok = onlyField(n, "metadata"); !ok || !isMap(out.md) || len(out.md.Content) == 0 {
		return out, false
	}
	if out.an, ok = onlyField(out.md, "annotations"); !ok {
		return out, false
	}
	if out.an == nil {
		return out, true
	}
	if !isMap(out.an) || len(out.an.Content) == 0 {
		return out, false
	}
	for _, k := range keys {
		v, ok := onlyField(out.an, k)
		if !ok || v != nil && (v.Kind != yaml.ScalarNode || !utf8.ValidString(v.Value)) {
			return out, false
		}
	}
	return out, true
}

// isMap reports a mapping node kyaml does not take for null.
func isMap(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.MappingNode && n.Tag != yaml.NodeTagNull
}

// onlyField is the value of key in mapping m (nil if absent), or false if
// key is there more than once or m's content is not in pairs.
func onlyField(m *yaml.Node, key string) (*yaml.Node, bool) {
	c := m.Content
	if len(c)%2 != 0 {
		return nil, false
	}
	var v *yaml.Node
	for i := 0; i < len(c); i += 2 {
		if c[i].Value == key {
			if v != nil {
				return nil, false
			}
			v = c[i+1]
		}
	}
	return v, true
}

// appendCsv is kustomize's appendCsvAnnotation: it adds value to the
// comma-separated list in annotation key. The node it writes is the one
// SetAnnotation's FieldSetter writes: a single-quoted string when the key is
// new, else the old node overwritten with the new string and the old style.
func (a *csvAnnotations) appendCsv(key, value string) {
	if value == "" {
		return
	}
	if a.an == nil {
		a.an = &yaml.Node{Kind: yaml.MappingNode}
		a.md.Content = append(a.md.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "annotations"}, a.an)
	}
	if old, _ := onlyField(a.an, key); old != nil {
		*old = yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: old.Value + "," + value, Style: old.Style}
		return
	}
	a.an.Content = append(a.an.Content,
		&yaml.Node{Kind: yaml.ScalarNode, Value: key},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: value, Style: yaml.SingleQuotedStyle})
}
