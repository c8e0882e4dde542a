package cli

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/atomicfile"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/outdir"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
)

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

type buildOptions struct {
	output         string
	loadRestrictor string
	images         imageFlags          // images_flags.go
	helm           helmFlags           // helm_flags.go
	prov           provenanceFlags     // provenance_flags.go
	kustomize      kustomizeBuildFlags // build_flags.go
	fs             *pflag.FlagSet
}

func buildFlags(stderr io.Writer) *buildOptions {
	o := &buildOptions{fs: commandFlags("build", buildUsage, stderr)}
	o.fs.StringVarP(&o.output, "output", "o", "", "write the manifests to this file instead of stdout; to an existing directory, one file per object named as kustomize names them (GROUP_VERSION_KIND_NAME.yaml)")
	o.fs.StringVar(&o.loadRestrictor, "load-restrictor", render.LoadRestrictionsRootOnly,
		"LoadRestrictionsRootOnly: files must be in or below the kustomization's directory; LoadRestrictionsNone: any file")
	o.prov.register(o.fs)
	o.kustomize.register(o.fs)
	o.images.register(o.fs)
	o.helm.register(o.fs)
	return o
}

func runBuild(args []string, s streams) int {
	stderr := s.stderr
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
	prov, imgs, err := shared(&o.prov, o.images)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	opts := render.Options{Stderr: stderr, Abort: s.abort, LoadRestrictor: o.loadRestrictor, Provenance: prov, Images: imgs, Helm: o.helm.config(stderr)}
	if err := o.kustomize.apply(&opts, stderr); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	res, err := render.Render(filesys.MakeFsOnDisk(), dir, opts)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	// The files are written all or nothing, after stdout. -o DIR (an existing directory)
	// gets one file per object, as kustomize writes it.
	var files []atomicfile.File
	switch {
	case o.output == "":
		if _, err := s.stdout.Write(res.Manifests); err != nil {
			fmt.Fprintf(stderr, "Error: writing stdout: %v\n", err)
			return 1
		}
	case isDir(o.output):
		if err := outdir.Write(o.output, res.Manifests); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 1
		}
	default:
		files = append(files, atomicfile.File{Path: o.output, Data: res.Manifests})
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
