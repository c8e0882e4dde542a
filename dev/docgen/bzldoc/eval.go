// Package bzldoc reads the public API of a Bazel rule set from its .bzl files
// (rules, macros, providers, module extensions and their tag classes, with
// their docstrings and attributes) and prints it as Markdown in the style of
// Stardoc's output. Stardoc needs Java and downloads; this runs offline.
//
// The files are executed with starlark-go against stand-ins for Bazel's
// builtins: rule(), attr.*(), provider(), module_extension() and tag_class()
// record what they are given, and every other Bazel global is an inert
// value. Executing rather than parsing follows re-exports, shared attribute
// dicts and structs exactly as Bazel does.
package bzldoc

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// Attr is one attribute of a rule or tag class, as attr.KIND(...) declared it.
type Attr struct {
	Name      string
	Kind      string // the attr function: "string", "label_list", ...
	Doc       string
	Mandatory bool
	Default   string // Starlark repr; "" when mandatory
}

// Rule is what rule(), repository_rule() or tag_class() was given.
type Rule struct {
	Doc   string
	Attrs []Attr // in declaration order
}

// Provider is what provider() was given.
type Provider struct {
	Doc    string
	Fields []Field // in declaration order
}

// Field is a provider field.
type Field struct{ Name, Doc string }

// Extension is what module_extension() was given.
type Extension struct {
	Doc  string
	Tags []Tag // sorted by name
}

// Tag is a tag class of a module extension.
type Tag struct {
	Name string
	Rule
}

// Macro is a Starlark function exported as a macro.
type Macro struct {
	Doc    string // the docstring, as written
	Params []Param
}

// Param is a macro parameter; Name carries `*`/`**` for *args and **kwargs.
type Param struct {
	Name    string
	Default string // Starlark repr; "" when mandatory
}

// Symbol is one public symbol: exactly one of its pointers is set.
type Symbol struct {
	Name      string
	Rule      *Rule
	Macro     *Macro
	Provider  *Provider
	Extension *Extension
}

// --- recorded values ------------------------------------------------------

type ruleValue struct{ Rule }

func (*ruleValue) String() string        { return "<rule>" }
func (*ruleValue) Type() string          { return "rule" }
func (*ruleValue) Freeze()               {}
func (*ruleValue) Truth() starlark.Bool  { return true }
func (*ruleValue) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: rule") }

type providerValue struct{ Provider }

func (*providerValue) String() string       { return "<provider>" }
func (*providerValue) Type() string         { return "provider" }
func (*providerValue) Freeze()              {}
func (*providerValue) Truth() starlark.Bool { return true }
func (p *providerValue) Hash() (uint32, error) {
	return starlark.String(p.Doc).Hash()
}

type extensionValue struct{ Extension }

func (*extensionValue) String() string        { return "<module_extension>" }
func (*extensionValue) Type() string          { return "module_extension" }
func (*extensionValue) Freeze()               {}
func (*extensionValue) Truth() starlark.Bool  { return true }
func (*extensionValue) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: module_extension") }

type attrValue struct{ Attr }

func (a *attrValue) String() string      { return "<attr." + a.Kind + ">" }
func (*attrValue) Type() string          { return "Attribute" }
func (*attrValue) Freeze()               {}
func (*attrValue) Truth() starlark.Bool  { return true }
func (*attrValue) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: Attribute") }

// inert stands for any Bazel global this tool does not model (DefaultInfo,
// native, select, ...): attributes and calls give more of it.
type inert string

func (v inert) String() string        { return string(v) }
func (inert) Type() string            { return "builtin" }
func (inert) Freeze()                 {}
func (inert) Truth() starlark.Bool    { return true }
func (v inert) Hash() (uint32, error) { return starlark.String(v).Hash() }
func (v inert) Name() string          { return string(v) }
func (v inert) Attr(name string) (starlark.Value, error) {
	return inert(string(v) + "." + name), nil
}
func (inert) AttrNames() []string { return nil }
func (v inert) CallInternal(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return inert(string(v) + "()"), nil
}

// label is what Label("//x:y") returns; it prints as the string it was given.
type label string

