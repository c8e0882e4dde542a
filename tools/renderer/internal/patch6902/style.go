package patch6902

import (
	"strings"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/printer"
)

// stringStyle is the style go-yaml v3 prints s in, in a block collection,
// which is the style parsing it back sets; key says s is a mapping key. It
// asks for literal style when s has a line break, plain style when s read
// plain is the same string, double quotes otherwise, and its emitter falls
// back to single and then double quotes when the text rules a style out.
// It reports false for keys it prints as complex keys (`? key`) and for
// text it is not sure to read back unchanged.
func stringStyle(s string, key bool) (yaml.Style, bool) {
	if !utf8.ValidString(s) || key && len(s) > 128 || s == "<<" {
		// go-yaml v3 prints invalid UTF-8 as !!binary, longer keys as
		// complex keys, and reads << back as a merge key.
		return 0, false
	}
	t, ok := textOf(s)
	if !ok || key && t.multiline {
		return 0, false
	}
	var style yaml.Style
	switch {
	case strings.IndexByte(s, '\n') >= 0:
		style = yaml.LiteralStyle
	case plainIsString(s):
	default:
		style = yaml.DoubleQuotedStyle
	}
	if style == 0 && (!t.plain || key && s == "") {
		style = yaml.SingleQuotedStyle
	}
	if style == yaml.SingleQuotedStyle && !t.singleQuoted {
		style = yaml.DoubleQuotedStyle
	}
	if style == yaml.LiteralStyle && !t.literal {
		style = yaml.DoubleQuotedStyle
	}
	if style == yaml.LiteralStyle && t.tabs {
		// A tab where kyaml's parse looks for indentation fails it ("\t\n");
		// kustomize's patch then fails with that error.
		return 0, false
	}
	return style, true
}

// plainIsString reports that go-yaml v3 prints s plain: s read plain
// resolves to the string s, and it is no YAML 1.1 base 60 float or boolean
// (which go-yaml v3 quotes for YAML 1.1 readers).
func plainIsString(s string) bool {
	n := yaml.Node{Kind: yaml.ScalarNode, Value: s}
	return n.ShortTag() == yaml.NodeTagString && !printer.IsBase60Float(s) && !yaml11Bools[s]
}

var yaml11Bools = map[string]bool{}

func init() {
	for _, w := range []string{"y", "yes", "on", "n", "no", "off"} {
		for _, s := range []string{w, strings.ToUpper(w[:1]) + w[1:], strings.ToUpper(w)} {
			yaml11Bools[s] = true
		}
	}
}

// text is what go-yaml v3's emitter concludes about a scalar's text in
// block context: which styles can print it.
type text struct {
	multiline, plain, singleQuoted, literal bool
	tabs                                    bool
}

// textOf reads s as go-yaml v3's emitter does (with unicode output on), or
// reports false for text with line breaks other than '\n'.
func textOf(s string) (text, bool) {
	if s == "" {
		return text{plain: true, singleQuoted: true}, true
	}
	indicators := strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...")
	var tabs, special, lineBreaks, leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	afterBlank, afterSpace, afterBreak := true, false, false
	for i, r := range s {
		w := utf8.RuneLen(r)
		last := i+w == len(s)
		beforeBlank := last || s[i+w] == ' ' || s[i+w] == '\t'
		switch {
		case i == 0 && strings.ContainsRune("#,[]{}&*!|>'\"%@`", r):
			indicators = true
		case (i == 0 && (r == '?' || r == '-') || r == ':') && beforeBlank:
			indicators = true
		case i > 0 && r == '#' && afterBlank:
			indicators = true
		}
		if r == '\t' {
			tabs = true
		} else if !printable(r) {
			special = true
		}
		switch r {
		case ' ':
			leadingSpace = leadingSpace || i == 0
			trailingSpace = trailingSpace || last
			breakSpace = breakSpace || afterBreak
			afterSpace, afterBreak = true, false
		case '\n':
			lineBreaks = true
			leadingBreak = leadingBreak || i == 0
			trailingBreak = trailingBreak || last
			spaceBreak = spaceBreak || afterSpace
			afterSpace, afterBreak = false, true
		case '\r', 0x85, 0x2028, 0x2029:
			return text{}, false
		default:
			afterSpace, afterBreak = false, false
		}
		afterBlank = r == ' ' || r == '\t' || r == '\n' || r == 0
	}
	t := text{multiline: lineBreaks, plain: true, singleQuoted: true, literal: true, tabs: tabs}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || indicators {
		t.plain = false
	}
	if trailingSpace {
		t.literal = false
	}
	if breakSpace {
		t.plain, t.singleQuoted = false, false
	}
	if spaceBreak || tabs || special {
		t.plain, t.singleQuoted = false, false
	}
	if spaceBreak || special {
		t.literal = false
	}
	return t, true
}

// printable is go-yaml v3's set of characters it writes as they are.
func printable(r rune) bool {
	return r == '\n' || (r >= 0x20 && r <= 0x7E) || (r >= 0xA0 && r <= 0xD7FF) ||
		(r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF)
}
