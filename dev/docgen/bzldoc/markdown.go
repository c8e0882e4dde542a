package bzldoc

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// attrTypes are the attribute types as Stardoc names them.
var attrTypes = map[string]string{
	"bool": "Boolean", "int": "Integer", "int_list": "List of integers", "label": "Label",
	"label_list": "List of labels", "label_keyed_string_dict": "Dictionary: Label -> String",
	"output": "Label", "output_list": "List of labels", "string": "String",
	"string_dict": "Dictionary: String -> String", "string_keyed_label_dict": "Dictionary: String -> Label",
	"string_list": "List of strings", "string_list_dict": "Dictionary: String -> List of strings",
}

// Problems lists what the symbols lack to be documented: a docstring, an
// attribute's, parameter's or field's doc. Private attributes (`_x`) need none.
func Problems(mods []Module) []string {
	var out []string
	add := func(m Module, format string, args ...any) {
		out = append(out, m.File+": "+fmt.Sprintf(format, args...))
	}
	checkAttrs := func(m Module, what string, attrs []Attr) {
		for _, a := range publicAttrs(attrs) {
			if strings.TrimSpace(a.Doc) == "" {
				add(m, "%s: attribute %s has no doc", what, a.Name)
			}
		}
	}
	for _, m := range mods {
		for _, s := range m.Symbols {
			switch {
			case s.Rule != nil:
				if strings.TrimSpace(s.Rule.Doc) == "" {
					add(m, "rule %s has no doc", s.Name)
				}
				checkAttrs(m, "rule "+s.Name, s.Rule.Attrs)
			case s.Macro != nil:
				d := parseDocstring(s.Macro.Doc)
				if d.body == "" {
					add(m, "macro %s has no docstring", s.Name)
				}
				params := map[string]bool{}
				for _, p := range s.Macro.Params {
					params[p.Name] = true
					if d.args[p.Name] == "" {
						add(m, "macro %s: parameter %s is not documented under Args:", s.Name, p.Name)
					}
				}
				for _, name := range d.order {
					if !params[name] {
						add(m, "macro %s: Args: documents %s, which is not a parameter", s.Name, name)
					}
				}
			case s.Provider != nil:
				if strings.TrimSpace(s.Provider.Doc) == "" {
					add(m, "provider %s has no doc", s.Name)
				}
				for _, f := range s.Provider.Fields {
					if strings.TrimSpace(f.Doc) == "" {
						add(m, "provider %s: field %s has no doc", s.Name, f.Name)
					}
				}
			case s.Extension != nil:
				if strings.TrimSpace(s.Extension.Doc) == "" {
					add(m, "module extension %s has no doc", s.Name)
				}
				for _, t := range s.Extension.Tags {
					if strings.TrimSpace(t.Doc) == "" {
						add(m, "module extension %s: tag class %s has no doc", s.Name, t.Name)
					}
					checkAttrs(m, "module extension "+s.Name+", tag class "+t.Name, t.Attrs)
				}
			}
		}
	}
	return out
}

// publicAttrs are the attributes users set, in declaration order.
func publicAttrs(attrs []Attr) []Attr {
	var out []Attr
	for _, a := range attrs {
		if !strings.HasPrefix(a.Name, "_") {
			out = append(out, a)
		}
	}
	return out
}

// Markdown prints the modules' symbols, a section each, as Stardoc does;
// header is printed first.
func Markdown(header string, mods []Module) []byte {
	var b bytes.Buffer
	b.WriteString(header)
	for _, m := range mods {
		for _, s := range m.Symbols {
			fmt.Fprintf(&b, "\n<a id=\"%s\"></a>\n\n## %s\n\n<pre>\n", s.Name, s.Name)
			switch {
			case s.Rule != nil:
				attrs := append([]Attr{{Name: "name", Kind: "name", Doc: "A unique name for this target.", Mandatory: true}}, publicAttrs(s.Rule.Attrs)...)
				fmt.Fprintf(&b, "load(%q, %q)\n\n", m.Label, s.Name)
				writeSignature(&b, s.Name, s.Name, attrNames(attrs))
				b.WriteString("</pre>\n\n" + dedent(s.Rule.Doc) + "\n\n**ATTRIBUTES**\n\n")
				writeAttrTable(&b, s.Name, attrs)
			case s.Macro != nil:
				d := parseDocstring(s.Macro.Doc)
				var names []string
				for _, p := range s.Macro.Params {
					names = append(names, strings.TrimLeft(p.Name, "*"))
				}
				fmt.Fprintf(&b, "load(%q, %q)\n\n", m.Label, s.Name)
				writeSignature(&b, s.Name, s.Name, names)
				b.WriteString("</pre>\n\n" + d.body + "\n\n**PARAMETERS**\n\n")
				b.WriteString("| Name | Description | Default Value |\n| :------------- | :------------- | :------------- |\n")
				for _, p := range s.Macro.Params {
					name := strings.TrimLeft(p.Name, "*")
					def := "none"
					if p.Default != "" {
						def = "<code>" + cell(p.Default) + "</code>"
					}
					fmt.Fprintf(&b, "| <a id=\"%s-%s\"></a>%s | %s | %s |\n", s.Name, name, name, cell(d.args[p.Name]), def)
				}
			case s.Provider != nil:
				var names []string
				for _, f := range s.Provider.Fields {
					names = append(names, f.Name)
				}
				fmt.Fprintf(&b, "load(%q, %q)\n\n", m.Label, s.Name)
				writeSignature(&b, s.Name, s.Name, names)
				b.WriteString("</pre>\n\n" + dedent(s.Provider.Doc) + "\n\n**FIELDS**\n\n")
				b.WriteString("| Name | Description |\n| :------------- | :------------- |\n")
				for _, f := range s.Provider.Fields {
					fmt.Fprintf(&b, "| <a id=\"%s-%s\"></a>%s | %s |\n", s.Name, f.Name, f.Name, cell(f.Doc))
				}
			case s.Extension != nil:
				fmt.Fprintf(&b, "%s = use_extension(%q, %q)\n", s.Name, m.Label, s.Name)
				for _, t := range s.Extension.Tags {
					writeSignature(&b, s.Name+"."+t.Name, s.Name+"."+t.Name, attrNames(publicAttrs(t.Attrs)))
				}
				b.WriteString("</pre>\n\n" + dedent(s.Extension.Doc) + "\n\n**TAG CLASSES**\n")
				for _, t := range s.Extension.Tags {
					id := s.Name + "." + t.Name
					fmt.Fprintf(&b, "\n<a id=\"%s\"></a>\n\n### %s\n\n%s\n\n**Attributes**\n\n", id, t.Name, dedent(t.Doc))
					writeAttrTable(&b, id, publicAttrs(t.Attrs))
				}
			}
		}
	}
	return b.Bytes()
}

