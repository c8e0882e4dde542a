// Package printer writes objects as the bytes `kustomize build` prints for
// them (go-yaml v2's output after kustomize's JSON round trip), straight
// from their nodes where that is proved the same, through kustomize's own
// path elsewhere; and prints annotations into an object already printed.
package printer

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// printer writes a node as go-yaml v2 marshals the value plainValue builds
// from it (the bytes kustomize prints), without building that value: block
// style, 2-space indents, sequences in mappings not indented, keys in
// go-yaml v2's order, scalars in the style its emitter picks, plain and
// quoted scalars folded past column 80. Whatever it is not certain to print
// the same way (very long or multi-line keys, control characters, `|+`
// scalars, key orders that are not strict) makes it give up, and the caller
// takes the slower path.
type printer struct {
	out    []byte
	column int
	// whitespace: the last thing written was whitespace (or nothing);
	// indention: only indentation so far on this line (go-yaml's flags).
	whitespace, indention bool
	keys                  []mapKey
	// depth counts the collections being printed, up to maxDepth.
	depth int
}

// bestWidth is where go-yaml v2 folds long scalars.
const bestWidth = 80

// printNode prints n (a mapping) as a YAML document, or reports false.
func printNode(n *yaml.Node, out []byte) ([]byte, bool) {
	p := printer{out: out, whitespace: true, indention: true}
	if !p.node(n, false, -1, false) {
		return nil, false
	}
	p.writeIndent(0) // the document end
	return p.out, true
}

// node prints n; indent is the enclosing collection's indentation (-1 at
// the root), inMapping says n is a mapping value, inFlow that n was read
// from a flow collection (which changes how an empty scalar reads back).
func (p *printer) node(n *yaml.Node, inFlow bool, indent int, inMapping bool) bool {
	if n.Anchor != "" {
		return false
	}
	inFlow = inFlow || n.Style&yaml.FlowStyle != 0
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		if p.depth++; p.depth > maxDepth {
			return false
		}
		var ok bool
		if n.Kind == yaml.MappingNode {
			ok = p.mapping(n, inFlow, indent)
		} else {
			ok = p.sequence(n, inFlow, indent, inMapping)
		}
		p.depth--
		return ok
	case yaml.ScalarNode:
		if inFlow && n.Value == "" && n.Style&quotedStyles == 0 {
			return false // see plainValue
		}
		v, ok := scalarOf(n, false)
		return ok && p.scalar(v, indent+2, false)
	}
	return false
}

func (p *printer) mapping(n *yaml.Node, inFlow bool, indent int) bool {
	if len(n.Content)%2 != 0 {
		return false
	}
	if len(n.Content) == 0 {
		p.indicator("{", true, true, false)
		p.indicator("}", false, false, false)
		return true
	}
	// keys live on a stack shared by the nested mappings.
	start := len(p.keys)
	defer func() { p.keys = p.keys[:start] }()
	for range len(n.Content) / 2 {
		p.keys = append(p.keys, mapKey{})
	}
	keys := p.keys[start:]
	for i := range keys {
		k := n.Content[2*i]
		if k.Kind != yaml.ScalarNode || k.Anchor != "" || k.Value == "<<" {
			return false
		}
		v, ok := scalarOf(k, true)
		if !ok || len(v.text) > 128 {
			// A key longer than 128 bytes is printed as a complex key.
			return false
		}
		keys[i] = mapKey{v.text, n.Content[2*i+1]}
	}
	if len(keys) > 1 {
		slices.SortFunc(keys, func(a, b mapKey) int {
			if keyLess(a.key, b.key) {
				return -1
			}
			return 1 // equal keys are refused below
		})
		if !strictOrder(keys) {
			return false
		}
	}
	inner := deeper(indent)
	for _, k := range keys {
		p.writeIndent(inner)
		if !p.scalar(scalarValue{text: k.key}, inner+2, true) {
			return false
		}
		p.indicator(":", false, false, false)
		if !p.node(k.value, inFlow, inner, true) {
			return false
		}
	}
	return true
}

