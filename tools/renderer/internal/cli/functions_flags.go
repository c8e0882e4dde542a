package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/execfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
)

// renderFunctions lets krm render run functions: under Bazel the
// declarations (--function, --hermetic) are the gate, not kustomize's
// --enable-alpha-plugins --enable-exec.
var renderFunctions = render.Functions{Alpha: true, Exec: true}

// functionFlags are krm render's --function PATH=EXECUTABLE flags.
type functionFlags []string

func (f *functionFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar((*[]string)(f), "function", nil, "PATH=EXECUTABLE: run EXECUTABLE for the exec functions whose path resolves to PATH "+
		"(both relative to the working directory, like DIR; repeatable); with --hermetic, only declared executables run")
}

// declarations resolves the --function flags for one render; with
// hermetic, an exec function they do not declare is an error.
func (f functionFlags) declarations(hermetic bool, label string) (*execfn.Registry, error) {
	fns := map[string]string{}
	for _, v := range f {
		path, exe, ok := strings.Cut(v, "=")
		if !ok || path == "" || exe == "" {
			return nil, fmt.Errorf("--function %q: want PATH=EXECUTABLE", v)
		}
		if prev, dup := fns[path]; dup && prev != exe {
			return nil, fmt.Errorf("--function %s is given twice: %s and %s", path, prev, exe)
		}
		fns[path] = exe
	}
	reg, err := execfn.Declare(&execfn.Declarations{Functions: fns, Only: hermetic, Label: label})
	if err != nil {
		return nil, fmt.Errorf("--function: %w", err)
	}
	return reg, nil
}
