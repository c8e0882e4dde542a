package execfn

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// Declarations are the executables a build may run as exec functions:
// what `krm render --function PATH=EXECUTABLE` declares, and what the
// Bazel rule krm_kustomization passes for its `functions` attribute.
type Declarations struct {
	// Functions maps the path of an exec function, as it resolves from its
	// kustomization directory (relative to the working directory, like
	// krm render's DIR, or absolute), to the executable to run instead of
	// the file at that path (relative to the working directory, or
	// absolute).
	Functions map[string]string
	// Only makes an exec function whose path is not in Functions an error
	// (krm render --hermetic): a build runs declared executables only.
	Only bool
	// Label is the Bazel target being built, named in that error.
	Label string
}

// declared is one entry of Declarations.Functions, resolved.
type declared struct {
	// exe is the absolute path of the executable: functions run in their
	// kustomization directory, and the executable finds its runfiles
	// (`EXE.runfiles`) from the path it was started with.
	exe string
	// given is the executable as declared, for messages.
	given string
}

// Registry is Declarations resolved, keyed by absolute clean path: what a
// build hands the exec functions it configures (nil: no declarations, every
// exec function runs the file its path names).
type Registry struct {
	fns   map[string]declared
	only  bool
	label string
}

// Declare resolves d for one build; paths are resolved against the working
// directory now.
func Declare(d *Declarations) (*Registry, error) {
	fns := make(map[string]declared, len(d.Functions))
	keys := make([]string, 0, len(d.Functions))
	for k := range d.Functions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, path := range keys {
		exe := d.Functions[path]
		if path == "" || exe == "" {
			return nil, fmt.Errorf("function %q=%q: want PATH=EXECUTABLE", path, exe)
		}
		absPath, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		absExe, err := filepath.Abs(exe)
		if err != nil {
			return nil, err
		}
		if prev, ok := fns[absPath]; ok && prev.exe != absExe {
			return nil, fmt.Errorf("function %s is declared twice: %s and %s", path, prev.given, exe)
		}
		fns[absPath] = declared{exe: absExe, given: exe}
	}
	return &Registry{fns: fns, only: d.Only, label: d.Label}, nil
}

// lookup returns the declared executable for the exec path rel of
// the kustomization in root, or nil when there is none; an undeclared path
// is an error when only declared executables may run.
func (d *Registry) lookup(name, root, rel string) (*declared, error) {
	if d == nil {
		return nil, nil
	}
	if e, found := d.fns[filepath.Join(root, rel)]; found {
		st, err := os.Stat(e.exe)
		if err != nil {
			return nil, fmt.Errorf("%s: exec path %q: declared executable: %w", name, rel, err)
		}
		if !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
			return nil, fmt.Errorf("%s: exec path %q: declared executable %s is not an executable file", name, rel, e.given)
		}
		return &e, nil
	}
	if !d.only {
		return nil, nil
	}
	target := "the krm_kustomization target"
	if d.label != "" {
		target = d.label
	}
	declaredPaths := make([]string, 0, len(d.fns))
	for p := range d.fns {
		declaredPaths = append(declaredPaths, load.Rel(p))
	}
	sort.Strings(declaredPaths)
	also := ""
	if len(declaredPaths) > 0 {
		also = fmt.Sprintf(" (declared: %s)", strings.Join(declaredPaths, ", "))
	}
	return nil, fmt.Errorf("%s: exec path %q (%s) is not a declared function: builds run only declared executables; "+
		"add it to the functions attribute of %s (or of the Component target, for a function config of a component): "+
		"functions = {%q: \":my_function\"}, with :my_function a krm_function target wrapping the executable%s",
		name, rel, load.Rel(filepath.Join(root, rel)), target, rel, also)
}