func attrNames(attrs []Attr) []string {
	var names []string
	for _, a := range attrs {
		names = append(names, a.Name)
	}
	return names
}

// writeSignature prints `name(a, b, ...)` with each argument linking to its row.
func writeSignature(b *bytes.Buffer, name, anchor string, args []string) {
	var links []string
	for _, a := range args {
		links = append(links, fmt.Sprintf("<a href=\"#%s-%s\">%s</a>", anchor, a, a))
	}
	fmt.Fprintf(b, "%s(%s)\n", name, strings.Join(links, ", "))
}

func writeAttrTable(b *bytes.Buffer, anchor string, attrs []Attr) {
	b.WriteString("| Name | Description | Type | Mandatory | Default |\n")
	b.WriteString("| :------------- | :------------- | :------------- | :------------- | :------------- |\n")
	for _, a := range attrs {
		typ := attrTypes[a.Kind]
		if a.Kind == "name" {
			typ = "Name"
		}
		mandatory, def := "optional", "<code>"+cell(a.Default)+"</code>"
		if a.Mandatory {
			mandatory, def = "required", ""
		}
		fmt.Fprintf(b, "| <a id=\"%s-%s\"></a>%s | %s | %s | %s | %s |\n", anchor, a.Name, a.Name, cell(a.Doc), typ, mandatory, def)
	}
}

// cell makes text fit a table cell: one line (paragraphs split by <br><br>),
// pipes escaped.
func cell(s string) string {
	paras := strings.Split(strings.TrimSpace(dedent(s)), "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.ReplaceAll(strings.Join(paras, "<br><br>"), "|", `\|`)
}

// dedent removes the indentation that the lines after the first share, and
// surrounding blank lines (a docstring's layout in its file).
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	indent := -1
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i := 1; i < len(lines); i++ {
		if len(lines[i]) >= indent && indent > 0 {
			lines[i] = lines[i][indent:]
		} else if strings.TrimSpace(lines[i]) == "" {
			lines[i] = ""
		}
	}
	lines[0] = strings.TrimSpace(lines[0])
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

type docstring struct {
	body  string            // before Args:
	args  map[string]string // by parameter name, with * or ** as written
	order []string
}

var sectionRE = regexp.MustCompile(`^(Args|Arguments|Returns|Yields|Raises|Deprecated):\s*$`)

// parseDocstring splits a Google-style docstring: the text, then `Args:` with
// an entry per parameter (`name: text`, continued on more indented lines).
func parseDocstring(s string) docstring {
	d := docstring{args: map[string]string{}}
	var body []string
	section := ""
	current := ""
	for _, l := range strings.Split(dedent(s), "\n") {
		if m := sectionRE.FindStringSubmatch(l); m != nil {
			section = m[1]
			continue
		}
		switch {
		case section == "":
			body = append(body, l)
		case section == "Args" || section == "Arguments":
			t := strings.TrimSpace(l)
			indent := len(l) - len(strings.TrimLeft(l, " "))
			if name, text, ok := strings.Cut(t, ":"); ok && indent <= 2 && !strings.ContainsAny(name, " `") {
				current = name
				d.order = append(d.order, name)
				d.args[name] = strings.TrimSpace(text)
			} else if current != "" && t != "" {
				d.args[current] += " " + t
			}
		}
	}
	d.body = strings.TrimSpace(strings.Join(body, "\n"))
	return d
}
