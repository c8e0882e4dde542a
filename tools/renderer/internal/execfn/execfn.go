// Package execfn runs executables as KRM functions (the KRM functions
// specification's exec runtime) for kustomize generators, transformers and
// validators.
//
// A config object names its function with kustomize's and kpt's
// annotation:
//
//	apiVersion: example.com/v1
//	kind: SetOwner
//	metadata:
//	  name: set-owner
//	  annotations:
//	    config.kubernetes.io/function: |
//	      exec:
//	        path: ./fn/set-owner      # relative to the kustomization directory
//	        args: [--verbose]         # optional
//	        envs: [LOG_LEVEL=debug]   # optional: NAME=VALUE, or NAME to pass the caller's value
//	spec:
//	  owner: team-a
//
// The path is resolved against the kustomization directory through its
// loader, so load restrictions apply. Absolute paths are refused and
// neither $PATH nor kustomize's $XDG_CONFIG_HOME plugin directories are
// searched.
//
// Declare replaces paths with declared executables (krm render
// --function PATH=EXECUTABLE; under Bazel, the krm_function targets of a
// krm_kustomization's functions attribute): a function whose path resolves
// to a declared PATH runs EXECUTABLE, and nothing needs to exist at PATH.
// With Declarations.Only (krm render --hermetic), a function whose path is
// not declared is an error naming the path and the attribute to add it to. Container functions are refused: build the function with Bazel
// and name the binary with exec.
//
// The executable runs in the kustomization directory with an environment
// of PATH and TMPDIR (when set) and the envs given, reads a ResourceList
// (config.kubernetes.io/v1) on stdin and writes one on stdout. A
// transformer gets the resources as items, a generator an empty list. The
// config object is the functionConfig. A non-zero exit fails the build
// with the function's stderr; on success its stderr is passed on. The
// function runs in a process group of its own, which krm kills on
// timeout, on too much output, when the function exits, and when krm gets
// SIGINT or SIGTERM (signals.go).
//
// Resources keep their identity through the config.k8s.io/id and
// internal.config.kubernetes.io/id annotations, which krm sets on the
// items and functions keep (the KRM functions specification asks them to
// keep annotations they do not own); an item without them is a new
// resource.
package execfn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/fn/runtime/runtimeutil"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/krmfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// maxStderr bounds the stderr quoted in an error.
const maxStderr = 4 << 10

// FunctionSpec returns the function a config object names in its
// config.kubernetes.io/function annotation (or kustomize's legacy forms),
// or nil.
func FunctionSpec(res *resource.Resource) (*runtimeutil.FunctionSpec, error) {
	spec, err := runtimeutil.GetFunctionSpec(&res.RNode)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", krmfn.Name(&res.RNode), err)
	}
	return spec, nil
}

// Plugin is a configured exec function; it is a resmap.Generator and a
// resmap.Transformer.
type Plugin struct {
	rt       krmfn.Runtime
	declared *Registry
	h        *resmap.PluginHelpers
	name     string
	fnConfig *yaml.RNode
	path     string // the executable, absolute
	display  string // the executable as named in messages
	args     []string
	env      []string
	timeout  time.Duration
}

// New returns an unconfigured exec function of a build that prints through
// rt and declared the executables in declared (nil: none).
func New(rt krmfn.Runtime, declared *Registry) *Plugin {
	return &Plugin{rt: rt, declared: declared}
}

// resolver is what the renderer's loader offers beyond ifc.Loader.
type resolver interface {
	Resolve(path string) (string, error)
}

