package printer

import (
	"bytes"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Annotation is a metadata annotation WithAnnotations adds to an object as
// it prints it.
type Annotation struct{ Key, Value string }

// WithAnnotations prints r with ann added to its annotations: exactly the bytes
// of setting them on r and printing it, for which it falls back when
// splice declines (r is then changed). Lines printed before are taken
// from seen (when not nil), and new ones added.
func WithAnnotations(r *resource.Resource, ann []Annotation, seen Entries) ([]byte, error) {
	if !slices.IsSortedFunc(ann, byKey) {
		ann = slices.Clone(ann)
		slices.SortStableFunc(ann, byKey) // of one key, the last set wins
	}
	out, err := objectWith(r, func(y []byte) ([]byte, bool) { return splice(y, ann, seen) })
	if err != errDeclined {
		return out, err
	}
	for _, a := range ann {
		if err := r.PipeE(yaml.SetAnnotation(a.Key, a.Value)); err != nil {
			return nil, err
		}
	}
	return Object(r)
}

func byKey(a, b Annotation) int {
	switch {
	case a.Key == b.Key:
		return 0
	case keyLess(a.Key, b.Key):
		return -1
	}
	return 1
}

// splice inserts ann (sorted by key) into y, one object as printed: the
// lines of the annotations are printed by the printer itself, where the
// printer puts them among metadata's keys. It reports false, leaving the
// work to setting the annotations and printing again, whenever y is not
// laid out as it expects, an annotation is already there or comes twice.
func splice(y []byte, ann []Annotation, seen Entries) ([]byte, bool) {
	for i := 1; i < len(ann); i++ {
		if ann[i].Key == ann[i-1].Key {
			return nil, false // the last one set wins
		}
	}
	pos := 0
	if !bytes.HasPrefix(y, []byte("metadata:\n")) {
		i := bytes.Index(y, []byte("\nmetadata:\n"))
		if i < 0 {
			return nil, false
		}
		pos = i + 1
	}
	pos += len("metadata:\n")
	size := len(y) + len("  annotations:\n")
	for _, a := range ann {
		size += len("    : \n''") + len(a.Key) + len(a.Value)
	}
	// Walk the children of metadata (indentation 2).
	for at := pos; ; {
		line, next := lineAt(y, at)
		ind := indent(line)
		if at >= len(y) || (len(line) > 0 && ind < 2) {
			// End of metadata: annotations go last.
			return spliceMap(y, at, ann, size, seen)
		}
		if len(line) > 0 && ind == 2 && line[2] != '-' {
			key, ok := plainKey(line[2:])
			if !ok {
				return nil, false
			}
			if string(key) == "annotations" {
				if string(line) != "  annotations:" {
					return nil, false // e.g. "annotations: {}"
				}
				return spliceEntries(y, next, ann, size, seen)
			}
			if keyLess("annotations", string(key)) {
				return spliceMap(y, at, ann, size, seen)
			}
		}
		at = next
	}
}

// spliceMap inserts an annotations map holding ann into y at at.
func spliceMap(y []byte, at int, ann []Annotation, size int, seen Entries) ([]byte, bool) {
	out := make([]byte, 0, size)
	out = append(out, y[:at]...)
	out = append(out, "  annotations:\n"...)
	for _, a := range ann {
		var ok bool
		if out, ok = seen.appendEntry(out, a); !ok {
			return nil, false
		}
	}
	return append(out, y[at:]...), true
}

// spliceEntries inserts ann among the annotation entries starting at at.
func spliceEntries(y []byte, at int, ann []Annotation, size int, seen Entries) ([]byte, bool) {
	out := make([]byte, 0, size)
	out = append(out, y[:at]...)
	k := 0
	ok := true
	for at < len(y) {
		line, next := lineAt(y, at)
		ind := indent(line)
		if len(line) > 0 && ind < 4 {
			break
		}
		if len(line) > 0 && ind == 4 {
			key, plain := plainKey(line[4:])
			if !plain {
				return nil, false
			}
			for ; k < len(ann) && keyLess(ann[k].Key, string(key)); k++ {
				if out, ok = seen.appendEntry(out, ann[k]); !ok {
					return nil, false
				}
			}
			if k < len(ann) && ann[k].Key == string(key) {
				return nil, false // already annotated: setting it overwrites
			}
		}
		out = append(out, y[at:next]...)
		at = next
	}
	for ; k < len(ann); k++ {
		if out, ok = seen.appendEntry(out, ann[k]); !ok {
			return nil, false
		}
	}
	return append(out, y[at:]...), true
}

// Entries are the printed lines of annotations: objects share most values
// (a base's copies their origin, a kustomization's objects their list of
// transformers), which are printed once per goroutine that prints (printing
// JSON costs ten times what copying the line does). One goroutine's: a map.
type Entries map[Annotation][]byte

// appendEntry appends the line(s) of annotation a as the printer prints an
// entry of a mapping at indentation 4. It declines a value printed as a
// block scalar (its end depends on what follows).
func (seen Entries) appendEntry(out []byte, a Annotation) ([]byte, bool) {
	if b, ok := seen[a]; ok {
		return append(out, b...), true
	}
	start := len(out)
	out, ok := printEntry(out, a)
	if ok && seen != nil && a.Value != "" && !simpleText(a.Value) {
		// Simple text (a digest, unique to its object) prints fast.
		seen[a] = bytes.Clone(out[start:])
	}
	return out, ok
}

func printEntry(out []byte, a Annotation) ([]byte, bool) {
	p := printer{out: out, whitespace: true, indention: true}
	p.writeIndent(4)
	if !p.scalar(scalarValue{text: a.Key}, 6, true) {
		return nil, false
	}
	p.indicator(":", false, false, false)
	if !p.scalar(scalarValue{text: a.Value}, 6, false) || p.column == 0 {
		return nil, false
	}
	return append(p.out, '\n'), true
}

// lineAt returns the line starting at at (without its newline) and where
// the next one starts.
func lineAt(s []byte, at int) ([]byte, int) {
	if at >= len(s) {
		return nil, len(s)
	}
	i := bytes.IndexByte(s[at:], '\n')
	if i < 0 {
		return s[at:], len(s)
	}
	return s[at : at+i], at + i + 1
}

func indent(line []byte) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}

// plainKey is the key of a "key: value" or "key:" line printed as a plain
// scalar; false for quoted or explicit ("? ") keys.
func plainKey(rest []byte) ([]byte, bool) {
	if len(rest) == 0 || strings.IndexByte(`"'?-{[&*!|>%@`+"`", rest[0]) >= 0 {
		return nil, false
	}
	if i := bytes.Index(rest, []byte(": ")); i >= 0 {
		return rest[:i], true
	}
	if bytes.HasSuffix(rest, []byte(":")) {
		return rest[:len(rest)-1], true
	}
	return nil, false
}
