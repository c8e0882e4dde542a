package provmanifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
)

// Document is one document of a resource file: an origin's line span and
// its sha256 (of Text) are those of one.
type Document struct {
	Start, End int    // first and last content lines, 1-based, inclusive
	Text       []byte // the lines Start..End (shares the file's bytes)
	Kind       string // top-level kind, as written ("" if not found)
	Items      int    // how many resources it yields
}

// Documents returns the non-empty documents of a resource file, or false
// when it cannot tell how they map to resources (then an origin names the
// whole file). It splits the file where kio does (yamlnode.NextSeparator,
// after turning CRLF into LF) and slices it rather than copying it
// (resource files of CRDs run to megabytes).
func Documents(content []byte) ([]Document, bool) {
	s := content
	if bytes.Contains(s, []byte("\r\n")) {
		s = bytes.ReplaceAll(s, []byte("\r\n"), []byte("\n"))
	}
	var out []Document
	prev, line := 0, 1
	for {
		end, next := yamlnode.NextSeparator(s, prev)
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

// docIn is the document in seg, a segment between separators starting at
// line: its lines from the first to the last that hold content (not
// blank, a comment, a "---" line or "..."). ok is false when none does.
func docIn(seg []byte, line int) (d Document, ok bool, err error) {
	d.Items = 1
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
			if d.Kind == "" && bytes.HasPrefix(l, []byte("kind:")) {
				d.Kind = scalarText(string(l[len("kind:"):]))
			}
		}
		if nl < 0 {
			break
		}
		pos += nl + 1
	}
	if first < 0 {
		return Document{}, false, nil
	}
	d.Start, d.End = line+first, line+last
	d.Text = seg[from:to]
	if strings.HasSuffix(d.Kind, "List") {
		n, ok := listItems(string(d.Text))
		if !ok {
			return Document{}, false, errNotPlaced
		}
		d.Items = n
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

// Sha256 is the hex sha256 of b, as the manifest writes hashes.
func Sha256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// HasDocument reports whether the resource file content holds a document
// whose hash (as recorded in an origin) is docSha.
func HasDocument(content []byte, docSha string) bool {
	docs, _ := Documents(content)
	for _, d := range docs {
		if Sha256(d.Text) == docSha {
			return true
		}
	}
	return false
}
