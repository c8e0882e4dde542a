package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/trace"
)

const traceUsage = `Usage: krm trace OBJECT --provenance-manifest FILE [flags]

Shows where an object came from: its source file and line span (or the
generator that made it), each transformer that changed it with the file that
configured it and the files it read, and, for a live object, whether it was
rendered from the inputs the provenance manifest records and still has the
rendered object's fields: each field that drifted (a field the render sets
whose live value differs or is missing), the field managers owning it live,
and the source line that set it.

OBJECT is one of:
  FILE or -        the live object as the cluster returns it (kubectl get -o
                   yaml or -o json; a List traces each item), read within
                   krm diff's bounds (size, depth, no YAML aliases)
  KIND[.GROUP]/[NAMESPACE/]NAME
                   an object named by ID: with --cluster (or --context,
                   --kubeconfig) read from the API server, else only its
                   provenance

For a live object, trace also says which generation each output of its
status reflects (each condition with its own observedGeneration, then
--output-path outputs, then status.observedGeneration, a weaker signal) and
whether it is current (the live generation). Read from a cluster, it looks up
what made that generation in the generation record krm apply writes beside
the ApplySet (--applyset, else the set the object is part of): the commit,
the inputs digest and, when -m is of the same inputs, the source files. A
generation not in the record was applied by someone else, or collected.

A live object is compared with its rendered object from --manifests
(default: NAME_manifests.yaml beside NAME.provenance.json, what
krm_kustomization writes). Server-added fields (status, managedFields,
resourceVersion, uid, generation, creationTimestamp), defaults and other
fields only the live object has are not drift.

-o json prints one JSON object a line per object, with at least "generation"
and "outputs" (each with "path", "observedGeneration", "sourceCommit",
"inputDigest", "current"): docs/provenance.md, "krm trace -o json".

Exit status: 0 found (and a live object matches its digest and render), 3 a
live object drifted, or its digest differs or is missing, 1 an error (not
found, bad input, cluster errors), 2 a usage error.

Flags:
`

type traceOptions struct {
	manifest, workspaceRoot, manifests string
	cluster                            bool
	kubeconfig, context                string
	applyset, applysetNS               string
	output                             string
	outputPaths                        outputPathFlags
	deadline                           deadline
	fs                                 *pflag.FlagSet
}

func traceFlags(stderr io.Writer) *traceOptions {
	o := &traceOptions{fs: commandFlags("trace", traceUsage, stderr)}
	o.fs.StringVarP(&o.manifest, "provenance-manifest", "m", "", "the provenance manifest written by krm build/render (required)")
	o.fs.StringVar(&o.workspaceRoot, "workspace-root", "", "also report which of the object's input files changed since the render (paths in the manifest are relative to this directory; default for reading source lines: the current directory)")
	o.fs.StringVar(&o.manifests, "manifests", "", "the rendered manifests to compare a live object with (default: NAME_manifests.yaml beside NAME.provenance.json)")
	o.fs.BoolVar(&o.cluster, "cluster", false, "read OBJECT (KIND/NAMESPACE/NAME) from the API server of the kubeconfig's context")
	o.fs.StringVar(&o.kubeconfig, "kubeconfig", "", "with --cluster: the kubeconfig file (default: $KUBECONFIG, a list of files, else ~/.kube/config); implies --cluster")
	o.fs.StringVar(&o.context, "context", "", "with --cluster: the kubeconfig context (default: its current context); implies --cluster")
	o.fs.StringVar(&o.applyset, "applyset", "", "with --cluster: the ApplySet whose generation record to read (NAME, secrets/NAME, configmaps/NAME; default: the set the object is part of)")
	o.fs.StringVar(&o.applysetNS, "applyset-namespace", "", "with --applyset: the namespace of the ApplySet's parent (default: the context's namespace)")
	o.fs.StringVarP(&o.output, "output", "o", "text", "text, or json: one JSON object a line per object (docs/provenance.md)")
	o.outputPaths.register(o.fs)
	o.deadline.register(o.fs)
	return o
}

