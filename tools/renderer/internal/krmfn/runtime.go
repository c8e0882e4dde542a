package krmfn

import (
	"fmt"
	"io"
	"os"
)

// Runtime is what a function run needs from the build running it. It
// travels with the build, never in a package variable: a persistent worker
// runs many builds in one process. The zero value prints on os.Stderr and
// ends the process on Abort.
type Runtime struct {
	// Stderr receives what Starlark scripts print and what successful exec
	// functions write to their stderr.
	Stderr io.Writer
	// Abort reports msg and ends krm: a Starlark script took the heap past
	// its limit inside one operation, which cannot be interrupted. A
	// persistent worker answers its request first.
	Abort func(msg string)
	// Where names the kustomization file and the entry of it that
	// configured the function ("app/kustomization.yaml: transformers:
	// fn.yaml"), for messages that end krm; empty when unknown.
	Where string
}

// Output is where functions print.
func (r Runtime) Output() io.Writer {
	if r.Stderr == nil {
		return os.Stderr
	}
	return r.Stderr
}

// Exit reports msg through Abort, or prints it on Output and exits 1.
func (r Runtime) Exit(msg string) {
	if r.Abort != nil {
		r.Abort(msg)
		return
	}
	fmt.Fprint(r.Output(), msg)
	os.Exit(1)
}
