package provenance

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// splice adds annotations (sorted by key) to y, one object as kustomize
// prints it (sigs.k8s.io/yaml: keys sorted the way yaml.v2 sorts them,
// two-space indentation, sequences at their key's indentation), so that the
// result is byte for byte what printing the object with the annotations set
// gives. It reports false, leaving the work to the slow path, whenever y or
// the values are not of the simple shape it knows how to print.
func splice(y []byte, ann []annotation) ([]byte, bool) {
	var quoted [8]bool
	if len(ann) > len(quoted) {
		return nil, false
	}
	size := len(y) + len("  annotations:\n")
	for k, a := range ann {
		st := a.style
		if st == styleUnknown {
			st = styleOf(a.value)
		}
		if st == styleNeither {
			return nil, false
		}
		quoted[k] = st == styleQuoted
		size += len("    : \n''") + len(a.key) + len(a.value)
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
	// Walk the children of metadata (indentation 2).
	for at := pos; ; {
		line, next := lineAt(y, at)
		ind := indent(line)
		if at >= len(y) || (len(line) > 0 && ind < 2) {
			// End of metadata: annotations go last.
			return spliceMap(y, at, ann, quoted[:], size), true
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
				return spliceEntries(y, next, ann, quoted[:], size)
			}
			if yamlLess("annotations", string(key)) {
				return spliceMap(y, at, ann, quoted[:], size), true
			}
		}
		at = next
	}
}

// spliceMap inserts an annotations map holding ann into y at at.
func spliceMap(y []byte, at int, ann []annotation, quoted []bool, size int) []byte {
	out := make([]byte, 0, size)
	out = append(out, y[:at]...)
	out = append(out, "  annotations:\n"...)
	for k, a := range ann {
		out = appendEntry(out, a, quoted[k])
	}
	return append(out, y[at:]...)
}

// spliceEntries inserts ann among the annotation entries starting at at.
func spliceEntries(y []byte, at int, ann []annotation, quoted []bool, size int) ([]byte, bool) {
	out := make([]byte, 0, size)
	out = append(out, y[:at]...)
	k := 0
	for at < len(y) {
		line, next := lineAt(y, at)
		ind := indent(line)
		if len(line) > 0 && ind < 4 {
			break
		}
		if len(line) > 0 && ind == 4 {
			key, ok := plainKey(line[4:])
			if !ok {
				return nil, false
			}
			for k < len(ann) && yamlLess(ann[k].key, string(key)) {
				out = appendEntry(out, ann[k], quoted[k])
				k++
			}
			if k < len(ann) && ann[k].key == string(key) {
				return nil, false // already annotated: let the slow path overwrite
			}
		}
		out = append(out, y[at:next]...)
		at = next
	}
	for ; k < len(ann); k++ {
		out = appendEntry(out, ann[k], quoted[k])
	}
	return append(out, y[at:]...), true
}

// appendEntry appends the line of annotation a, its value single-quoted
// if quoted.
func appendEntry(out []byte, a annotation, quoted bool) []byte {
	out = append(out, "    "...)
	out = append(out, a.key...)
	out = append(out, ": "...)
	if !quoted {
		out = append(out, a.value...)
		return append(out, '\n')
	}
	out = append(out, '\'')
	out = append(out, a.value...)
	return append(out, "'\n"...)
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

// plainOrSingleQuoted says how yaml.v2 prints v in block context, for the
// values provenance writes: a sha256:HEX digest plain, JSON single-quoted.
// It declines anything else (spaces, which yaml.v2 may fold at; quotes;
// non-ASCII).
func plainOrSingleQuoted(v string) (quoted, ok bool) {
	for i := 0; i < len(v); i++ {
		if unsplicable[v[i]] {
			return false, false
		}
	}
	if strings.HasPrefix(v, "sha256:") && len(v) == len("sha256:")+64 {
		for _, c := range v[len("sha256:"):] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false, false
			}
		}
		return false, true
	}
	if strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[") {
		return true, true
	}
	return false, false
}

// unsplicable are the bytes plainOrSingleQuoted declines.
var unsplicable = func() (t [256]bool) {
	for c := range t {
		t[c] = c <= ' ' || c >= 0x7f || c == '\''
	}
	return t
}()

// yamlLess is yaml.v2's ordering of string map keys (sorter.go), which
// sigs.k8s.io/yaml output follows.
func yamlLess(a, b string) bool {
	// Most keys differ first at an ASCII letter or punctuation, where the
	// order is that of the bytes (letters before other characters).
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return len(a) < len(b)
	}
	if ca, cb := a[i], b[i]; ca < utf8.RuneSelf && cb < utf8.RuneSelf && !isDigit(ca) && !isDigit(cb) {
		al, bl := isLetter(ca), isLetter(cb)
		if al != bl {
			return bl
		}
		return ca < cb
	}
	ar, br := []rune(a), []rune(b)
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		al := unicode.IsLetter(ar[i])
		bl := unicode.IsLetter(br[i])
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			return bl
		}
		var ai, bi int
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an = 1
					bn = 1
					break
				}
			}
		}
		for ai = i; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for bi = i; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
