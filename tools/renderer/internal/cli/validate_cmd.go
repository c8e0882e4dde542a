package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/gcpace"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/trace"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/validate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/validate/fieldsource"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/validate/schemas"
)

const validateUsage = `Usage: krm validate [FILES|DIRS...] [flags]

Checks rendered objects (YAML streams, as krm build prints them, - for stdin;
a directory: its .yaml, .yml and .json files) against their OpenAPI schemas: built-in kinds
against the schemas of a Kubernetes version pinned in krm, custom resources
against the CustomResourceDefinitions among the objects and those given with
--crd. Strict: unknown and duplicate fields are errors, and so is a kind with
no schema unless --allow-kind names it. Each error names the file and line,
the object, the field and what was expected; with provenance annotations
(krm build --provenance) also the source file it came from. With the
provenance manifest of the render (--provenance-manifest), each error starts
with the source file and line span of the field (the patch that set it, or
the object's source document) and names the transformer that changed it when
its source does not have it as rendered. CRDs and custom resources are also
checked with the API server's own code (value validations, list types, CEL
rules; in krm_helm, which the default build runs for them); transition rules
are noted as not checked. ValidatingAdmissionPolicies and their bindings
(--policy, and those among the objects) are evaluated on every object with
the API server's admission code (krm_helm): a Deny is an error, a Warn a
warning, an Audit a note; a binding whose namespaceSelector needs a Namespace
that is not among the objects (nor --namespace-labels), or whose params are
not among them, is noted as not evaluated. Built-in kinds are also checked
as the API server's per-kind code checks them on create (name formats, labels
and annotations, selectors against template labels, container names, ports,
env and volumes, resources, a Service's ports, ConfigMap and Secret keys, ...);
what needs the old object or the cluster is not (docs/cli.md). No error
prints a Secret value: "(Secret value hidden)" stands for it.

Exit status: 0 all valid, 1 some object invalid, 2 an error (unreadable or
malformed input, bad flags).

Flags:
`

// validateHeap is the heap target under which krm validate does not collect: its live heap
// is the schemas, the results and one document, far below the 128 MB krm's renders start at.
// Lower costs CPU: at 8 MB the synthetic tree of dev/scripts/bench-validate.sh peaked at 40 MB
// instead of 48 but took 30% more CPU than at 16 MB (docs/performance.md).
const validateHeap = 16 << 20

type validateOptions struct {
	version, output, junit  string
	manifest, workspaceRoot string
	crds, allow             []string
	policies, nsLabels      []string
	fs                      *pflag.FlagSet
}

func validateFlags(stderr io.Writer) *validateOptions {
	o := &validateOptions{fs: commandFlags("validate", validateUsage, stderr)} // diff_cmd.go
	o.fs.StringVar(&o.version, "kubernetes-version", schemas.Default, "the Kubernetes minor version whose built-in schemas apply (pinned: "+fmt.Sprint(schemas.Versions())+")")
	o.fs.StringArrayVar(&o.crds, "crd", nil, "a file or directory of CustomResourceDefinitions whose schemas apply to custom resources (repeatable)")
	o.fs.StringArrayVar(&o.policies, "policy", nil, "a file or directory of ValidatingAdmissionPolicies, their bindings and params, evaluated on every object as the API server's create would (repeatable; in krm_helm)")
	o.fs.StringArrayVar(&o.nsLabels, "namespace-labels", nil, "NS=KEY=VALUE,...: the labels of the namespace NS, not among the objects, for the policies' namespaceSelectors (NS= for none; repeatable)")
	o.fs.StringArrayVar(&o.allow, "allow-kind", nil, "GROUP/KIND: a kind that is valid without a schema (/KIND for the core group, GROUP/* for a whole group; repeatable)")
	o.fs.StringVarP(&o.output, "output", "o", "text", "text (a line per error, then a summary) or junit (JUnit XML, a test case per object)")
	o.fs.StringVarP(&o.manifest, "provenance-manifest", "m", "", "the provenance manifest of the render (krm build --provenance-manifest): errors name the source line of each field")
	o.fs.StringVar(&o.workspaceRoot, "workspace-root", ".", "the directory the provenance manifest's paths are relative to")
	o.fs.StringVar(&o.junit, "junit", "", "also write the report as JUnit XML to FILE (empty: none), as krm_validate_test does for Bazel's $XML_OUTPUT_FILE")
	return o
}

func runValidate(args []string, s streams) int {
	stdout, stderr := s.stdout, s.stderr
	o := validateFlags(stderr)
	if code, ok := parseFlags(o.fs, args, stderr); !ok {
		return code
	}
	if o.output != "text" && o.output != "junit" {
		fmt.Fprintf(stderr, "Error: --output %q: want text or junit\n", o.output)
		return 2
	}
	if o.fs.NArg() == 0 {
		fmt.Fprintln(stderr, "Error: krm validate needs files or directories (see krm help validate)")
		return 2
	}
	opts := validate.Options{KubernetesVersion: o.version, Stdin: s.stdin}
	for _, a := range o.allow {
		gk, err := validate.ParseGroupKind(a)
		if err != nil {
			fmt.Fprintf(stderr, "Error: --allow-kind %v\n", err)
			return 2
		}
		opts.AllowKinds = append(opts.AllowKinds, gk)
	}
	opts.PolicyFiles = o.policies
	for _, a := range o.nsLabels {
		ns, labels, err := validate.ParseNamespaceLabels(a)
		if err != nil {
			fmt.Fprintf(stderr, "Error: --namespace-labels %v\n", err)
			return 2
		}
		if opts.NamespaceLabels == nil {
			opts.NamespaceLabels = map[string]map[string]string{}
		}
		opts.NamespaceLabels[ns] = labels
	}
	if o.manifest != "" {
		m, err := trace.LoadManifest(o.manifest)
		if err != nil {
			fmt.Fprintf(stderr, "Error: --provenance-manifest: %v\n", err)
			return 2
		}
		opts.Sources = fieldsource.New(m, o.workspaceRoot)
	}
	v, err := validate.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "Error: --kubernetes-version: %v\n", err)
		return 2
	}
	// Validation holds one document at a time: its garbage, not the objects, fills the heap.
	defer gcpace.Lower(validateHeap)()
	results, err := v.ValidateFiles(o.fs.Args(), o.crds)
	var crdErr *validate.CRDFileError
	if errors.As(err, &crdErr) {
		fmt.Fprintf(stderr, "Error: --crd: %v\n", err)
		return 2
	}
	var policyErr *validate.PolicyFileError
	if errors.As(err, &policyErr) {
		fmt.Fprintf(stderr, "Error: --policy: %v\n", err)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	notes := v.Notes()
	if o.junit != "" {
		if err := writeJUnitFile(o.junit, results, notes); err != nil {
			fmt.Fprintf(stderr, "Error: --junit: %v\n", err)
			return 2
		}
	}
	if o.output == "junit" {
		err = validate.WriteJUnit(stdout, results, notes)
	} else {
		err = validate.WriteText(stdout, results, notes)
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: writing the report: %v\n", err)
		return 2
	}
	if validate.Invalid(results) > 0 {
		return 1
	}
	return 0
}

// writeJUnitFile writes the JUnit XML report of results to the file name.
func writeJUnitFile(name string, results []validate.Result, notes []validate.Error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := validate.WriteJUnit(f, results, notes); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
