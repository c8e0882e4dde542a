package provenance

import (
	"strings"
	"unicode"
)

// splice adds annotations (sorted by key) to y, one object as kustomize
// prints it (sigs.k8s.io/yaml: keys sorted the way yaml.v2 sorts them,
// two-space indentation, sequences at their key's indentation), so that the
// result is byte for byte what printing the object with the annotations set
// gives. It reports false, leaving the work to the slow path, whenever y or
// the values are not of the simple shape it knows how to print.
func splice(y []byte, ann []annotation) ([]byte, bool) {
	var lines []string
	for _, a := range ann {
		v, ok := plainOrSingleQuoted(a.value)
		if !ok {
			return nil, false
		}
		lines = append(lines, "    "+a.key+": "+v+"\n")
	}
	s := string(y)
	pos := 0
	if !strings.HasPrefix(s, "metadata:\n") {
		i := strings.Index(s, "\nmetadata:\n")
		if i < 0 {
			return nil, false
		}
		pos = i + 1
	}
	pos += len("metadata:\n")
	// Walk the children of metadata (indentation 2).
	for at := pos; ; {
		line, next := lineAt(s, at)
		ind := indent(line)
		if at >= len(s) || (line != "" && ind < 2) {
			// End of metadata: annotations go last.
			return join(s, at, "  annotations:\n"+strings.Join(lines, "")), true
		}
		if line != "" && ind == 2 && line[2] != '-' {
			key, ok := plainKey(line[2:])
			if !ok {
				return nil, false
			}
			if key == "annotations" {
				if line != "  annotations:" {
					return nil, false // e.g. "annotations: {}"
				}
				return spliceEntries(s, next, ann, lines)
			}
			if yamlLess("annotations", key) {
				return join(s, at, "  annotations:\n"+strings.Join(lines, "")), true
			}
		}
		at = next
	}
}

// spliceEntries inserts lines among the annotation entries starting at at.
func spliceEntries(s string, at int, ann []annotation, lines []string) ([]byte, bool) {
	var b strings.Builder
	b.Grow(len(s) + 512)
	b.WriteString(s[:at])
	k := 0
	for at < len(s) {
		line, next := lineAt(s, at)
		ind := indent(line)
		if line != "" && ind < 4 {
			break
		}
		if line != "" && ind == 4 {
			key, ok := plainKey(line[4:])
			if !ok {
				return nil, false
			}
			for k < len(ann) && yamlLess(ann[k].key, key) {
				b.WriteString(lines[k])
				k++
			}
			if k < len(ann) && ann[k].key == key {
				return nil, false // already annotated: let the slow path overwrite
			}
		}
		b.WriteString(s[at:next])
		at = next
	}
	for ; k < len(lines); k++ {
		b.WriteString(lines[k])
	}
	b.WriteString(s[at:])
	return []byte(b.String()), true
}

// join inserts insert into s at at.
func join(s string, at int, insert string) []byte {
	out := make([]byte, 0, len(s)+len(insert))
	out = append(out, s[:at]...)
	out = append(out, insert...)
	return append(out, s[at:]...)
}

// lineAt returns the line starting at at (without its newline) and where
// the next one starts.
func lineAt(s string, at int) (string, int) {
	if at >= len(s) {
		return "", len(s)
	}
	i := strings.IndexByte(s[at:], '\n')
	if i < 0 {
		return s[at:], len(s)
	}
	return s[at : at+i], at + i + 1
}

func indent(line string) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}

// plainKey is the key of a "key: value" or "key:" line printed as a plain
// scalar; false for quoted or explicit ("? ") keys.
func plainKey(rest string) (string, bool) {
	if rest == "" || strings.ContainsRune(`"'?-{[&*!|>%@`+"`", rune(rest[0])) {
		return "", false
	}
	if i := strings.Index(rest, ": "); i >= 0 {
		return rest[:i], true
	}
	if strings.HasSuffix(rest, ":") {
		return rest[:len(rest)-1], true
	}
	return "", false
}

// plainOrSingleQuoted prints v as yaml.v2 does in block context, for the
// values provenance writes: a sha256:HEX digest plain, JSON single-quoted.
// It declines anything else (spaces, which yaml.v2 may fold at; quotes;
// non-ASCII).
func plainOrSingleQuoted(v string) (string, bool) {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c <= ' ' || c >= 0x7f || c == '\'' {
			return "", false
		}
	}
	if strings.HasPrefix(v, "sha256:") && len(v) == len("sha256:")+64 {
		for _, c := range v[len("sha256:"):] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return "", false
			}
		}
		return v, true
	}
	if strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[") {
		return "'" + v + "'", true
	}
	return "", false
}

// yamlLess is yaml.v2's ordering of string map keys (sorter.go), which
// sigs.k8s.io/yaml output follows.
func yamlLess(a, b string) bool {
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
