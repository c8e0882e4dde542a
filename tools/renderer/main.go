// Command krm renders kustomizations. `krm build DIR` prints exactly what
// `kustomize build DIR` (v5.8.2) prints.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/build"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/emit"
)

// version is stamped by the release process; "dev" otherwise.
var version = "dev"

const usage = `krm renders Kubernetes manifests from kustomizations, byte-for-byte like
kustomize v5.8.2, as a hermetic tool for Bazel (rules_krm).

Usage:
  krm build DIR [flags]   print the manifests of the kustomization in DIR
  krm render DIR [flags]  render one kustomization into a snapshot (used by the Bazel rules)
  krm version             print krm's version
  krm help [COMMAND]      show help

Run 'krm help build' for the flags of build.
`

const buildUsage = `Usage: krm build DIR [flags]

Renders the kustomization in DIR (default ".") and prints the YAML stream on
stdout, or writes it to the file given by -o. Same output as 'kustomize build DIR'.
Remote bases and resources (URLs, git) are refused: builds never use the network.
On error krm prints the error on stderr, exits 1 and leaves no output file.

Flags:
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "build":
		return runBuild(args[1:], stdout, stderr)
	case "render":
		return runRender(args[1:], stderr)
	case "version", "--version":
		fmt.Fprintf(stdout, "krm %s (kustomize v5.8.2 compatible)\n", version)
		return 0
	case "help", "-h", "--help":
		if len(args) > 1 && args[1] == "build" {
			buildFlags(stderr).Usage()
			return 0
		}
		if len(args) > 1 && args[1] == "render" {
			renderFlags(stderr).fs.Usage()
			return 0
		}
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "Error: unknown command %q\n\n%s", args[0], usage)
	return 2
}

type buildOptions struct {
	output         string
	loadRestrictor string
	fs             *pflag.FlagSet
}

func buildFlags(stderr io.Writer) *buildOptions {
	o := &buildOptions{fs: pflag.NewFlagSet("build", pflag.ContinueOnError)}
	o.fs.SetOutput(stderr)
	o.fs.StringVarP(&o.output, "output", "o", "", "write the manifests to this file instead of stdout")
	o.fs.StringVar(&o.loadRestrictor, "load-restrictor", build.LoadRestrictionsRootOnly,
		"LoadRestrictionsRootOnly: files must be in or below the kustomization's directory; LoadRestrictionsNone: any file")
	o.fs.Usage = func() {
		fmt.Fprint(stderr, buildUsage)
		o.fs.PrintDefaults()
	}
	return o
}

func (o *buildOptions) Usage() { o.fs.Usage() }

func runBuild(args []string, stdout, stderr io.Writer) int {
	o := buildFlags(stderr)
	if err := o.fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		fmt.Fprintf(stderr, "Error: %v\n", err)
		o.fs.Usage()
		return 2
	}
	dir := "."
	switch o.fs.NArg() {
	case 0:
	case 1:
		dir = o.fs.Arg(0)
	default:
		fmt.Fprintln(stderr, "Error: krm build takes at most one directory")
		return 2
	}
	out, err := build.Build(filesys.MakeFsOnDisk(), dir, build.Options{LoadRestrictor: o.loadRestrictor})
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if o.output == "" {
		if _, err := stdout.Write(out); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 1
		}
		return 0
	}
	if err := emit.WriteFileAtomic(o.output, out); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}

const renderUsage = `Usage: krm render DIR --snapshot FILE [--manifests FILE] [--dep DIR=SNAPSHOT]... [flags]

Renders the one kustomization in DIR, reading each base it names from the
snapshot given with --dep instead of from the base's sources, and writes this
kustomization's own snapshot (what its parents continue from) and, with
--manifests, its final manifests (what 'kustomize build DIR' prints).
This is the action the Bazel rule krm_kustomization runs; see docs/snapshot.md.

Flags:
`

type renderOptions struct {
	snapshot, manifests, label, loadRestrictor string
	deps                                       []string
	hermetic                                   bool
	fs                                         *pflag.FlagSet
}

func renderFlags(stderr io.Writer) *renderOptions {
	o := &renderOptions{fs: pflag.NewFlagSet("render", pflag.ContinueOnError)}
	o.fs.SetOutput(stderr)
	o.fs.StringVar(&o.snapshot, "snapshot", "", "write this kustomization's snapshot here (required)")
	o.fs.StringVar(&o.manifests, "manifests", "", "also write the final manifests here")
	o.fs.StringArrayVar(&o.deps, "dep", nil, "DIR=SNAPSHOT: read the base kustomization in DIR from SNAPSHOT (repeatable)")
	o.fs.StringVar(&o.label, "label", "", "the Bazel label being built, named in errors and recorded in the snapshot")
	o.fs.BoolVar(&o.hermetic, "hermetic", false, "fail when a base directory has no --dep snapshot instead of reading its sources")
	o.fs.StringVar(&o.loadRestrictor, "load-restrictor", build.LoadRestrictionsRootOnly, "as for krm build")
	o.fs.Usage = func() {
		fmt.Fprint(stderr, renderUsage)
		o.fs.PrintDefaults()
	}
	return o
}

func runRender(args []string, stderr io.Writer) int {
	o := renderFlags(stderr)
	if err := o.fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		fmt.Fprintf(stderr, "Error: %v\n", err)
		o.fs.Usage()
		return 2
	}
	if o.fs.NArg() != 1 || o.snapshot == "" {
		fmt.Fprintln(stderr, "Error: krm render needs one directory and --snapshot FILE (see krm help render)")
		return 2
	}
	deps := map[string]string{}
	for _, d := range o.deps {
		dir, file, ok := strings.Cut(d, "=")
		if !ok || dir == "" || file == "" {
			fmt.Fprintf(stderr, "Error: --dep %q: want DIR=SNAPSHOT\n", d)
			return 2
		}
		deps[dir] = file
	}
	res, err := build.Render(filesys.MakeFsOnDisk(), o.fs.Arg(0), build.Options{
		LoadRestrictor: o.loadRestrictor, Deps: deps, Hermetic: o.hermetic, Label: o.label,
	}, true)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if err := emit.WriteFileAtomic(o.snapshot, res.Snapshot); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if o.manifests != "" {
		if err := emit.WriteFileAtomic(o.manifests, res.Manifests); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 1
		}
	}
	return 0
}
