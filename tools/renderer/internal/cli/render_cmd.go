package cli

import (
	"fmt"
	"io"
	"sort"

	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/atomicfile"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/inputs"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
)

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
	functions                                  functionFlags   // functions_flags.go
	images                                     imageFlags      // images_flags.go
	prov                                       provenanceFlags // provenance_flags.go
	fs                                         *pflag.FlagSet
}

func renderFlags(stderr io.Writer) *renderOptions {
	o := &renderOptions{fs: commandFlags("render", renderUsage, stderr)}
	o.fs.StringVar(&o.snapshot, "snapshot", "", "write this kustomization's snapshot here (required)")
	o.fs.StringVar(&o.manifests, "manifests", "", "also write the final manifests here")
	o.fs.StringArrayVar(&o.deps, "dep", nil, "DIR=SNAPSHOT: read the base kustomization in DIR from SNAPSHOT (repeatable)")
	o.fs.StringVar(&o.label, "label", "", "the Bazel label being built, named in errors and recorded in the snapshot")
	o.fs.BoolVar(&o.hermetic, "hermetic", false, "fail when a base directory has no --dep snapshot instead of reading its sources")
	o.fs.StringVar(&o.loadRestrictor, "load-restrictor", render.LoadRestrictionsRootOnly, "as for krm build")
	o.fs.StringVar(&o.inputs, "inputs", "", "read only the files this manifest declares: one a line, PATH<tab>SOURCE (PATH relative to the working directory as the kustomizations name it, SOURCE where to read it); implies --hermetic")
	o.fs.StringArrayVar(&o.inputLines, "input", nil, "PATH<tab>SOURCE (or PATH): one more declared file, a line of --inputs (repeatable; the Bazel rules pass them in the action's @FILE, which a persistent worker reads); implies --hermetic")
	o.fs.StringVar(&o.kind, "kind", "", "fail unless the kustomization has this kind (Kustomization or Component)")
	o.fs.BoolVar(&o.basesFromSources, "bases-from-sources", false, "render every base from its declared sources in this process, not from a --dep snapshot: for a tree that sets openapi, whose schema kustomize applies beyond the kustomization that sets it")
	o.fs.StringArrayVar(&o.owners, "owner", nil, "DIR=LABEL: the Bazel target declaring the kustomization in DIR, named in errors (repeatable; with --bases-from-sources)")
	o.fs.BoolVar(&o.origins, "origins", false, "record origin and transformer annotations in the snapshot, for parents whose buildMetadata asks for them (every --dep must have them too)")
	o.functions.register(o.fs)
	o.images.register(o.fs)
	o.prov.register(o.fs)
	return o
}

func runRender(args []string, s streams) int {
	stderr := s.stderr
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
	// Declared functions (--function) are the gate.
	fns := renderFunctions
	if fns.Declared, err = o.functions.declarations(o.hermetic, o.label); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	prov, imgs, err := shared(&o.prov, o.images)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	res, err := render.Render(fsys, o.fs.Arg(0), render.Options{
		Stderr: stderr, Abort: s.abort, LoadRestrictor: o.loadRestrictor, Deps: deps, Hermetic: o.hermetic, Label: o.label,
		Provenance: prov, Kind: o.kind, Snapshot: o.snapshot != "", SnapshotOnly: o.manifests == "", Origins: o.origins,
		Images: imgs, Helm: renderHelm, BasesFromSources: o.basesFromSources, Owners: owners, Functions: fns,
	})
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	var files []atomicfile.File
	if o.snapshot != "" {
		files = append(files, atomicfile.File{Path: o.snapshot, Data: res.Snapshot})
	}
	if o.manifests != "" {
		files = append(files, atomicfile.File{Path: o.manifests, Data: res.Manifests})
	}
	if o.prov.manifest != "" {
		files = append(files, atomicfile.File{Path: o.prov.manifest, Data: res.ProvenanceManifest})
	}
	if err := atomicfile.WriteFiles(files); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}