// strictOrder reports that sorted keys are in an order every comparison
// sort reaches: no duplicates, and no cycle. Without digits go-yaml v2's
// order is a total one, so neighbours are enough; digits can make cycles
// ("a1b" < "a01b" < "a9" < "a10" < "a1b"), where its output depends on map
// iteration order, so every pair is checked (up to a size).
func strictOrder(keys []mapKey) bool {
	digits := false
	for i, k := range keys {
		if i > 0 && (!keyLess(keys[i-1].key, k.key) || keyLess(k.key, keys[i-1].key)) {
			return false
		}
		digits = digits || strings.ContainsAny(k.key, "0123456789")
	}
	if !digits {
		return true
	}
	if len(keys) > 64 {
		return false
	}
	for i := range keys {
		for j := i + 2; j < len(keys); j++ {
			if !keyLess(keys[i].key, keys[j].key) || keyLess(keys[j].key, keys[i].key) {
				return false
			}
		}
	}
	return true
}

// deeper is the indentation of a block collection inside one at indent.
func deeper(indent int) int {
	if indent < 0 {
		return 0
	}
	return indent + 2
}

type mapKey struct {
	key   string
	value *yaml.Node
}

func (p *printer) sequence(n *yaml.Node, inFlow bool, indent int, inMapping bool) bool {
	if len(n.Content) == 0 {
		p.indicator("[", true, true, false)
		p.indicator("]", false, false, false)
		return true
	}
	inner := deeper(indent)
	if inMapping && !p.indention && indent >= 0 {
		inner = indent // go-yaml v2 does not indent a sequence in a mapping
	}
	for _, c := range n.Content {
		p.writeIndent(inner)
		p.indicator("-", true, false, true)
		if !p.node(c, inFlow, inner, false) {
			return false
		}
	}
	return true
}

// Scalar styles, as go-yaml v2 chooses among them.
const (
	stylePlain = iota
	styleSingle
	styleDouble
	styleLiteral
)

// scalar prints v; indent is the indentation of its continuation lines.
func (p *printer) scalar(v scalarValue, indent int, simpleKey bool) bool {
	s := v.text
	style := stylePlain
	if v.kind == kindString {
		switch {
		case strings.IndexByte(s, '\n') >= 0:
			style = styleLiteral
		case !plainIsString(s):
			style = styleDouble
		}
	}
	a, ok := analyze(s)
	if !ok {
		return false
	}
	if simpleKey && a.multiline {
		return false // printed as a complex key
	}
	if style == stylePlain && (!a.blockPlain || (s == "" && simpleKey)) {
		style = styleSingle
	}
	if style == styleSingle && !a.singleQuoted {
		style = styleDouble
	}
	if style == styleLiteral && (!a.block || simpleKey) {
		style = styleDouble
	}
	breaks := !simpleKey
	switch style {
	case stylePlain:
		if !p.whitespace {
			p.put(' ')
		}
		p.folded(s, indent, breaks, false)
		p.whitespace, p.indention = false, false
	case styleSingle:
		p.indicator("'", true, false, false)
		p.folded(s, indent, breaks, true)
		p.indicator("'", false, false, false)
		p.whitespace, p.indention = false, false
	case styleDouble:
		p.indicator(`"`, true, false, false)
		p.doubleQuoted(s, indent, breaks)
		p.indicator(`"`, false, false, false)
		p.whitespace, p.indention = false, false
	case styleLiteral:
		return p.literal(s, indent)
	}
	return true
}

// folded writes the text of a plain or single-quoted scalar (analyze has
// sent every scalar with a line break elsewhere): a space past bestWidth
// becomes a line break, except where the style forbids it; a single-quoted
// scalar doubles its quotes.
func (p *printer) folded(s string, indent int, breaks, single bool) {
	if (!breaks || p.column+len(s) <= bestWidth || strings.IndexByte(s, ' ') < 0) && (!single || strings.IndexByte(s, '\'') < 0) {
		// No space can be past bestWidth (len counts bytes, at least one
		// per character) and no quote to double.
		p.out = append(p.out, s...)
		p.column += utf8.RuneCountInString(s)
		p.indention = p.indention && s == ""
		return
	}
	spaces := false
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			canBreak := i+1 < len(s) && s[i+1] != ' ' && (!single || i > 0)
			if breaks && !spaces && p.column > bestWidth && canBreak {
				p.writeIndent(indent)
			} else {
				p.put(' ')
			}
			i++
			spaces = true
			continue
		}
		if single && s[i] == '\'' {
			p.put('\'')
		}
		i = p.char(s, i)
		p.indention = false
		spaces = false
	}
}