func (l label) String() string        { return starlark.String(l).String() }
func (label) Type() string            { return "Label" }
func (label) Freeze()                 {}
func (label) Truth() starlark.Bool    { return true }
func (l label) Hash() (uint32, error) { return starlark.String(l).Hash() }

// attrDefaults are the defaults Bazel gives an attribute declared without one.
var attrDefaults = map[string]string{
	"bool": "False", "int": "0", "int_list": "[]", "label": "None", "label_list": "[]",
	"label_keyed_string_dict": "{}", "output": "None", "output_list": "[]", "string": `""`,
	"string_dict": "{}", "string_keyed_label_dict": "{}", "string_list": "[]",
	"string_list_dict": "{}",
}

func attrModule() *starlarkstruct.Module {
	m := &starlarkstruct.Module{Name: "attr", Members: starlark.StringDict{}}
	for kind := range attrDefaults {
		kind := kind
		m.Members[kind] = starlark.NewBuiltin("attr."+kind, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 0 {
				return nil, fmt.Errorf("%s: unexpected positional arguments", b.Name())
			}
			a := &attrValue{Attr{Kind: kind, Default: attrDefaults[kind]}}
			for _, kv := range kwargs {
				switch k, v := string(kv[0].(starlark.String)), kv[1]; k {
				case "doc":
					a.Doc = str(v)
				case "mandatory":
					a.Mandatory = bool(v.Truth())
				case "default":
					a.Default = v.String()
				}
			}
			return a, nil
		})
	}
	return m
}

// str is a string value's text, or "" for anything else.
func str(v starlark.Value) string {
	s, _ := starlark.AsString(v)
	return s
}

// kwarg returns the keyword argument named name, or nil.
func kwarg(kwargs []starlark.Tuple, name string) starlark.Value {
	for _, kv := range kwargs {
		if string(kv[0].(starlark.String)) == name {
			return kv[1]
		}
	}
	return nil
}

// attrsOf turns an attrs dict into attributes, in declaration order.
func attrsOf(fn string, v starlark.Value) ([]Attr, error) {
	if v == nil || v == starlark.None {
		return nil, nil
	}
	d, ok := v.(*starlark.Dict)
	if !ok {
		return nil, fmt.Errorf("%s: attrs is a %s, want a dict", fn, v.Type())
	}
	var attrs []Attr
	for _, kv := range d.Items() {
		name, _ := starlark.AsString(kv[0])
		a, ok := kv[1].(*attrValue)
		if !ok {
			return nil, fmt.Errorf("%s: attribute %q is a %s, want an attr.*()", fn, name, kv[1].Type())
		}
		attr := a.Attr
		attr.Name = name
		if attr.Mandatory {
			attr.Default = ""
		}
		attrs = append(attrs, attr)
	}
	return attrs, nil
}

func ruleBuiltin(fn string) *starlark.Builtin {
	return starlark.NewBuiltin(fn, func(_ *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		attrs, err := attrsOf(fn, kwarg(kwargs, "attrs"))
		if err != nil {
			return nil, err
		}
		return &ruleValue{Rule{Doc: str(kwarg(kwargs, "doc")), Attrs: attrs}}, nil
	})
}

func providerBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	p := &providerValue{}
	p.Doc = str(kwarg(kwargs, "doc"))
	if len(args) > 0 {
		p.Doc = str(args[0])
	}
	switch f := kwarg(kwargs, "fields").(type) {
	case *starlark.Dict:
		for _, kv := range f.Items() {
			p.Fields = append(p.Fields, Field{Name: str(kv[0]), Doc: str(kv[1])})
		}
	case *starlark.List:
		for i := 0; i < f.Len(); i++ {
			p.Fields = append(p.Fields, Field{Name: str(f.Index(i))})
		}
	}
	if kwarg(kwargs, "init") != nil {
		// provider(init = ...) returns the provider and its raw constructor.
		return starlark.Tuple{p, inert("raw constructor")}, nil
	}
	return p, nil
}