// Config reads the config object and finds the executable it names.
func (p *Plugin) Config(h *resmap.PluginHelpers, c []byte) error {
	p.h = h
	fc, err := krmfn.FunctionConfig(c)
	if err != nil {
		return err
	}
	p.fnConfig = fc
	p.name = krmfn.Name(fc)
	spec, err := runtimeutil.GetFunctionSpec(fc)
	if err != nil {
		return fmt.Errorf("%s: %w", p.name, err)
	}
	if spec == nil {
		return fmt.Errorf("%s: no %s annotation", p.name, krmfn.FunctionAnnotation)
	}
	if spec.Container.Image != "" {
		return fmt.Errorf("%s: function %s: containers are not supported; build the function with Bazel and use exec", p.name, spec.Container.Image)
	}
	rel := spec.Exec.Path
	if rel == "" {
		return fmt.Errorf("%s: the %s annotation names no exec.path", p.name, krmfn.FunctionAnnotation)
	}
	if filepath.IsAbs(rel) || strings.HasPrefix(rel, "~") {
		return fmt.Errorf("%s: exec path %q must be relative to the kustomization directory ($PATH and absolute paths are not used)", p.name, rel)
	}
	ldr := h.Loader()
	p.args, p.env = spec.Exec.Args, environment(spec.Exec.Env, imperativeEnv(h))
	if p.timeout, err = timeoutOf(fc.GetAnnotations()); err != nil {
		return fmt.Errorf("%s: %w", p.name, err)
	}
	d, err := p.declared.lookup(p.name, ldr.Root(), rel)
	if err != nil {
		return err
	}
	if d != nil {
		// A declared executable (krm render --function) stands for the
		// path: nothing needs to exist there. Under provenance it is a file
		// the step read (at its own path, which krm trace can check in the
		// workspace: bazel-out/...), so a rebuilt function changes the
		// digests of the objects it changed.
		if rec, ok := ldr.(load.FileRecorder); ok {
			b, err := os.ReadFile(d.exe)
			if err != nil {
				return fmt.Errorf("%s: exec path %q: declared executable: %w", p.name, rel, err)
			}
			rec.RecordFile(d.exe, b)
		}
		p.path, p.display = d.exe, d.given
		return nil
	}
	abs := filepath.Join(ldr.Root(), rel)
	if r, ok := ldr.(resolver); ok {
		if abs, err = r.Resolve(rel); err != nil {
			return fmt.Errorf("%s: exec path: %w", p.name, err)
		}
	}
	st, err := os.Stat(abs)
	if err != nil {
		if _, lerr := ldr.Load(rel); lerr != nil {
			err = lerr // carries the loader's hint about declared inputs
		}
		return fmt.Errorf("%s: exec path: %w", p.name, err)
	}
	if !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s: exec path %q is not an executable file", p.name, rel)
	}
	p.path, p.display = abs, rel
	return nil
}

// imperativeEnv is krm build's -e/--env KEY=VALUE list. Like kustomize,
// it wins over the spec's envs and ignores entries that are not KEY=VALUE.
func imperativeEnv(h *resmap.PluginHelpers) []string {
	pc := h.GeneralConfig()
	if pc == nil {
		return nil
	}
	var env []string
	for _, e := range pc.FnpLoadingOptions.Env {
		if len(strings.Split(e, "=")) == 2 {
			env = append(env, e)
		}
	}
	return env
}

// environment is the function's environment: PATH and TMPDIR from krm's,
// then the envs of the spec, then imperative ones (the last value of a
// key wins when the function starts).
func environment(envs, imperative []string) []string {
	var env []string
	for _, k := range []string{"PATH", "TMPDIR"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	for _, e := range envs {
		if strings.Contains(e, "=") {
			env = append(env, e)
		} else if v, ok := os.LookupEnv(e); ok {
			env = append(env, e+"="+v)
		}
	}
	return append(env, imperative...)
}

// Transform runs the function on the resources of m.
func (p *Plugin) Transform(m resmap.ResMap) error {
	return krmfn.Transform(m, p.h.ResmapFactory(), p.name, p.Run)
}

// Generate runs the function on an empty items list; what it returns is generated.
func (p *Plugin) Generate() (resmap.ResMap, error) {
	return krmfn.Generate(p.h.ResmapFactory(), p.name, p.Run)
}

var idAnnotations = []string{string(kioutil.IdAnnotation), kioutil.LegacyIdAnnotation}

// Run runs the function on items (which it does not change).
func (p *Plugin) Run(items []*yaml.RNode) ([]krmfn.Output, error) {
	nodes := make([]*yaml.RNode, len(items))
	for i, n := range items {
		nodes[i] = n.Copy()
		for _, a := range idAnnotations {
			if err := nodes[i].PipeE(yaml.SetAnnotation(a, strconv.Itoa(i))); err != nil {
				return nil, err
			}
		}
	}
	var stdin bytes.Buffer
	err := kio.ByteWriter{
		Writer:                &stdin,
		KeepReaderAnnotations: true,
		WrappingAPIVersion:    kio.ResourceListAPIVersion,
		WrappingKind:          kio.ResourceListKind,
		FunctionConfig:        p.fnConfig,
	}.Write(nodes)
	if err != nil {
		return nil, fmt.Errorf("%s: writing the ResourceList: %w", p.name, err)
	}
	cmd := exec.Command(p.path, p.args...)
	cmd.Dir = p.h.Loader().Root()
	if st, err := os.Stat(cmd.Dir); err != nil || !st.IsDir() {
		// Under Bazel the kustomization directory may exist only among the
		// declared inputs (a component read from its snapshot, generated
		// files): the function runs in an empty directory instead.
		tmp, err := os.MkdirTemp("", "krm-fn-")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.name, err)
		}
		defer os.RemoveAll(tmp)
		cmd.Dir = tmp
	}
	cmd.Env = p.env
	cmd.Stdin = &stdin
	stdout, stderr, err := runBounded(cmd, p.timeout)
	if err != nil {
		var msg strings.Builder
		fmt.Fprintf(&msg, "%s: function %s failed: %v", p.name, p.display, err)
		if results := errorResults(stdout); results != "" {
			fmt.Fprintf(&msg, "\nresults:\n%s", results)
		}
		if s := tail(string(stderr.Bytes())); s != "" {
			fmt.Fprintf(&msg, "\nstderr%s:\n%s", stderr.note(), s)
		}
		return nil, errors.New(msg.String())
	}
	if b := stderr.Bytes(); len(b) > 0 {
		if n := stderr.note(); n != "" {
			fmt.Fprintf(p.rt.Output(), "%s: stderr%s:\n", p.name, n)
		}
		_, _ = p.rt.Output().Write(b)
	}
	outItems, _, err := parseResourceList(stdout)
	if err != nil {
		return nil, fmt.Errorf("%s: function %s wrote malformed output: %w", p.name, p.display, err)
	}
	used := make([]bool, len(items))
	outs := make([]krmfn.Output, 0, len(outItems))
	for _, n := range outItems {
		from := -1
		anno := n.GetAnnotations()
		id, ok := anno[idAnnotations[0]]
		if !ok {
			id, ok = anno[idAnnotations[1]]
		}
		if ok {
			if i, err := strconv.Atoi(id); err == nil && i >= 0 && i < len(items) && !used[i] {
				from, used[i] = i, true
			}
			for _, a := range idAnnotations {
				if err := n.PipeE(yaml.ClearAnnotation(a)); err != nil {
					return nil, err
				}
			}
			if err := yaml.ClearEmptyAnnotations(n); err != nil {
				return nil, err
			}
		}
		outs = append(outs, krmfn.Output{Node: n, From: from})
	}
	return outs, nil
}

