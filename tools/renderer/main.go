// Command krm renders kustomizations. `krm build DIR` prints exactly what
// `kustomize build DIR` (v5.8.2) prints.
package main

import (
	"fmt"
	"io"
	"os"

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
	case "version", "--version":
		fmt.Fprintf(stdout, "krm %s (kustomize v5.8.2 compatible)\n", version)
		return 0
	case "help", "-h", "--help":
		if len(args) > 1 && args[1] == "build" {
			buildFlags(stderr).Usage()
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