func runTrace(args []string, s streams) int {
	stdout, stderr := s.stdout, s.stderr
	o := traceFlags(stderr)
	if code, ok := parseFlags(o.fs, args, stderr); !ok {
		return code
	}
	if o.fs.NArg() != 1 || o.manifest == "" {
		fmt.Fprintln(stderr, "Error: krm trace needs one OBJECT and --provenance-manifest FILE (see krm help trace)")
		return 2
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return code
	}
	live := o.cluster || o.fs.Changed("context") || o.fs.Changed("kubeconfig")
	queries, err := trace.LoadQueries(o.fs.Arg(0), s.stdin)
	if err != nil {
		if _, usage := err.(trace.UsageError); usage {
			return fail(2, err)
		}
		return fail(1, err)
	}
	if o.output != "text" && o.output != "json" {
		return fail(2, fmt.Errorf("-o %q: want text or json", o.output))
	}
	paths, err := o.outputPaths.parse()
	if err != nil {
		return fail(2, err)
	}
	if live && queries[0].Live {
		return fail(2, fmt.Errorf("--cluster reads OBJECT from the API server: name it KIND[.GROUP]/[NAMESPACE/]NAME, not a file"))
	}
	var get clustersupport.Getter
	var records clustersupport.RecordReader
	var sess clustersupport.Session
	ctx := o.deadline.start()
	defer o.deadline.stop()
	if live {
		if get, records, sess, err = clustersupport.OpenRecords(ctx, clustersupport.Request{
			Kubeconfig: o.kubeconfig, Context: o.context, Warnings: stderr,
			ApplySet: o.applyset, ApplySetNamespace: o.applysetNS,
		}); err != nil {
			return fail(clusterExit(err), o.deadline.explain(err))
		}
	}
	man, err := trace.LoadManifest(o.manifest)
	if err != nil {
		return fail(1, err)
	}
	if live {
		for i, q := range queries {
			if queries[i], err = trace.LiveQuery(man, q, func(r clustersupport.Ref) ([]byte, error) {
				return get.Get(ctx, r)
			}); err != nil {
				return fail(1, fmt.Errorf("%s: %w", sess.Where(), o.deadline.explain(err)))
			}
		}
	}
	opts := trace.Options{FS: filesys.MakeFsOnDisk(), WorkspaceRoot: o.workspaceRoot, OutputPaths: paths}
	if records != nil {
		opts.Record = func(obj map[string]any) (*genrecord.Record, string, error) {
			return records.Record(ctx, obj)
		}
	}
	if queries[0].Live {
		if opts.Rendered, err = loadRendered(o); err != nil {
			return fail(1, err)
		}
	}
	code := 0
	for i, q := range queries {
		r, err := trace.Trace(man, q, opts)
		if err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			code = 1
			continue
		}
		switch {
		case o.output == "json":
			if err := trace.WriteJSON(stdout, r); err != nil {
				return fail(1, err)
			}
		case i > 0:
			fmt.Fprintln(stdout)
			fallthrough
		default:
			trace.Print(stdout, r)
		}
		if (r.Status == trace.Mismatch || r.Status == trace.NoDigest || r.Drifted()) && code == 0 {
			code = 3
		}
	}
	return code
}

// loadRendered reads --manifests, by default the manifests krm_kustomization writes beside
// its provenance manifest (NAME.provenance.json, NAME_manifests.yaml).
func loadRendered(o *traceOptions) (*trace.Rendered, error) {
	if o.manifests != "" {
		return trace.LoadRendered(o.manifests)
	}
	dir, base := filepath.Split(o.manifest)
	guess := filepath.Join(dir, strings.TrimSuffix(strings.TrimSuffix(base, ".json"), ".provenance")+"_manifests.yaml")
	r, err := trace.LoadRendered(guess)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("a live object is compared with its rendered object, and %s (beside the provenance manifest) does not exist: pass --manifests FILE, the manifests rendered with %s", guess, o.manifest)
	}
	return r, err
}
