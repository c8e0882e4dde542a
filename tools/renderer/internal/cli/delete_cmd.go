package cli

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

const deleteUsage = `Usage: krm delete MANIFESTS... [flags]

Deletes the objects of rendered manifests (YAML files, - for stdin) from a
cluster: the others first, then Namespaces and CustomResourceDefinitions, and
last the parent of the ApplySet named by --applyset (and its generation
record, if krm apply wrote one). Prints one line per object: deleted, or not
found.

The context must be named with --context, or be in the allow-list
(--allowed-context, KRM_ALLOWED_CONTEXTS).

Exit status: 0 deleted (or already gone), 1 a failure (the message lists
each), 2 a usage or input error.

Flags:
`

type deleteOptions struct {
	cluster clusterFlags
	dryRun  bool
	fs      *pflag.FlagSet
}

func deleteFlags(stderr io.Writer) *deleteOptions {
	o := &deleteOptions{fs: commandFlags("delete", deleteUsage, stderr)}
	o.cluster.register(o.fs, true)
	o.fs.BoolVar(&o.dryRun, "dry-run", false, "send the deletes as server-side dry runs: nothing changes")
	return o
}

func runDelete(args []string, s streams) int {
	stdout, stderr := s.stdout, s.stderr
	o := deleteFlags(stderr)
	if code, ok := parseFlags(o.fs, args, stderr); !ok {
		return code
	}
	if err := needManifests(o.fs, "delete"); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	ctx := o.cluster.deadline.start()
	defer o.cluster.deadline.stop()
	cl, err := o.cluster.connect(ctx, o.fs.Args(), true, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", o.cluster.deadline.explain(err))
		return clusterExit(err)
	}
	if err := cl.Delete(ctx, o.dryRun, func(line string) { fmt.Fprintln(stdout, line) }); err != nil {
		fmt.Fprintf(stderr, "Error: %s: %v\n", cl.Where(), o.cluster.deadline.explain(err))
		return 1
	}
	return 0
}
