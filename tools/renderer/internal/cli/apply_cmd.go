package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/convergence"
)

const applyUsage = `Usage: krm apply MANIFESTS... [flags]

Applies rendered manifests (YAML files, - for stdin) to a cluster with
server-side apply, field manager "krm": CustomResourceDefinitions and
Namespaces first, waited for until established and active, then the other
objects in render order. Prints one line per object: created, configured or
unchanged. With --applyset NAME the objects are tracked in an ApplySet (a
parent Secret or ConfigMap, the Kubernetes ApplySet specification); --prune
then deletes the set's members that the manifests no longer hold, and
nothing else.

With an ApplySet, krm apply records the generation the API server returned
for each object it applied, with the commit (--source-commit, or
--source-commit-from Bazel's workspace status) and the object's inputs digest
(--provenance-manifest), in a ConfigMap NAME.krm-generations beside the
set's parent: krm trace --context and krm status then say which commit each
status reflects (docs/provenance.md, "Generation-output correlation").
Generations no output can report again are dropped; --no-record applies
without it (a user who may not write the ConfigMap is told before anything
is applied).

With --wait, krm apply then waits until every object it applied is current:
its outputs (conditions, status.observedGeneration, --output-path) observe
the applied generation and its status says it is ready. It prints a line as
each object converges (the others on a live line on a terminal) and fails
after --timeout naming each object that did not, and the condition why.

The context must be named with --context, or be in the allow-list
(--allowed-context, KRM_ALLOWED_CONTEXTS), so that a mistyped command cannot
write to another cluster.

Exit status: 0 applied (with --wait: and current), 1 a failure (every
object that was applied was printed; the message lists each failure, or
each object that did not converge), 2 a usage or input error.

Flags:
`

type applyOptions struct {
	cluster      clusterFlags
	prune, force bool
	dryRun       bool
	timeout      time.Duration
	record       recordFlags
	wait         bool
	fs           *pflag.FlagSet
}

func applyFlags(stderr io.Writer) *applyOptions {
	o := &applyOptions{fs: commandFlags("apply", applyUsage, stderr)}
	o.cluster.register(o.fs, true)
	o.fs.BoolVar(&o.prune, "prune", false, "delete the members of the ApplySet (--applyset) that the manifests no longer hold")
	o.fs.BoolVar(&o.force, "force-conflicts", false, "take fields that another field manager owns")
	o.fs.BoolVar(&o.dryRun, "dry-run", false, "send everything as a server-side dry run: the server checks it, nothing changes")
	o.fs.DurationVar(&o.timeout, "timeout", time.Minute, "how long to wait for each CRD to be established and Namespace to be active; with --wait, for every object to be current")
	o.fs.BoolVar(&o.wait, "wait", false, "after applying, wait until every object applied is current (its status observes the applied generation and says it is ready), within --timeout")
	o.record.register(o.fs)
	return o
}

func runApply(args []string, s streams) int {
	stdout, stderr := s.stdout, s.stderr
	o := applyFlags(stderr)
	if code, ok := parseFlags(o.fs, args, stderr); !ok {
		return code
	}
	if err := needManifests(o.fs, "apply"); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	if o.prune && o.cluster.applyset == "" {
		fmt.Fprintln(stderr, "Error: --prune needs --applyset NAME: krm prunes only the members of an ApplySet")
		return 2
	}
	rec, paths, err := o.record.request(o.cluster.applyset != "", stderr)
	if err != nil {
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
	// On a terminal the progress printer draws its live line on the terminal itself (the
	// escaping stdout would show the redraw as text), escaping the names it prints.
	progress := convergence.NewPrinter(stdout, false)
	if s.terminal != nil {
		progress = convergence.NewPrinter(s.terminal, true)
	}
	err = cl.Apply(ctx, clustersupport.ApplyOptions{
		Force: o.force, DryRun: o.dryRun, Prune: o.prune, Timeout: o.timeout,
		Report: func(line string) { fmt.Fprintln(stdout, line) },
		Record: rec, OutputPaths: paths,
		Wait: o.wait, WaitTimeout: o.timeout, Progress: progress.Event,
	})
	progress.Done()
	if err != nil {
		fmt.Fprintf(stderr, "Error: %s: %v\n", cl.Where(), o.cluster.deadline.explain(err))
		return 1
	}
	return 0
}
