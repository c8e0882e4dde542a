package starlarkfn

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"go.starlark.net/lib/json"
	"go.starlark.net/lib/math"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
	"sigs.k8s.io/kustomize/api/ifc"

	starlarklib "github.com/rules-krm/rules_krm/starlark"
)

// LibraryEnv names a directory that replaces the library built into krm
// as the target of @rules_krm//starlark labels.
const LibraryEnv = "KRM_STARLARK_LIB"

// LibraryPrefix starts the labels that name the rules_krm library.
const LibraryPrefix = "@rules_krm//"

// builtinModules are the pure modules kpt's starlark function offers under
// these names. Nothing else is built in: no time, no randomness, no I/O.
var builtinModules = map[string]starlark.StringDict{
	"encoding/json.star": {"json": boundedJSON()},
	"math.star":          {"math": math.Module},
}

// boundedJSON is Starlark's json module whose decode refuses input nested
// deeper than MaxNesting: its decoder recurses on the Go stack.
func boundedJSON() *starlarkstruct.Module {
	members := starlark.StringDict{}
	for k, v := range json.Module.Members {
		members[k] = v
	}
	decode := json.Module.Members["decode"]
	members["decode"] = starlark.NewBuiltin("json.decode", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) > 0 {
			if s, ok := args[0].(starlark.String); ok && jsonDepth(string(s)) > MaxNesting {
				return nil, fmt.Errorf("json.decode: input nested deeper than %d levels", MaxNesting)
			}
		}
		return starlark.Call(thread, decode, args, kwargs)
	})
	return &starlarkstruct.Module{Name: json.Module.Name, Members: members}
}

// jsonDepth is how deep the arrays and objects of JSON text s nest (an
// upper bound for invalid text, which decode then rejects).
func jsonDepth(s string) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// fileOptions are the dialect kpt's starlark function enables: sets,
// while loops, recursion, and if/for/while at top level with reassignable
// globals.
var fileOptions = &syntax.FileOptions{
	Set:             true,
	While:           true,
	TopLevelControl: true,
	GlobalReassign:  true,
	Recursion:       true,
}

// moduleKey is the thread-local key holding the name of the module a thread
// executes, so that relative loads resolve against it.
const moduleKey = "krm.module"

// module is where a loaded module comes from.
type module struct {
	// key identifies the module: "lib:<path>" for the library, the
	// kustomization-relative path of a user file.
	key string
	// display names it in positions and backtraces.
	display string
}

func (m module) isLib() bool { return strings.HasPrefix(m.key, "lib:") }

// dir is the directory relative loads of m start from.
func (m module) dir() string { return path.Dir(strings.TrimPrefix(m.key, "lib:")) }

type entry struct {
	globals starlark.StringDict
	err     error
	done    bool
}

// modules loads the modules of one script run.
type modules struct {
	ldr    ifc.Loader
	lib    fs.FS
	libErr error
	cache  map[string]*entry
	print  func(*starlark.Thread, string)
	budget *budget
}

// library returns the rules_krm Starlark library: the directory named by
// $KRM_STARLARK_LIB when set, else the copy built into krm.
func library() (fs.FS, error) {
	dir := os.Getenv(LibraryEnv)
	if dir == "" {
		return starlarklib.Files, nil
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("$%s=%q is not a directory", LibraryEnv, dir)
	}
	return os.DirFS(dir), nil
}

// resolve names the module that the module from loads as name.
func (ms *modules) resolve(from module, name string) (module, error) {
	switch {
	case strings.HasPrefix(name, LibraryPrefix):
		rest := strings.TrimPrefix(name, LibraryPrefix)
		pkg, file, ok := strings.Cut(rest, ":")
		if !ok || file == "" {
			return module{}, fmt.Errorf("%q: a label needs a file part, as in %sstarlark:labels.star", name, LibraryPrefix)
		}
		if pkg != "starlark" && !strings.HasPrefix(pkg, "starlark/") {
			return module{}, fmt.Errorf("%q: only the %sstarlark package can be loaded", name, LibraryPrefix)
		}
		p := path.Join(strings.TrimPrefix(pkg, "starlark"), file)
		p = strings.TrimPrefix(p, "/")
		if !fs.ValidPath(p) {
			return module{}, fmt.Errorf("%q: not a file of the library", name)
		}
		return libModule(p), nil
	case strings.HasPrefix(name, "@") || strings.HasPrefix(name, "//"):
		return module{}, fmt.Errorf("%q: only %sstarlark labels, the modules encoding/json.star and math.star, and paths relative to the loading file can be loaded", name, LibraryPrefix)
	case path.IsAbs(name):
		return module{}, fmt.Errorf("%q: absolute paths cannot be loaded; use a path relative to the loading file", name)
	}
	rel := strings.TrimPrefix(name, ":") // Bazel-style ":file.star" is the loading file's directory too.
	p := path.Join(from.dir(), rel)
	if from.isLib() {
		if !fs.ValidPath(p) {
			return module{}, fmt.Errorf("%q: a library module can load only library modules", name)
		}
		return libModule(p), nil
	}
	return module{key: p, display: p}, nil
}

func libModule(p string) module {
	dir, file := path.Split(p)
	pkg := strings.TrimSuffix(path.Join("starlark", dir), "/")
	return module{key: "lib:" + p, display: LibraryPrefix + pkg + ":" + file}
}

// source reads a module's text: user files through the kustomization's
// loader (so its load restrictions and missing-input hints apply), library
// files from the library.
func (ms *modules) source(m module) ([]byte, error) {
	if !m.isLib() {
		return ms.ldr.Load(m.key)
	}
	if ms.lib == nil && ms.libErr == nil {
		ms.lib, ms.libErr = library()
	}
	if ms.libErr != nil {
		return nil, ms.libErr
	}
	b, err := fs.ReadFile(ms.lib, strings.TrimPrefix(m.key, "lib:"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file in the rules_krm Starlark library", m.display)
	}
	return b, err
}

// load implements starlark.Thread.Load.
func (ms *modules) load(thread *starlark.Thread, name string) (starlark.StringDict, error) {
	if g, ok := builtinModules[name]; ok {
		return g, nil
	}
	from, _ := thread.Local(moduleKey).(module)
	m, err := ms.resolve(from, name)
	if err != nil {
		return nil, err
	}
	if e, ok := ms.cache[m.key]; ok {
		if !e.done {
			return nil, fmt.Errorf("cycle in load graph: %s loads itself", m.display)
		}
		return e.globals, e.err
	}
	e := &entry{}
	ms.cache[m.key] = e
	e.globals, e.err = ms.exec(thread, m)
	e.done = true
	return e.globals, e.err
}

// exec runs a loaded module in a thread of its own that shares the
// caller's step budget.
func (ms *modules) exec(parent *starlark.Thread, m module) (starlark.StringDict, error) {
	src, err := ms.source(m)
	if err != nil {
		return nil, err
	}
	t := ms.thread(m)
	base, _ := parent.Local(budgetKey).(uint64)
	ms.budget.start(t, base+parent.Steps)
	g, err := execFile(t, m.display, src, nil)
	parent.Steps += t.Steps
	ms.budget.current.Store(parent)
	// An *starlark.EvalError stays the cause of the load error, so that
	// the report shows the module's backtrace too.
	return g, err
}

func (ms *modules) thread(m module) *starlark.Thread {
	t := &starlark.Thread{Name: m.display, Load: ms.load, Print: ms.print}
	t.SetLocal(moduleKey, m)
	return t
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}
