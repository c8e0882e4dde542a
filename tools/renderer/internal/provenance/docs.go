package provenance

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// doc is one document of a resource file.
type doc struct {
	start, end int    // first and last content lines, 1-based, inclusive
	text       []byte // the lines start..end (shares the file's bytes)
	kind       string // top-level kind, as written ("" if not found)
	items      int    // how many resources it yields
}

// splitDocs returns the non-empty documents of a resource file, or false
// when it cannot tell how they map to resources (then the caller uses the
// whole file). kio splits a YAML stream where the regular expression
// `\n---.*\n` matches (after turning CRLF into LF); splitDocs splits
// there too, scanning instead of matching, and slices the file rather
// than copying it (resource files of CRDs run to megabytes).
func splitDocs(content []byte) ([]doc, bool) {
	s := content
	if bytes.Contains(s, []byte("\r\n")) {
		s = bytes.ReplaceAll(s, []byte("\r\n"), []byte("\n"))
	}
	var out []doc
	prev, line := 0, 1
	for {
		end, next := separatorAt(s, prev)
		d, ok, err := docIn(s[prev:end], line)
		if err != nil {
			return nil, false
		}
		if ok {
			out = append(out, d)
		}
		if next < 0 {
			return out, true
		}
		line += bytes.Count(s[prev:next], []byte("\n"))
		prev = next
	}
}

// separatorAt finds the first match of `\n---.*\n` in s at or after from:
// the segment before it ends at end, the next starts at next. With no
// match, end is len(s) and next -1.
func separatorAt(s []byte, from int) (end, next int) {
	k := bytes.Index(s[from:], []byte("\n---"))
	if k < 0 {
		return len(s), -1
	}
	start := from + k
	nl := bytes.IndexByte(s[start+len("\n---"):], '\n')
	if nl < 0 {
		// No newline after it, so no later "\n---" either.
		return len(s), -1
	}
	return start, start + len("\n---") + nl + 1
}

// docIn is the document in seg, a segment between separators starting at
// line: its lines from the first to the last that hold content (not
// blank, a comment, a "---" line or "..."). ok is false when none does.
func docIn(seg []byte, line int) (d doc, ok bool, err error) {
	d.items = 1
	first, last := -1, -1
	var from, to int // byte span of lines first..last
	for i, pos := 0, 0; ; i++ {
		l := seg[pos:]
		nl := bytes.IndexByte(l, '\n')
		if nl >= 0 {
			l = l[:nl]
		}
		t := bytes.TrimSpace(l)
		if !(len(t) == 0 || t[0] == '#' || bytes.HasPrefix(l, []byte("---")) || string(t) == "...") {
			if first < 0 {
				first, from = i, pos
			}
			last, to = i, pos+len(l)
			if d.kind == "" && bytes.HasPrefix(l, []byte("kind:")) {
				d.kind = scalarText(string(l[len("kind:"):]))
			}
		}
		if nl < 0 {
			break
		}
		pos += nl + 1
	}
	if first < 0 {
		return doc{}, false, nil
	}
	d.start, d.end = line+first, line+last
	d.text = seg[from:to]
	if strings.HasSuffix(d.kind, "List") {
		n, ok := listItems(string(d.text))
		if !ok {
			return doc{}, false, errNotPlaced
		}
		d.items = n
	}
	return d, true, nil
}

var errNotPlaced = errors.New("documents cannot be matched with resources")

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
		if sha(d.text) == docSha {
			return true
		}
	}
	return false
}
