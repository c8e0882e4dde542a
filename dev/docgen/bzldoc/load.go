package bzldoc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Entry is a public .bzl file: File, relative to the repository root, is what
// users load as Label.
type Entry struct {
	File  string // rules/defs.bzl
	Label string // @rules_krm//rules:defs.bzl
}

// Module is the public symbols of one entry file.
type Module struct {
	Entry
	Doc     string // the file's docstring
	Symbols []Symbol
}

// Load executes the entry files of the repository at root and returns their
// public symbols (the names they define that do not start with `_`), in the
// order each file defines them.
func Load(root string, entries []Entry) ([]Module, error) {
	l := &loader{root: root, modules: map[string]starlark.StringDict{}, loading: map[string]bool{}}
	var mods []Module
	for _, e := range entries {
		globals, err := l.exec(e.File)
		if err != nil {
			return nil, err
		}
		names, doc, err := definedNames(filepath.Join(root, e.File), e.File)
		if err != nil {
			return nil, err
		}
		m := Module{Entry: e, Doc: doc}
		for _, name := range names {
			s, err := symbol(name, globals[name])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", e.File, err)
			}
			m.Symbols = append(m.Symbols, s)
		}
		mods = append(mods, m)
	}
	return mods, nil
}

// definedNames are the public names that the file's top-level statements
// bind, in order, and the file's docstring.
func definedNames(path, rel string) ([]string, string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	f, err := (&syntax.FileOptions{}).Parse(rel, src, 0)
	if err != nil {
		return nil, "", err
	}
	var names []string
	seen := map[string]bool{}
	add := func(id *syntax.Ident) {
		if !strings.HasPrefix(id.Name, "_") && !seen[id.Name] {
			seen[id.Name] = true
			names = append(names, id.Name)
		}
	}
	doc := ""
	for i, stmt := range f.Stmts {
		switch s := stmt.(type) {
		case *syntax.DefStmt:
			add(s.Name)
		case *syntax.AssignStmt:
			if id, ok := s.LHS.(*syntax.Ident); ok {
				add(id)
			}
		case *syntax.ExprStmt:
			if lit, ok := s.X.(*syntax.Literal); ok && i == 0 && lit.Token == syntax.STRING {
				doc, _ = lit.Value.(string)
			}
		}
	}
	return names, doc, nil
}

// symbol classifies the value a public name is bound to.
func symbol(name string, v starlark.Value) (Symbol, error) {
	s := Symbol{Name: name}
	switch v := v.(type) {
	case *ruleValue:
		r := v.Rule
		s.Rule = &r
	case *providerValue:
		p := v.Provider
		s.Provider = &p
	case *extensionValue:
		e := v.Extension
		s.Extension = &e
	case *starlark.Function:
		m := &Macro{Doc: v.Doc()}
		for i := 0; i < v.NumParams(); i++ {
			p, _ := v.Param(i)
			switch {
			case v.HasKwargs() && i == v.NumParams()-1:
				p = "**" + p
			case v.HasVarargs() && i == v.NumParams()-1-btoi(v.HasKwargs()):
				p = "*" + p
			}
			def := ""
			if d := v.ParamDefault(i); d != nil {
				def = d.String()
			}
			m.Params = append(m.Params, Param{Name: p, Default: def})
		}
		s.Macro = m
	default:
		return s, fmt.Errorf("public symbol %s is a %s: only rules, macros (functions), providers and module extensions can be documented; rename it with a leading _ if it is private", name, v.Type())
	}
	return s, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
