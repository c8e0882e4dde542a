package cli

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
)

const diffUsage = `Usage: krm diff OLD NEW [flags]
       krm diff --cluster MANIFESTS... [flags]

Compares two rendered manifest sets object by object (keyed by group, kind,
namespace and name): two YAML streams, or two directories (such as two
bazel-bin trees) whose .yaml/.yml files are matched by relative path. Prints
added, removed and changed objects, and each changed field with its old and
new value. Lists of named items (containers, env, ...) are matched by name;
multi-line strings get a line diff; a generated ConfigMap or Secret whose
hash suffix changed is one renamed object, with the references that follow
the rename folded under it; Secret values are never printed, wherever they
appear (docs/cli.md, "Secrets in krm diff").

With --cluster, compares the live objects of a cluster with what
'krm apply MANIFESTS' would make of them (a server-side dry-run apply of each),
showing only the fields the apply sets: no server bookkeeping, status,
defaults or fields of other field managers.

Exit status, as diff's: 0 no differences, 1 differences, 2 an error
(unreadable or malformed input, named in the message).

Flags:
`

type diffOptions struct {
	output, color string
	maxBytes      int
	live          liveDiffFlags // diff_cluster.go
	fs            *pflag.FlagSet
}

func diffFlags(stderr io.Writer) *diffOptions {
	o := &diffOptions{fs: commandFlags("diff", diffUsage, stderr)}
	o.fs.StringVarP(&o.output, "output", "o", "text", "text, markdown (a pull-request comment) or json (schema in docs/cli.md)")
	o.fs.StringVar(&o.color, "color", "auto", "text output in colour: auto (when stdout is a terminal and NO_COLOR is unset), always or never")
	o.fs.IntVar(&o.maxBytes, "max-bytes", 60000, "markdown: cut the output to about this many bytes, saying what was left out")
	o.live.register(o.fs)
	return o
}

func runDiff(args []string, s streams) int {
	stdout, stderr := s.stdout, s.stderr
	o := diffFlags(stderr)
	if code, ok := parseFlags(o.fs, args, stderr); !ok {
		return code
	}
	if o.fs.NArg() != 2 && !o.live.enabled {
		fmt.Fprintln(stderr, "Error: krm diff needs OLD and NEW, or --cluster and MANIFESTS (see krm help diff)")
		return 2
	}
	color, err := rdiff.UseColor(o.color, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	if o.output != "text" && o.output != "markdown" && o.output != "json" {
		fmt.Fprintf(stderr, "Error: --output %q: want text, markdown or json\n", o.output)
		return 2
	}
	var r *rdiff.Report
	if o.live.enabled {
		r, err = o.live.report(o.fs, stderr)
	} else {
		r, err = rdiff.Paths(o.fs.Arg(0), o.fs.Arg(1))
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	switch o.output {
	case "json":
		err = r.WriteJSON(stdout)
	case "markdown":
		err = r.WriteMarkdown(stdout, o.maxBytes)
	default:
		err = r.WriteText(stdout, color)
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: writing the diff: %v\n", err)
		return 2
	}
	if r.Empty() {
		return 0
	}
	return 1
}
