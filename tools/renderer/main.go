// Command krm renders kustomizations. `krm build DIR` prints exactly what
// `kustomize build DIR` (v5.8.2) prints.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/build"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/emit"
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/gcpace/atinit"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/inputs"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/outdir"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provenance"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/trace"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/worker"
)

// version is stamped by the release process; "dev" otherwise.
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
  krm apply MANIFESTS [flags]  server-side apply to a cluster (--prune with an ApplySet)
  krm delete MANIFESTS [flags] delete the manifests' objects from a cluster
  krm version             print krm's version
  krm help [COMMAND]      show help

Run 'krm help COMMAND' for the flags of a command.
`

const buildUsage = `Usage: krm build DIR [flags]

Renders the kustomization in DIR (default ".") and prints the YAML stream on
stdout, or writes it to the file given by -o (an existing directory: a file per
object). Same output and flags as 'kustomize build DIR'.
Remote bases and resources (URLs, git) are refused: builds never use the network.
On error krm prints the error on stderr, exits 1 and leaves no output file.
With --provenance every object also carries its origin, the transformers that
changed it and an inputs digest (docs/provenance.md; 'krm help trace').

Flags:
`

func main() { os.Exit(krm(os.Args[1:])) }

// krm is main, returning the exit status: a persistent worker's loop when
// Bazel starts krm as one, else one command, its arguments read from a
// last @FILE argument if there is one.
func krm(args []string) int {
	// The collector is paced from initialisation on (package gcpace/atinit).
	if len(args) > 0 && args[len(args)-1] == worker.Flag {
		return serveWorker() // worker_cmd.go
	}
	args, err := expandFlagfile(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "Error: %v\n", err)
		return 2
	}
	stop := profile() // profile.go
	defer stop()
	return run(args, os.Stdout, os.Stderr)
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
	case "trace":
		return runTrace(args[1:], stdout, stderr)
	case "stamp":
		return runStamp(args[1:], stderr) // stamp_cmd.go
	case "diff":
		return runDiff(args[1:], stdout, stderr) // diff_cmd.go
	case "apply":
		return runApply(args[1:], stdout, stderr) // apply_cmd.go
	case "delete":
		return runDelete(args[1:], stdout, stderr) // delete_cmd.go
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
		if len(args) > 1 && args[1] == "stamp" {
			stampFlags(stderr).fs.Usage()
			return 0
		}
		if len(args) > 1 && args[1] == "diff" {
			diffFlags(stderr).fs.Usage()
			return 0
		}
		if len(args) > 1 && args[1] == "apply" {
			applyFlags(stderr).fs.Usage()
			return 0
		}
		if len(args) > 1 && args[1] == "delete" {
			deleteFlags(stderr).fs.Usage()
			return 0
		}
		if len(args) > 1 && args[1] == "trace" {
			traceFlags(stderr).fs.Usage()
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
	helm           helmFlags
	prov           provenanceFlags
	kustomize      kustomizeBuildFlags // build_flags.go
	fs             *pflag.FlagSet
}

// provenanceFlags are the flags build and render share for provenance.
type provenanceFlags struct {
	enabled       bool
	manifest      string
	workspaceRoot string
	labelMap      []string
}

func (p *provenanceFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&p.enabled, "provenance", false,
		"annotate every object with its origin, the transformers that changed it and its inputs digest (docs/provenance.md)")
	fs.StringVar(&p.manifest, "provenance-manifest", "", "write the provenance manifest (JSON) to this file; implies --provenance")
	fs.StringVar(&p.workspaceRoot, "workspace-root", "", "provenance paths are relative to this directory (default: the current directory)")
	fs.StringArrayVar(&p.labelMap, "label-map", nil, "DIR=LABEL: the Bazel label of the kustomization in DIR, recorded in provenance (repeatable)")
}

// options returns the provenance options, or nil when provenance is off.
func (p *provenanceFlags) options() (*provenance.Options, error) {
	if !p.enabled && p.manifest == "" {
		if p.workspaceRoot != "" || len(p.labelMap) > 0 {
			return nil, fmt.Errorf("--workspace-root and --label-map need --provenance")
		}
		return nil, nil
	}
	labels, err := dirMap("label-map", "DIR=LABEL", p.labelMap)
	if err != nil {
		return nil, err
	}
	return &provenance.Options{WorkspaceRoot: p.workspaceRoot, Labels: labels}, nil
}

// dirMap parses the values of a repeatable DIR=VALUE flag.
func dirMap(flag, want string, values []string) (map[string]string, error) {
	m := map[string]string{}
	for _, v := range values {
		dir, val, ok := strings.Cut(v, "=")
		if !ok || dir == "" || val == "" {
			return nil, fmt.Errorf("--%s %q: want %s", flag, v, want)
		}
		m[dir] = val
	}
	return m, nil
}

func buildFlags(stderr io.Writer) *buildOptions {
	o := &buildOptions{fs: pflag.NewFlagSet("build", pflag.ContinueOnError)}
	o.fs.SetOutput(stderr)
	o.fs.StringVarP(&o.output, "output", "o", "", "write the manifests to this file instead of stdout; to an existing directory, one file per object named as kustomize names them (GROUP_VERSION_KIND_NAME.yaml)")
	o.fs.StringVar(&o.loadRestrictor, "load-restrictor", build.LoadRestrictionsRootOnly,
		"LoadRestrictionsRootOnly: files must be in or below the kustomization's directory; LoadRestrictionsNone: any file")
	o.prov.register(o.fs)
	o.kustomize.register(o.fs)
	addImageFlag(o.fs) // images_flags.go
	o.helm.register(o.fs)
	o.fs.Usage = func() {
		fmt.Fprint(stderr, buildUsage)
		o.fs.PrintDefaults()
	}
	return o
}

func (o *buildOptions) Usage() { o.fs.Usage() }

func runBuild(args []string, stdout, stderr io.Writer) int {
	o := buildFlags(stderr)
	if code, ok := parseFlags(o.fs, args, stderr); !ok {
		return code
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
	prov, err := o.prov.options()
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	imgs, err := imageSpecs(o.fs)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	opts := build.Options{Warnings: stderr, LoadRestrictor: o.loadRestrictor, Provenance: prov, Images: imgs, Helm: o.helm.config(stderr)}
	if err := o.kustomize.apply(o.fs, &opts, stderr); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	res, err := build.Render(filesys.MakeFsOnDisk(), dir, opts, false)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	// The files are written all or nothing, after stdout. -o DIR (an existing directory)
	// gets one file per object, as kustomize writes it.
	var files []emit.File
	switch {
	case o.output == "":
		if _, err := stdout.Write(res.Manifests); err != nil {
			fmt.Fprintf(stderr, "Error: writing stdout: %v\n", err)
			return 1
		}
	case isDir(o.output):
		if err := outdir.Write(o.output, res.Manifests); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 1
		}
	default:
		files = append(files, emit.File{Path: o.output, Data: res.Manifests})
	}
	if o.prov.manifest != "" {
		files = append(files, emit.File{Path: o.prov.manifest, Data: res.ProvenanceManifest})
	}
	if err := emit.WriteFiles(files); err != nil {
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
	inputs, kind                               string
	deps, owners, inputLines                   []string
	hermetic, origins, basesFromSources        bool
	prov                                       provenanceFlags
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
	o.fs.StringVar(&o.inputs, "inputs", "", "read only the files this manifest declares: one a line, PATH<tab>SOURCE (PATH relative to the working directory as the kustomizations name it, SOURCE where to read it); implies --hermetic")
	o.fs.StringArrayVar(&o.inputLines, "input", nil, "PATH<tab>SOURCE (or PATH): one more declared file, a line of --inputs (repeatable; the Bazel rules pass them in the action's @FILE, which a persistent worker reads); implies --hermetic")
	o.fs.StringVar(&o.kind, "kind", "", "fail unless the kustomization has this kind (Kustomization or Component)")
	o.fs.BoolVar(&o.basesFromSources, "bases-from-sources", false, "render every base from its declared sources in this process, not from a --dep snapshot: for a tree that sets openapi, whose schema kustomize applies beyond the kustomization that sets it")
	o.fs.StringArrayVar(&o.owners, "owner", nil, "DIR=LABEL: the Bazel target declaring the kustomization in DIR, named in errors (repeatable; with --bases-from-sources)")
	o.fs.BoolVar(&o.origins, "origins", false, "record origin and transformer annotations in the snapshot, for parents whose buildMetadata asks for them (every --dep must have them too)")
	addFunctionFlag(o.fs) // functions_flags.go
	addImageFlag(o.fs)    // images_flags.go
	o.prov.register(o.fs)
	o.fs.Usage = func() {
		fmt.Fprint(stderr, renderUsage)
		o.fs.PrintDefaults()
	}
	return o
}

func runRender(args []string, stderr io.Writer) int {
	o := renderFlags(stderr)
	if code, ok := parseFlags(o.fs, args, stderr); !ok {
		return code
	}
	if o.fs.NArg() != 1 || (o.snapshot == "" && o.manifests == "") {
		fmt.Fprintln(stderr, "Error: krm render needs one directory and --snapshot FILE or --manifests FILE (see krm help render)")
		return 2
	}
	deps, err := dirMap("dep", "DIR=SNAPSHOT", o.deps)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	owners, err := dirMap("owner", "DIR=LABEL", o.owners)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	depFiles := make([]string, 0, len(deps))
	for _, file := range deps {
		depFiles = append(depFiles, file)
	}
	sort.Strings(depFiles)
	var fsys filesys.FileSystem = filesys.MakeFsOnDisk()
	if o.inputs != "" || len(o.inputLines) > 0 {
		in, err := inputs.Load(o.inputs, o.inputLines, depFiles...)
		if err != nil {
			if o.inputs != "" {
				fmt.Fprintf(stderr, "Error: --inputs: %v\n", err)
			} else {
				fmt.Fprintf(stderr, "Error: %v\n", err) // names the --input
			}
			return 1
		}
		fsys, o.hermetic = in, true
	}
	if code := declareFunctions(o.fs, o.hermetic, o.label, stderr); code != 0 {
		return code
	}
	prov, err := o.prov.options()
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	imgs, err := imageSpecs(o.fs)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	res, err := build.Render(fsys, o.fs.Arg(0), build.Options{
		Warnings: stderr, LoadRestrictor: o.loadRestrictor, Deps: deps, Hermetic: o.hermetic, Label: o.label, Provenance: prov,
		Kind: o.kind, SnapshotOnly: o.manifests == "", Origins: o.origins, Images: imgs, Helm: renderHelm,
		BasesFromSources: o.basesFromSources, Owners: owners,
		Functions: renderFunctions, // declared functions (--function) are the gate
	}, o.snapshot != "")
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	var files []emit.File
	if o.snapshot != "" {
		files = append(files, emit.File{Path: o.snapshot, Data: res.Snapshot})
	}
	if o.manifests != "" {
		files = append(files, emit.File{Path: o.manifests, Data: res.Manifests})
	}
	if o.prov.manifest != "" {
		files = append(files, emit.File{Path: o.prov.manifest, Data: res.ProvenanceManifest})
	}
	if err := emit.WriteFiles(files); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}

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
	o := &traceOptions{fs: pflag.NewFlagSet("trace", pflag.ContinueOnError)}
	o.fs.SetOutput(stderr)
	o.fs.StringVarP(&o.manifest, "provenance-manifest", "m", "", "the provenance manifest written by krm build/render (required)")
	o.fs.StringVar(&o.workspaceRoot, "workspace-root", "", "also report which of the object's input files changed since the render (paths in the manifest are relative to this directory)")
	o.fs.Usage = func() {
		fmt.Fprint(stderr, traceUsage)
		o.fs.PrintDefaults()
	}
	return o
}

func runTrace(args []string, stdout, stderr io.Writer) int {
	return runTraceIn(args, os.Stdin, stdout, stderr)
}

func runTraceIn(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := traceFlags(stderr)
	if code, ok := parseFlags(o.fs, args, stderr); !ok {
		return code
	}
	if o.fs.NArg() != 1 || o.manifest == "" {
		fmt.Fprintln(stderr, "Error: krm trace needs one OBJECT and --provenance-manifest FILE (see krm help trace)")
		return 2
	}
	queries, err := trace.LoadQueries(o.fs.Arg(0), stdin)
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