func extensionBuiltin(_ *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	e := &extensionValue{}
	e.Doc = str(kwarg(kwargs, "doc"))
	if tags, ok := kwarg(kwargs, "tag_classes").(*starlark.Dict); ok {
		for _, kv := range tags.Items() {
			r, ok := kv[1].(*ruleValue)
			if !ok {
				return nil, fmt.Errorf("module_extension: tag class %s is a %s, want a tag_class()", kv[0], kv[1].Type())
			}
			e.Tags = append(e.Tags, Tag{Name: str(kv[0]), Rule: r.Rule})
		}
	}
	sort.Slice(e.Tags, func(i, j int) bool { return e.Tags[i].Name < e.Tags[j].Name })
	return e, nil
}

func labelBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("%s: want one argument", b.Name())
	}
	return label(str(args[0])), nil
}

// modeled are the Bazel globals whose calls are recorded.
func modeled() starlark.StringDict {
	return starlark.StringDict{
		"attr":             attrModule(),
		"rule":             ruleBuiltin("rule"),
		"macro":            ruleBuiltin("macro"),
		"repository_rule":  ruleBuiltin("repository_rule"),
		"tag_class":        ruleBuiltin("tag_class"),
		"provider":         starlark.NewBuiltin("provider", providerBuiltin),
		"module_extension": starlark.NewBuiltin("module_extension", extensionBuiltin),
		"Label":            starlark.NewBuiltin("Label", labelBuiltin),
		"struct":           starlark.NewBuiltin("struct", starlarkstruct.Make),
	}
}

// --- loading --------------------------------------------------------------

// loader executes .bzl files of the repository at root, each once.
type loader struct {
	root    string
	modules map[string]starlark.StringDict // by repository-relative path
	loading map[string]bool
}

// path maps a load label to a repository-relative path; "" for another
// repository's file (its symbols are inert).
func (l *loader) path(from, module string) (string, error) {
	switch {
	case strings.HasPrefix(module, "@") && !strings.HasPrefix(module, "@//"):
		return "", nil
	case strings.HasPrefix(module, ":"):
		return filepath.ToSlash(filepath.Join(filepath.Dir(from), module[1:])), nil
	}
	pkg, name, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(module, "@"), "//"), ":")
	if !ok {
		return "", fmt.Errorf("%s: load label %q has no ':'", from, module)
	}
	return filepath.ToSlash(filepath.Join(pkg, name)), nil
}

// exec runs the file at the repository-relative path rel.
func (l *loader) exec(rel string) (starlark.StringDict, error) {
	if g, ok := l.modules[rel]; ok {
		return g, nil
	}
	if l.loading[rel] {
		return nil, fmt.Errorf("%s: load cycle", rel)
	}
	l.loading[rel] = true
	defer delete(l.loading, rel)

	src, err := os.ReadFile(filepath.Join(l.root, rel))
	if err != nil {
		return nil, err
	}
	opts := &syntax.FileOptions{}
	f, err := opts.Parse(rel, src, 0)
	if err != nil {
		return nil, err
	}
	// Other repositories' symbols, and Bazel's globals used in function bodies,
	// are inert: only what the public symbols are declared with matters.
	external := map[string]starlark.StringDict{}
	predeclared := modeled()
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.LoadStmt:
			if p, _ := l.path(rel, n.ModuleName()); p == "" {
				d := external[n.ModuleName()]
				if d == nil {
					d = starlark.StringDict{}
					external[n.ModuleName()] = d
				}
				for _, id := range n.From {
					d[id.Name] = inert(id.Name)
				}
			}
		case *syntax.Ident:
			if _, ok := predeclared[n.Name]; !ok && !starlark.Universe.Has(n.Name) {
				predeclared[n.Name] = inert(n.Name)
			}
		}
		return true
	})
	thread := &starlark.Thread{
		Name: rel,
		Load: func(_ *starlark.Thread, module string) (starlark.StringDict, error) {
			p, err := l.path(rel, module)
			if err != nil {
				return nil, err
			}
			if p == "" {
				return external[module], nil
			}
			return l.exec(p)
		},
	}
	g, err := starlark.ExecFileOptions(opts, thread, rel, src, predeclared)
	if err != nil {
		return nil, err
	}
	l.modules[rel] = g
	return g, nil
}
