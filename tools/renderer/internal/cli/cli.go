// Package cli is krm's command line: `krm build DIR` prints exactly what
// `kustomize build DIR` (v5.8.2) prints. The main packages (tools/renderer,
// tools/renderer/krm_helm, tools/renderer/krm_nohelm) choose only what is
// linked beside it: Helm and client-go, or the hand-off to krm_helm.
//
// Each command is a file of its own (build_cmd.go, render_cmd.go, ...)
// owning its options, their flags and its usage text; cli.go dispatches.
package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/escape"
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/gcpace/atinit"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/worker"
)

// version is stamped by the release process (-X of this package's version,
// one flag for the three binaries); "dev" otherwise.
var version = "dev"

const usage = `krm renders Kubernetes manifests from kustomizations, byte-for-byte like
kustomize v5.8.2, as a hermetic tool for Bazel (rules_krm).

Usage:
  krm build DIR [flags]   print the manifests of the kustomization in DIR
  krm render DIR [flags]  render one kustomization into a snapshot (used by the Bazel rules)
  krm trace OBJECT [flags] show where an object came from, using a provenance manifest
  krm stamp FILE [flags]  put Bazel's workspace status into rendered manifests (--stamp)
  krm diff OLD NEW [flags] compare two rendered manifest sets object by object
                          (--cluster MANIFESTS: with the live objects of a cluster)
  krm validate FILE... [flags] check rendered objects against their OpenAPI schemas
  krm apply MANIFESTS [flags]  server-side apply to a cluster (--prune with an ApplySet)
  krm delete MANIFESTS [flags] delete the manifests' objects from a cluster
  krm status MANIFESTS [flags] what is running: the commit each live status reflects
  krm publish PATH=MANIFESTS... [flags] commit rendered manifests to a GitOps branch
  krm version             print krm's version
  krm help [COMMAND]      show help

Run 'krm help COMMAND' for the flags of a command.
`

// streams are what a command reads and writes besides its files: one value
// per command line, so that the requests of a persistent worker share none.
type streams struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// terminal is stdout as it was before run escaped it, when it is a terminal, else nil:
	// for a printer that draws a live line there and escapes what it prints of inputs itself
	// (convergence.Printer); everything else writes to stdout.
	terminal io.Writer
	// abort reports msg and ends the process (a Starlark script past its
	// memory limit); nil prints msg on stderr and exits 1.
	abort func(msg string)
}

// command is one of krm's commands.
type command struct {
	// flags is the command's flag set, printing errors and usage on w.
	flags func(w io.Writer) *pflag.FlagSet
	run   func(args []string, s streams) int
	// escaped are the streams whose text quotes inputs a person reads (names, values, a
	// server's or git's messages): their control characters are shown as escapes
	// (package escape). build's and stamp's output is kustomize's, byte for byte; diff
	// escapes its own output (its colours are not an input's).
	escaped escaped
}

type escaped int

const (
	escapeNone escaped = iota
	escapeStderr
	escapeBoth
)

var commands = map[string]command{
	"build":    {func(w io.Writer) *pflag.FlagSet { return buildFlags(w).fs }, runBuild, escapeNone},       // build_cmd.go
	"render":   {func(w io.Writer) *pflag.FlagSet { return renderFlags(w).fs }, runRender, escapeNone},     // render_cmd.go
	"trace":    {func(w io.Writer) *pflag.FlagSet { return traceFlags(w).fs }, runTrace, escapeBoth},       // trace_cmd.go
	"stamp":    {func(w io.Writer) *pflag.FlagSet { return stampFlags(w).fs }, runStamp, escapeNone},       // stamp_cmd.go
	"diff":     {func(w io.Writer) *pflag.FlagSet { return diffFlags(w).fs }, runDiff, escapeStderr},       // diff_cmd.go
	"validate": {func(w io.Writer) *pflag.FlagSet { return validateFlags(w).fs }, runValidate, escapeBoth}, // validate_cmd.go
	"apply":    {func(w io.Writer) *pflag.FlagSet { return applyFlags(w).fs }, runApply, escapeBoth},       // apply_cmd.go
	"delete":   {func(w io.Writer) *pflag.FlagSet { return deleteFlags(w).fs }, runDelete, escapeBoth},     // delete_cmd.go
	"publish":  {func(w io.Writer) *pflag.FlagSet { return publishFlags(w).fs }, runPublish, escapeBoth},   // publish_cmd.go
	"status":   {func(w io.Writer) *pflag.FlagSet { return statusFlags(w).fs }, runStatus, escapeBoth},     // status_cmd.go
}

// Main runs krm with args (os.Args[1:]) and returns the exit status: a
// persistent worker's loop when Bazel starts krm as one, else one command,
// its arguments read from a last @FILE argument if there is one, after those
// of an arguments file beside the executable (testArgs).
//
// becomeWorker, given by a krm that renders charts in another executable
// (package handoff), replaces the process by that one to serve as a
// persistent worker, which may meet charts; it returns only on failure.
func Main(args []string, becomeWorker func() error) int {
	// The collector is paced from initialisation on (package gcpace/atinit).
	if len(args) > 0 && args[len(args)-1] == worker.Flag {
		if becomeWorker != nil {
			err := becomeWorker() // returns only on failure
			fmt.Fprintf(os.Stderr, "Error: %v\n", err)
			return 1
		}
		return serveWorker() // worker_cmd.go
	}
	args, err := expandFlagfile(args)
	if err == nil {
		args, err = testArgs(os.Args[0], args)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "Error: %v\n", err)
		return 2
	}
	stop := profile() // profile.go
	defer stop()
	return run(args, streams{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr})
}

// run runs the command line args.
func run(args []string, s streams) int {
	if len(args) == 0 {
		fmt.Fprint(s.stderr, usage)
		return 2
	}
	if c, ok := commands[args[0]]; ok {
		if c.escaped >= escapeStderr {
			s.stderr = escape.Writer(s.stderr)
		}
		if c.escaped == escapeBoth {
			if isTerminal(s.stdout) {
				s.terminal = s.stdout
			}
			s.stdout = escape.Writer(s.stdout)
		}
		return c.run(args[1:], s)
	}
	switch args[0] {
	case "version", "--version":
		fmt.Fprintf(s.stdout, "krm %s (kustomize v5.8.2 compatible)\n", version)
		return 0
	case "help", "-h", "--help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				c.flags(s.stderr).Usage()
				return 0
			}
		}
		fmt.Fprint(s.stdout, usage)
		return 0
	}
	fmt.Fprintf(s.stderr, "Error: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// isTerminal tells whether w is a terminal (a character device), for live progress lines.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// commandFlags is a command's flag set, printing errors and usage (the
// text, then the flags) on stderr.
func commandFlags(name, usage string, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args into fs; on --help or a flag error it returns the
// exit code (0 or 2, with the error and usage printed) and false.
func parseFlags(fs *pflag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return 0, true
	case err == pflag.ErrHelp:
		return 0, false
	}
	fmt.Fprintf(stderr, "Error: %v\n", err)
	fs.Usage()
	return 2, false
}
