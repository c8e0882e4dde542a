package escape

import (
	"bytes"
	"testing"
)

func TestLineAndText(t *testing.T) {
	for _, c := range []struct{ in, line, text string }{
		{"plain ünïcode \\d+ path/x", "plain ünïcode \\d+ path/x", "plain ünïcode \\d+ path/x"},
		{"a\x1b[31mb\x07", `a\x1b[31mb\x07`, `a\x1b[31mb\x07`},
		{"two\nlines\tand\rcr", `two\nlines\tand\rcr`, "two\nlines\tand\\rcr"},
		{"csi\u009b2J del\x7f", `csi\u009b2J del\x7f`, `csi\u009b2J del\x7f`},
		{"bidi\u202e\u2066x", `bidi\u202e\u2066x`, `bidi\u202e\u2066x`},
		{"bad\xffutf8", `bad\xffutf8`, `bad\xffutf8`},
	} {
		if got := Line(c.in); got != c.line {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := Text(c.in); got != c.text {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.text)
		}
		if got := Line(Line(c.in)); got != c.line {
			t.Errorf("Line is not idempotent on %q: %q", c.in, got)
		}
	}
}

func TestMarkdown(t *testing.T) {
	for _, c := range []struct{ in, code, cell, html string }{
		{"a|b", "`a|b`", "`a\\|b`", "a|b"},
		{"x`y", "``x`y``", "``x`y``", "x&#96;y"},
		{"`edge`", "`` `edge` ``", "`` `edge` ``", "&#96;edge&#96;"},
		{"</details>\n\n# h", "`</details>\\n\\n# h`", "`</details>\\n\\n# h`", "&lt;/details&gt;\\n\\n# h"},
		{"", "` `", "` `", ""},
	} {
		if got := Code(c.in); got != c.code {
			t.Errorf("Code(%q) = %q, want %q", c.in, got, c.code)
		}
		if got := Cell(c.in); got != c.cell {
			t.Errorf("Cell(%q) = %q, want %q", c.in, got, c.cell)
		}
		if got := HTML(c.in); got != c.html {
			t.Errorf("HTML(%q) = %q, want %q", c.in, got, c.html)
		}
	}
	body, fence := Block("a ``` b\n\x1b[2J\n")
	if body != "a ``` b\n\\x1b[2J\n" || fence != "````" {
		t.Errorf("Block = %q, %q", body, fence)
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	n, err := Writer(&b).Write([]byte("ok\n\x1b]0;t\x07\n"))
	if err != nil || n != 10 || b.String() != "ok\n\\x1b]0;t\\x07\n" {
		t.Errorf("Write = %d, %v: %q", n, err, b.String())
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{{"short", 10, "short"}, {"abcdef", 3, "abc…"}, {"aé", 2, "a…"}} {
		if got := Cut(c.in, c.max); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}
