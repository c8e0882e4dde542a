package starlarkfn

import (
	"fmt"
	"math/bits"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// str.replace is the one built-in that asks Go for its whole result at
// once (the others grow it, and the memory watchdog stops them): a 1 MB
// string with each character replaced by itself asks for a terabyte, and
// the Go runtime crashes instead of failing. krm checks the result's size
// first. The method is reached through the receiver of every .replace in
// a script, which the compiler passes through guardName (a name no script
// can spell), and through getattr.
const guardName = "krm·guard"

// execFile parses, compiles and runs a script or module with the replace
// check in place.
func execFile(thread *starlark.Thread, filename string, src []byte, predeclared starlark.StringDict) (starlark.StringDict, error) {
	f, err := fileOptions.Parse(filename, src, 0)
	if err != nil {
		return nil, err
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if d, ok := n.(*syntax.DotExpr); ok && d.Name.Name == "replace" {
			d.X = &syntax.CallExpr{Fn: &syntax.Ident{NamePos: d.Dot, Name: guardName}, Lparen: d.Dot, Args: []syntax.Expr{d.X}, Rparen: d.Dot}
		}
		return true
	})
	all := starlark.StringDict{guardName: guardBuiltin, "getattr": guardedGetattr}
	for k, v := range predeclared {
		all[k] = v
	}
	prog, err := starlark.FileProgram(f, all.Has)
	if err != nil {
		return nil, err
	}
	g, err := prog.Init(thread, all)
	g.Freeze()
	return g, err
}

var guardBuiltin = starlark.NewBuiltin(guardName, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if s, ok := args[0].(starlark.String); ok {
		return guardedString{s}, nil
	}
	return args[0], nil
})

var guardedGetattr = starlark.NewBuiltin("getattr", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) >= 2 && len(kwargs) == 0 {
		if s, ok := args[0].(starlark.String); ok && args[1] == starlark.String("replace") {
			return guardedString{s}.Attr("replace")
		}
	}
	return starlark.Call(thread, starlark.Universe["getattr"], args, kwargs)
})

// guardedString is a string whose replace method checks its result's size.
type guardedString struct{ s starlark.String }

func (g guardedString) String() string        { return g.s.String() }
func (g guardedString) Type() string          { return g.s.Type() }
func (g guardedString) Freeze()               {}
func (g guardedString) Truth() starlark.Bool  { return g.s.Truth() }
func (g guardedString) Hash() (uint32, error) { return g.s.Hash() }
func (g guardedString) AttrNames() []string   { return g.s.AttrNames() }

func (g guardedString) Attr(name string) (starlark.Value, error) {
	method, err := g.s.Attr(name)
	if name != "replace" || err != nil {
		return method, err
	}
	s := string(g.s)
	return starlark.NewBuiltin("replace", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var old, new string
		count := -1
		if err := starlark.UnpackPositionalArgs("replace", args, kwargs, 2, &old, &new, &count); err != nil {
			return nil, err
		}
		if size, ok := replacedSize(s, old, new, count); !ok || size > MaxMemory {
			return nil, fmt.Errorf("replace: the result would be larger than the memory limit of %d MiB", MaxMemory>>20)
		}
		return starlark.Call(thread, method, args, kwargs)
	}).BindReceiver(g.s), nil
}

// replacedSize is the length of strings.Replace(s, old, new, count); ok is
// false when it does not fit in an int.
func replacedSize(s, old, new string, count int) (size int, ok bool) {
	n := 0
	if old == "" {
		n = utf8.RuneCountInString(s) + 1
	} else {
		n = strings.Count(s, old)
	}
	if count >= 0 && count < n {
		n = count
	}
	if len(new) <= len(old) {
		return len(s) - n*(len(old)-len(new)), true
	}
	hi, lo := bits.Mul(uint(n), uint(len(new)-len(old)))
	if hi != 0 || lo > uint(1<<62) {
		return 0, false
	}
	return len(s) + int(lo), true
}