// char copies the character at s[i] and returns the index after it.
func (p *printer) char(s string, i int) int {
	if s[i] < utf8.RuneSelf {
		p.out = append(p.out, s[i])
		p.column++
		return i + 1
	}
	_, w := utf8.DecodeRuneInString(s[i:])
	p.out = append(p.out, s[i:i+w]...)
	p.column++
	return i + w
}

func (p *printer) doubleQuoted(s string, indent int, breaks bool) {
	spaces := false
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case needsEscape(r):
			p.escape(r)
			i += w
			spaces = false
		case r == ' ':
			if breaks && !spaces && p.column > bestWidth && i > 0 && i < len(s)-1 {
				p.writeIndent(indent)
				if s[i+1] == ' ' {
					p.put('\\')
				}
			} else {
				p.put(' ')
			}
			i++
			spaces = true
		default:
			i = p.char(s, i)
			spaces = false
		}
	}
}

// needsEscape: what go-yaml v2 escapes in a double-quoted scalar.
func needsEscape(r rune) bool {
	return !printable(r) || r == 0xFEFF || isBreak(r) || r == '"' || r == '\\'
}

func (p *printer) escape(r rune) {
	p.put('\\')
	if c, ok := shortEscapes[r]; ok {
		p.put(c)
		return
	}
	digits, c := 2, byte('x')
	switch {
	case r > 0xFFFF:
		digits, c = 8, 'U'
	case r > 0xFF:
		digits, c = 4, 'u'
	}
	p.put(c)
	for k := (digits - 1) * 4; k >= 0; k -= 4 {
		p.put("0123456789ABCDEF"[(r>>uint(k))&0xF])
	}
}

var shortEscapes = map[rune]byte{
	0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0A: 'n', 0x0B: 'v', 0x0C: 'f', 0x0D: 'r',
	0x1B: 'e', '"': '"', '\\': '\\', 0x85: 'N', 0xA0: '_', 0x2028: 'L', 0x2029: 'P',
}

// literal writes a `|` block scalar (analyze has made sure its only breaks
// are '\n').
func (p *printer) literal(s string, indent int) bool {
	p.indicator("|", true, false, false)
	if s[0] == ' ' || s[0] == '\n' {
		p.indicator("2", false, false, false)
	}
	switch {
	case s[len(s)-1] != '\n':
		p.indicator("-", false, false, false)
	case len(s) == 1 || s[len(s)-2] == '\n':
		// `|+` leaves the document open-ended, which changes how it ends.
		return false
	}
	p.out = append(p.out, '\n')
	p.column = 0
	p.indention, p.whitespace = true, true
	lineStart := true
	for i := 0; i < len(s); {
		if s[i] == '\n' {
			p.out = append(p.out, '\n')
			p.column = 0
			p.indention = true
			lineStart = true
			i++
			continue
		}
		if lineStart {
			p.writeIndent(indent)
		}
		i = p.char(s, i)
		p.indention = false
		lineStart = false
	}
	return true
}

func (p *printer) put(c byte) {
	p.out = append(p.out, c)
	p.column++
}

// writeIndent starts a line at indent unless already there.
func (p *printer) writeIndent(indent int) {
	if !p.indention || p.column > indent || (p.column == indent && !p.whitespace) {
		p.out = append(p.out, '\n')
		p.column = 0
	}
	for p.column < indent {
		n := min(indent-p.column, len(spaces))
		p.out = append(p.out, spaces[:n]...)
		p.column += n
	}
	p.whitespace, p.indention = true, true
}

const spaces = "                                                                "

// indicator writes an ASCII indicator as go-yaml v2's emitter does.
func (p *printer) indicator(s string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !p.whitespace {
		p.put(' ')
	}
	p.out = append(p.out, s...)
	p.column += len(s)
	p.whitespace = isWhitespace
	p.indention = p.indention && isIndention
}

