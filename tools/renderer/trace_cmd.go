package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/trace"
)

const traceUsage = `Usage: krm trace OBJECT --provenance-manifest FILE [flags]

Shows where an object came from: its source file and line span (or the
generator that made it), each transformer that changed it with the file that
configured it and the files it read, and whether the object was rendered
from the inputs the provenance manifest records.

OBJECT is one of:
  FILE or -        the object as the cluster returns it (kubectl get -o yaml
                   or -o json; a List traces each item). Server-added fields
                   (status, managedFields, uid, ...) are ignored; its
                   provenance.rules-krm.dev/inputs-digest annotation is
                   compared with the manifest.
  KIND[.GROUP]/[NAMESPACE/]NAME
                   an object named by ID (no digest comparison).

Exit status: 0 found (and, for a live object, its digest matches), 3 a live
object's digest does not match or it has none, 1 an error (not found, bad
input), 2 a usage error.

Flags:
`

type traceOptions struct {
	manifest, workspaceRoot string
	fs                      *pflag.FlagSet
}

func traceFlags(stderr io.Writer) *traceOptions {
	o := &traceOptions{fs: commandFlags("trace", traceUsage, stderr)}
	o.fs.StringVarP(&o.manifest, "provenance-manifest", "m", "", "the provenance manifest written by krm build/render (required)")
	o.fs.StringVar(&o.workspaceRoot, "workspace-root", "", "also report which of the object's input files changed since the render (paths in the manifest are relative to this directory)")
	return o
}

func runTrace(args []string, s streams) int {
	stdout, stderr := s.stdout, s.stderr
	o := traceFlags(stderr)
	if code, ok := parseFlags(o.fs, args, stderr); !ok {
		return code
	}
	if o.fs.NArg() != 1 || o.manifest == "" {
		fmt.Fprintln(stderr, "Error: krm trace needs one OBJECT and --provenance-manifest FILE (see krm help trace)")
		return 2
	}
	queries, err := trace.LoadQueries(o.fs.Arg(0), s.stdin)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		if _, usage := err.(trace.UsageError); usage {
			return 2
		}
		return 1
	}
	man, err := trace.LoadManifest(o.manifest)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	opts := trace.Options{FS: filesys.MakeFsOnDisk(), WorkspaceRoot: o.workspaceRoot}
	code := 0
	for i, q := range queries {
		r, err := trace.Trace(man, q, opts)
		if err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			code = 1
			continue
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		trace.Print(stdout, r)
		if (r.Status == trace.Mismatch || r.Status == trace.NoDigest) && code == 0 {
			code = 3
		}
	}
	return code
}
