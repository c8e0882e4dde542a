// Package escape makes text that came from inputs (object and file names, field values,
// server and git messages) safe for the format krm prints it in, so that it cannot change
// what a reader sees: terminal control sequences are shown, not run; Markdown and HTML in a
// name cannot close the pull-request comment's table, code or <details> around it. JSON and
// XML have encoders of their own; the printers call this package for everything else, in one
// place each.
package escape

import (
	"fmt"
	"html"
	"io"
	"strings"
	"unicode/utf8"
)

// Line is s for one line of a terminal: every control character (C0 with newline and tab,
// DEL, C1), the bidirectional controls that reorder what is shown (Trojan Source), and each
// byte of invalid UTF-8 written as a Go escape (\x1b, \n, \u202e). Backslashes are kept,
// so that paths and patterns read as written.
func Line(s string) string { return escape(s, false) }

// Text is s for a terminal keeping its newlines and tabs: a multi-line message.
func Text(s string) string { return escape(s, true) }

func escape(s string, lines bool) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unsafe(r, size, lines) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !unsafe(r, size, lines):
			b.WriteString(s[i : i+size])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}

func unsafe(r rune, size int, lines bool) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r == '\n' || r == '\t':
		return !lines
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f: // C1: U+009B is CSI to some terminals
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// Writer escapes what is written to w as Text does: for a command's messages on a terminal,
// where any line may quote an input. Each Write is escaped whole (fmt writes a message in
// one call), so a rune split across two writes is shown as bytes.
func Writer(w io.Writer) io.Writer { return writer{w} }

type writer struct{ w io.Writer }

func (w writer) Write(p []byte) (int, error) {
	s := Text(string(p))
	if _, err := io.WriteString(w.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Code is s as a Markdown code span, on one line, with a fence longer than any run of
// backticks in s: Markdown and HTML inside show as written.
func Code(s string) string {
	s = Line(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	switch {
	case s == "":
		s = " "
	case strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`"):
		s = " " + s + " " // the spaces Markdown strips, so that the fence is not longer
	}
	return fence + s + fence
}

// Cell is s as a code span in a Markdown table cell: Code, with '|' escaped (a table splits
// its cells at every unescaped '|', in code spans too).
func Cell(s string) string {
	return strings.ReplaceAll(Code(s), "|", `\|`)
}

// HTML is s as the text of an HTML element in Markdown (a <summary>): on one line, as a blank
// line would end the HTML block and start Markdown, with <, >, &, quotes and backticks as
// entities. Within the line Markdown reads no emphasis or links (the block is raw HTML);
// backticks are escaped too, as some renderers read code spans there.
func HTML(s string) string { return strings.ReplaceAll(html.EscapeString(Line(s)), "`", "&#96;") }

// Block is text for the inside of a fenced code block: each line as Line has it (no control
// characters), and the fence that encloses it safely: longer than any run of backticks in it.
func Block(text string) (body, fence string) {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		nl := strings.HasSuffix(l, "\n")
		l = Line(strings.TrimSuffix(l, "\n"))
		if nl {
			l += "\n"
		}
		lines[i] = l
	}
	body = strings.Join(lines, "")
	fence = "```"
	for strings.Contains(body, fence) {
		fence += "`"
	}
	return body, fence
}

// Cut is s within max bytes, cut at a rune boundary and ended with "…" when cut: a value or
// message from an input printed within a bound.
func Cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
