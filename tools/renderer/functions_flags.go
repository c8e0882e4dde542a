package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/build"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/execfn"
)

// functionFlag is krm render's flag declaring the executable of an exec function.
const functionFlag = "function"

// renderFunctions lets krm render run functions: under Bazel the
// declarations (--function, --hermetic) are the gate, not kustomize's
// --enable-alpha-plugins --enable-exec.
var renderFunctions = build.Functions{Alpha: true, Exec: true}

// addFunctionFlag adds --function PATH=EXECUTABLE to krm render's flags.
func addFunctionFlag(fs *pflag.FlagSet) {
	fs.StringArray(functionFlag, nil, "PATH=EXECUTABLE: run EXECUTABLE for the exec functions whose path resolves to PATH "+
		"(both relative to the working directory, like DIR; repeatable); with --hermetic, only declared executables run")
}

// declareFunctions hands the --function flags of krm render to the exec
// function runtime; with --hermetic, an exec function they do not declare
// is an error. It prints a usage error and returns 2, or returns 0.
func declareFunctions(fs *pflag.FlagSet, hermetic bool, label string, stderr io.Writer) int {
	flags, err := fs.GetStringArray(functionFlag)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	fns := map[string]string{}
	for _, f := range flags {
		path, exe, ok := strings.Cut(f, "=")
		if !ok || path == "" || exe == "" {
			fmt.Fprintf(stderr, "Error: --function %q: want PATH=EXECUTABLE\n", f)
			return 2
		}
		if prev, dup := fns[path]; dup && prev != exe {
			fmt.Fprintf(stderr, "Error: --function %s is given twice: %s and %s\n", path, prev, exe)
			return 2
		}
		fns[path] = exe
	}
	if err := execfn.Declare(&execfn.Declarations{Functions: fns, Only: hermetic, Label: label}); err != nil {
		fmt.Fprintf(stderr, "Error: --function: %v\n", err)
		return 2
	}
	return 0
}
