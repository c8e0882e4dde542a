package provenance

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// kio splits a YAML stream at any line starting with "---" (after turning
// CRLF into LF); doc mirrors that split to find where each document is.
var separator = regexp.MustCompile(`\n---.*\n`)

// doc is one document of a resource file.
type doc struct {
	start, end int    // first and last content lines, 1-based, inclusive
	text       string // the lines start..end
	kind       string // top-level kind, as written ("" if not found)
	items      int    // how many resources it yields
}

// splitDocs returns the non-empty documents of a resource file, or false
// when it cannot tell how they map to resources (then the caller uses the
// whole file).
func splitDocs(content []byte) ([]doc, bool) {
	s := strings.ReplaceAll(string(content), "\r\n", "\n")
	var segs []struct {
		text string
		line int
	}
	prev, line := 0, 1
	for _, loc := range separator.FindAllStringIndex(s, -1) {
		segs = append(segs, struct {
			text string
			line int
		}{s[prev:loc[0]], line})
		line += strings.Count(s[prev:loc[1]], "\n")
		prev = loc[1]
	}
	segs = append(segs, struct {
		text string
		line int
	}{s[prev:], line})
	var out []doc
	for _, seg := range segs {
		lines := strings.Split(seg.text, "\n")
		first, last := -1, -1
		d := doc{items: 1}
		for i, l := range lines {
			t := strings.TrimSpace(l)
			if t == "" || t[0] == '#' || strings.HasPrefix(l, "---") || t == "..." {
				continue
			}
			if first < 0 {
				first = i
			}
			last = i
			if d.kind == "" && strings.HasPrefix(l, "kind:") {
				d.kind = scalarText(l[len("kind:"):])
			}
		}
		if first < 0 {
			continue
		}
		d.start, d.end = seg.line+first, seg.line+last
		d.text = strings.Join(lines[first:last+1], "\n")
		if strings.HasSuffix(d.kind, "List") {
			n, ok := listItems(d.text)
			if !ok {
				return nil, false
			}
			d.items = n
		}
		out = append(out, d)
	}
	return out, true
}

// scalarText is the value of a one-line scalar as written after a key.
func scalarText(v string) string {
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	return strings.Trim(strings.TrimSpace(v), `"'`)
}

// listItems counts the resources kustomize takes from a *List document.
func listItems(text string) (int, bool) {
	n, err := yaml.Parse(text)
	if err != nil {
		return 0, false
	}
	items := n.Field("items")
	if items == nil {
		return 1, true // not a collection: kept as one resource
	}
	if items.Value == nil || yaml.IsMissingOrNull(items.Value) {
		return 0, true
	}
	if items.Value.YNode().Kind != yaml.SequenceNode {
		return 0, false
	}
	return len(items.Value.Content()), true
}

// place maps the resources read from one file to their documents. It
// returns nil when the mapping is not certain.
func place(res []*resource.Resource, docs []doc) []*doc {
	out := make([]*doc, 0, len(res))
	for i := range docs {
		for j := 0; j < docs[i].items; j++ {
			out = append(out, &docs[i])
		}
	}
	if len(out) != len(res) {
		return nil
	}
	for i, r := range res {
		d := out[i]
		if d.items == 1 && !strings.HasSuffix(d.kind, "List") && d.kind != "" && d.kind != r.GetKind() {
			return nil
		}
	}
	return out
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func shaString(s string) string { return sha([]byte(s)) }

// IsSecret reports whether r is a core Secret, whose data provenance never
// hashes.
func IsSecret(r *resource.Resource) bool {
	return r.GetKind() == "Secret" && r.GetGvk().Group == ""
}

// redactedSha hashes r with every value under data and stringData
// blanked, so that nothing secret enters the hash.
func redactedSha(r *resource.Resource) string {
	n := r.RNode.Copy()
	for _, f := range []string{"data", "stringData"} {
		m := n.Field(f)
		if m == nil || m.Value == nil {
			continue
		}
		v := m.Value.YNode()
		if v.Kind != yaml.MappingNode {
			*v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str"}
			continue
		}
		for i := 1; i < len(v.Content); i += 2 {
			v.Content[i] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str"}
		}
	}
	s, err := n.String()
	if err != nil {
		return ""
	}
	return shaString(s)
}

// nodeSha hashes one resource as parsed (used for items of List documents).
func nodeSha(r *resource.Resource) string {
	if IsSecret(r) {
		return redactedSha(r)
	}
	s, err := r.RNode.String()
	if err != nil {
		return ""
	}
	return shaString(s)
}

// Sha256 is the hex sha256 of b.
func Sha256(b []byte) string { return sha(b) }

// HasDocument reports whether the resource file content holds a document
// whose hash (as recorded in an origin) is docSha.
func HasDocument(content []byte, docSha string) bool {
	docs, _ := splitDocs(content)
	for _, d := range docs {
		if shaString(d.text) == docSha {
			return true
		}
	}
	return false
}
