package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/atomicfile"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/stamp"
)

const stampUsage = `Usage: krm stamp MANIFESTS -o FILE --status FILE... [flags]

Replaces {STABLE_...} and {BUILD_...} placeholders in label and annotation
values and image fields of the manifests MANIFESTS (as krm build or krm render
wrote them) with the values of Bazel's workspace status files
(bazel-out/stable-status.txt, bazel-out/volatile-status.txt: KEY VALUE lines).
A placeholder whose key no status file has is an error. Objects without
placeholders keep their bytes. This is the KrmStamp action of krm_kustomization
under --stamp (docs/rules.md).

Flags:
`

type stampOptions struct {
	output string
	status []string
	fs     *pflag.FlagSet
}

func stampFlags(stderr io.Writer) *stampOptions {
	o := &stampOptions{fs: commandFlags("stamp", stampUsage, stderr)}
	o.fs.StringVarP(&o.output, "output", "o", "", "write the stamped manifests here (required)")
	o.fs.StringArrayVar(&o.status, "status", nil, "a workspace status file (repeatable; a key of a later file wins)")
	return o
}

func runStamp(args []string, s streams) int {
	stderr := s.stderr
	o := stampFlags(stderr)
	if code, ok := parseFlags(o.fs, args, stderr); !ok {
		return code
	}
	if o.fs.NArg() != 1 || o.output == "" {
		fmt.Fprintln(stderr, "Error: krm stamp needs one MANIFESTS file and -o FILE (see krm help stamp)")
		return 2
	}
	in, err := os.ReadFile(o.fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	var files [][]byte
	for _, f := range o.status {
		b, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 1
		}
		files = append(files, b)
	}
	out, err := stamp.Manifests(in, stamp.ParseStatus(files...))
	if err != nil {
		fmt.Fprintf(stderr, "Error: stamping %s: %v\n", o.fs.Arg(0), err)
		return 1
	}
	if err := atomicfile.WriteFile(o.output, out); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}
