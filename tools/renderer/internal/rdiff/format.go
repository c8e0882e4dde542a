package rdiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/escape"
)

// maxValue bounds a value printed in text and Markdown (JSON has it whole).
const maxValue = 200

// ANSI colours, used only when asked (a terminal).
const (
	red    = "\x1b[31m"
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	cyan   = "\x1b[36m"
	bold   = "\x1b[1m"
	reset  = "\x1b[0m"
)

// WriteJSON writes the report as indented JSON (the schema is the package doc's).
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report for a terminal; color adds ANSI colours.
// Lines start with '+', '-' or '~' (or a space), so that a diff highlighter
// colours them too.
func (r *Report) WriteText(w io.Writer, color bool) error {
	var b bytes.Buffer
	for _, f := range r.Files {
		if f.Path != "" {
			paint(&b, color, bold+cyan, "=== "+f.Path+": "+f.summary())
		}
		f.body(&b, color)
	}
	b.WriteString(r.summary() + "\n")
	_, err := w.Write(b.Bytes())
	return err
}

func (r *Report) summary() string {
	if r.Empty() {
		return "no differences"
	}
	files := "1 file"
	if len(r.Files) != 1 {
		files = fmt.Sprintf("%d files", len(r.Files))
	}
	return fmt.Sprintf("%s in %s", r.Counts.String(), files)
}

func (c Counts) String() string {
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{c.Added, "added"}, {c.Removed, "removed"}, {c.Changed, "changed"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	return strings.Join(parts, ", ")
}

func (f *File) summary() string {
	s := f.Counts.String()
	switch f.Status {
	case Added:
		s += " (new file)"
	case Removed:
		s += " (deleted file)"
	}
	return s
}

// body writes a file's objects, one header line each and their fields below.
func (f *File) body(b *bytes.Buffer, color bool) {
	for _, o := range f.Objects {
		head := o.ID.String()
		if o.OldName != "" {
			head += " (renamed from " + o.OldName + ")"
		}
		if o.Origin != "" {
			head += " (from " + o.Origin + ")"
		}
		switch o.Change {
		case Added:
			paint(b, color, green, "+ "+head)
		case Removed:
			paint(b, color, red, "- "+head)
		default:
			paint(b, color, yellow, "~ "+head)
		}
		for _, fd := range o.Fields {
			fd.write(b, color)
		}
		for _, ref := range o.References {
			b.WriteString(escape.Line("    follows the rename: "+ref.ID.String()+" "+ref.Path) + "\n")
		}
	}
}

func (fd *Field) write(b *bytes.Buffer, color bool) {
	switch {
	case fd.Redacted:
		sign, code := "~", yellow
		switch fd.Change {
		case Added:
			sign, code = "+", green
		case Removed:
			sign, code = "-", red
		}
		paint(b, color, code, sign+"   "+fd.Path+": "+fd.Change+" (Secret value hidden)")
	case fd.Lines != nil:
		paint(b, color, yellow, "~   "+fd.Path+":")
		for _, l := range fd.Lines {
			switch l[0] {
			case '-':
				paint(b, color, red, "-      "+l[1:])
			case '+':
				paint(b, color, green, "+      "+l[1:])
			case '@':
				paint(b, color, cyan, "       "+l)
			default:
				b.WriteString(escape.Line("       "+l[1:]) + "\n")
			}
		}
	case fd.Change == Reordered:
		paint(b, color, yellow, "~   "+fd.Path+": reordered "+short(fd.Old)+" → "+short(fd.New))
	default:
		if fd.Old != nil {
			paint(b, color, red, "-   "+fd.Path+": "+short(fd.Old))
		}
		if fd.New != nil {
			paint(b, color, green, "+   "+fd.Path+": "+short(fd.New))
		}
	}
}

// paint writes one line, its inputs' control characters shown as escapes (escape.Line): a
// name or value cannot move the cursor, retitle the terminal or fake a line of the report.
func paint(b *bytes.Buffer, color bool, code, line string) {
	line = escape.Line(line)
	if color {
		b.WriteString(code + line + reset + "\n")
		return
	}
	b.WriteString(line + "\n")
}

// short is a JSON value cut to maxValue bytes.
func short(v json.RawMessage) string { return escape.Cut(string(v), maxValue) }

// WriteMarkdown writes the report for a pull-request comment: a table of
// counts per file, then one collapsed section per file with the text diff.
// Past maxBytes, sections are cut or left out, with a note saying so.
func (r *Report) WriteMarkdown(w io.Writer, maxBytes int) error {
	var b bytes.Buffer
	b.WriteString("### krm diff: " + r.summary() + "\n\n")
	if !r.Empty() {
		b.WriteString("| File | Added | Removed | Changed |\n|---|--:|--:|--:|\n")
		for _, f := range r.Files {
			fmt.Fprintf(&b, "| %s | %d | %d | %d |\n", escape.Cell(r.name(f)), f.Added, f.Removed, f.Changed)
		}
		b.WriteString("\n")
	}
	// A note needs room at the end: reserve it.
	const noteRoom = 300
	left := 0
	cut := false
	for i, f := range r.Files {
		var body bytes.Buffer
		f.body(&body, false)
		room := maxBytes - noteRoom - b.Len()
		sec, whole := section(r.name(f), f.summary(), body.String(), room)
		if sec == "" {
			left = len(r.Files) - i
			break
		}
		b.WriteString(sec)
		if !whole {
			cut = true
			left = len(r.Files) - i - 1
			break
		}
	}
	if left > 0 || cut {
		note := "> The diff is longer than this comment may be (--max-bytes " + fmt.Sprint(maxBytes) + "):"
		if cut {
			note += " a section was cut;"
		}
		if left > 0 {
			note += fmt.Sprintf(" %d of %d files left out;", left, len(r.Files))
		}
		b.WriteString(note + " run `krm diff` for all of it.\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// name is how a file is headed: its path, or the NEW argument for two files.
func (r *Report) name(f File) string {
	if f.Path == "" {
		return r.New
	}
	return f.Path
}

// section is a <details> block with body in a diff code block, cut at whole
// lines to fit room bytes (whole is false then); "" when not even a few
// lines fit.
func section(name, summary, body string, room int) (sec string, whole bool) {
	body, fence := escape.Block(body)
	head := "<details><summary><code>" + escape.HTML(name) + "</code>: " + escape.HTML(summary) + "</summary>\n\n" + fence + "diff\n"
	tail := fence + "\n\n</details>\n\n"
	if len(head)+len(body)+len(tail) <= room {
		return head + body + tail, true
	}
	const cutNote = "… (cut here)\n"
	budget := room - len(head) - len(tail) - len(cutNote)
	if budget < 200 {
		return "", false
	}
	end := strings.LastIndexByte(body[:budget], '\n')
	if end < 0 {
		return "", false
	}
	return head + body[:end+1] + cutNote + tail, false
}

// UseColor decides a --color flag of text output: "always", "never", or
// "auto": when w is a terminal and NO_COLOR (no-color.org) is unset.
func UseColor(mode string, w io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		f, ok := w.(*os.File)
		if !ok || os.Getenv("NO_COLOR") != "" {
			return false, nil
		}
		st, err := f.Stat()
		return err == nil && st.Mode()&os.ModeCharDevice != 0, nil
	}
	return false, fmt.Errorf("--color %q: want auto, always or never", mode)
}