// analysis is what go-yaml v2's emitter concludes about a scalar's text:
// which styles can print it.
type analysis struct {
	multiline, blockPlain, singleQuoted, block bool
}

// analyze reads s as go-yaml v2's emitter does (with unicode output on),
// or reports false for text with line breaks other than '\n'.
func analyze(s string) (analysis, bool) {
	if s == "" {
		return analysis{blockPlain: true, singleQuoted: true}, true
	}
	if simpleText(s) {
		return simpleAnalysis, true
	}
	if spaceless(s) {
		return analyzeSpaceless(s), true
	}
	return analyzeText(s)
}

// spaceless reports printable ASCII text without spaces (JSON, say).
func spaceless(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7F {
			return false
		}
	}
	return true
}

// analyzeSpaceless is analyzeText for spaceless text: with no whitespace,
// breaks or special characters, only its indicators matter.
func analyzeSpaceless(s string) analysis {
	indicators := strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") ||
		strings.IndexByte("#,[]{}&*!|>'\"%@`", s[0]) >= 0 ||
		(len(s) == 1 && strings.IndexByte("?:-", s[0]) >= 0) || s[len(s)-1] == ':'
	return analysis{blockPlain: !indicators, singleQuoted: true, block: true}
}

// simpleAnalysis is analyze's result for simpleText.
var simpleAnalysis = analysis{blockPlain: true, singleQuoted: true, block: true}

// analyzeText is analyze for non-empty text, character by character.
func analyzeText(s string) (analysis, bool) {
	var blockIndicators, lineBreaks, special bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		blockIndicators = true
	}
	precededByWhitespace, previousSpace, previousBreak := true, false, false
	for i := 0; i < len(s); {
		r, w := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(s[i:])
		}
		last := i+w == len(s)
		followedByWhitespace := last || s[i+w] == ' ' || s[i+w] == '\t'
		if i == 0 {
			switch r {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				blockIndicators = true
			case '?', ':', '-':
				if followedByWhitespace {
					blockIndicators = true
				}
			}
		} else {
			switch r {
			case ':':
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					blockIndicators = true
				}
			}
		}
		if !printable(r) {
			special = true
		}
		switch {
		case r == ' ':
			leadingSpace = leadingSpace || i == 0
			trailingSpace = trailingSpace || last
			breakSpace = breakSpace || previousBreak
			previousSpace, previousBreak = true, false
		case isBreak(r):
			if r != '\n' {
				return analysis{}, false
			}
			lineBreaks = true
			leadingBreak = leadingBreak || i == 0
			trailingBreak = trailingBreak || last
			spaceBreak = spaceBreak || previousSpace
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = r == ' ' || r == '\t' || isBreak(r) || r == 0
		i += w
	}
	a := analysis{multiline: lineBreaks, blockPlain: true, singleQuoted: true, block: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || blockIndicators {
		a.blockPlain = false
	}
	if trailingSpace {
		a.block = false
	}
	if breakSpace {
		a.blockPlain, a.singleQuoted = false, false
	}
	if spaceBreak || special {
		a.blockPlain, a.singleQuoted, a.block = false, false, false
	}
	return a, true
}

// simpleText reports text every style can print as it is: printable
// ASCII without spaces, ':' or '#', not starting with an indicator or '.'.
func simpleText(s string) bool {
	if strings.IndexByte("#,[]{}&*!|>'\"%@`?:-.", s[0]) >= 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7F || c == ':' || c == '#' {
			return false
		}
	}
	return true
}

// printable is go-yaml v2's set of characters written as they are.
func printable(r rune) bool {
	return r == '\n' || (r >= 0x20 && r <= 0x7E) || (r >= 0xA0 && r <= 0xD7FF) ||
		(r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF)
}

func isBreak(r rune) bool {
	return r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029
}