func tail(s string) string {
	s = strings.TrimRight(s, "\n")
	if len(s) > maxStderr {
		s = "..." + s[len(s)-maxStderr:]
	}
	return s
}

// parseResourceList reads a function's stdout: one ResourceList.
func parseResourceList(out []byte) (items []*yaml.RNode, results *yaml.RNode, err error) {
	dec := yaml.NewDecoder(bytes.NewReader(out))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil, fmt.Errorf("no ResourceList on stdout")
		}
		return nil, nil, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, nil, fmt.Errorf("more than one YAML document on stdout; want one ResourceList")
	} else if !errors.Is(err, io.EOF) {
		return nil, nil, err
	}
	rl := yaml.NewRNode(&doc)
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		rl = yaml.NewRNode(doc.Content[0])
	}
	if rl.YNode().Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("stdout is not a ResourceList")
	}
	if k, av := rl.GetKind(), rl.GetApiVersion(); k != kio.ResourceListKind || !strings.HasPrefix(av, "config.kubernetes.io/") {
		return nil, nil, fmt.Errorf("stdout is a %s %s, want a %s %s", av, k, kio.ResourceListAPIVersion, kio.ResourceListKind)
	}
	if f := rl.Field("results"); f != nil {
		results = f.Value
	}
	f := rl.Field("items")
	if f == nil || yaml.IsMissingOrNull(f.Value) {
		return nil, results, nil
	}
	if f.Value.YNode().Kind != yaml.SequenceNode {
		return nil, results, fmt.Errorf("items is not a list")
	}
	for i, e := range f.Value.YNode().Content {
		if e.Kind != yaml.MappingNode {
			return nil, results, fmt.Errorf("items[%d] is not a mapping", i)
		}
		items = append(items, yaml.NewRNode(e))
	}
	return items, results, nil
}

// errorResults lists the messages of error results in a function's output,
// if it wrote a ResourceList.
func errorResults(out []byte) string {
	_, results, err := parseResourceList(out)
	if err != nil || results == nil || results.YNode().Kind != yaml.SequenceNode {
		return ""
	}
	var lines []string
	for _, r := range results.YNode().Content {
		sev := yamlnode.Text(yamlnode.Field(r, "severity"))
		if sev != "" && sev != "error" {
			continue
		}
		lines = append(lines, "  "+yamlnode.Text(yamlnode.Field(r, "message")))
	}
	return strings.Join(lines, "\n")
}