// plainIsString reports that go-yaml v2 reads s, written plain, back as
// the string s (and that it does not look like a base 60 float, which it
// quotes too); otherwise it prints s double-quoted.
func plainIsString(s string) bool {
	if s == "" || len(s) <= maxKeyword && v2Keywords[s] {
		return false
	}
	switch c := s[0]; {
	case c == '.':
		_, err := strconv.ParseFloat(s, 64)
		return err != nil
	case c == '+' || c == '-' || (c >= '0' && c <= '9'):
	default:
		return true
	}
	if isTimestamp(s) {
		return false
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return false
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return false
	}
	if v2Float.MatchString(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return false
		}
	}
	if rest, ok := strings.CutPrefix(plain, "0b"); ok {
		if _, err := strconv.ParseInt(rest, 2, 64); err == nil {
			return false
		}
		if _, err := strconv.ParseUint(rest, 2, 64); err == nil {
			return false
		}
	} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
		if _, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
			return false
		}
	}
	return strings.IndexByte(s, ':') < 0 || !IsBase60Float(s)
}

// IsBase60Float reports the spellings YAML 1.1 reads as sexagesimal floats
// ("1:20"): go-yaml v2 resolves them, go-yaml v3 quotes them when printing.
func IsBase60Float(s string) bool { return base60Float.MatchString(s) }

// v2Keywords are the plain spellings go-yaml v2 reads as booleans, nulls,
// special floats (the merge key `<<` is a plain string to its printer).
var v2Keywords = map[string]bool{}

// maxKeyword is the length of the longest of v2Keywords: longer text is
// not looked up (hashing it costs more than the rest of the checks).
const maxKeyword = 5

func init() {
	for _, w := range strings.Fields(`y Y yes Yes YES true True TRUE on On ON n N no No NO false False FALSE
		off Off OFF ~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF`) {
		v2Keywords[w] = true
	}
}

var (
	v2Float     = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	base60Float = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
)

// isTimestamp reports the spellings go-yaml v2 reads as timestamps.
func isTimestamp(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range []string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00", "2006-1-2 15:4:5.999999999", "2006-1-2"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// keyLess is go-yaml v2's order of string map keys: at the first
// character that differs, a letter sorts after anything else and letters
// by code point; digits compare as the whole numbers they start (where a
// zero follows a non-zero digit, the number counts from a leading 1 so
// that the zero is significant), then shorter numbers first.
func keyLess(a, b string) bool {
	// Most keys first differ at ASCII characters other than digits: there
	// the order is that of the bytes, letters after the others.
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] && a[i] < utf8.RuneSelf {
		i++
	}
	if i == len(a) || i == len(b) {
		return len(a) < len(b)
	}
	if ca, cb := a[i], b[i]; ca < utf8.RuneSelf && cb < utf8.RuneSelf && !isDigit(ca) && !isDigit(cb) {
		if al, bl := isLetter(ca), isLetter(cb); al != bl {
			return bl
		}
		return ca < cb
	}
	return keyLessRunes(a, b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// keyLessRunes is keyLess by the rules, rune by rune.
func keyLessRunes(a, b string) bool {
	var abuf, bbuf [128]rune
	x, y := appendRunes(abuf[:0], a), appendRunes(bbuf[:0], b)
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	if i == len(x) || i == len(y) {
		return len(x) < len(y)
	}
	xl, yl := unicode.IsLetter(x[i]), unicode.IsLetter(y[i])
	switch {
	case xl && yl:
		return x[i] < y[i]
	case xl || yl:
		return yl
	}
	var start int64
	if x[i] == '0' || y[i] == '0' {
		for j := i - 1; j >= 0 && unicode.IsDigit(x[j]); j-- {
			if x[j] != '0' {
				start = 1
				break
			}
		}
	}
	xn, xend := digitRun(x, i, start)
	yn, yend := digitRun(y, i, start)
	switch {
	case xn != yn:
		return xn < yn
	case xend != yend:
		return xend < yend
	}
	return x[i] < y[i]
}

// digitRun reads the digits of r from i on, appended to n, and returns
// the number and the index after the run.
func digitRun(r []rune, i int, n int64) (int64, int) {
	for ; i < len(r) && unicode.IsDigit(r[i]); i++ {
		n = n*10 + int64(r[i]-'0')
	}
	return n, i
}

func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}
