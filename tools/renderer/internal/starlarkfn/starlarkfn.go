// Package starlarkfn runs Starlark scripts as kustomize generators,
// transformers and validators, compatible with kpt's starlark function
// (gcr.io/kpt-fn/starlark, config kind StarlarkRun).
//
// # Config
//
// A kustomization lists a StarlarkRun object under generators,
// transformers or validators:
//
//	apiVersion: fn.kpt.dev/v1alpha1
//	kind: StarlarkRun
//	metadata:
//	  name: set-owner
//	params:                 # optional, any YAML; the script reads it
//	  owner: team-a
//	source: |               # the script inline, or
//	  ...
//	path: scripts/set_owner.star   # a script file (relative to the kustomization)
//	maxSteps: 10000000      # optional step limit (default DefaultMaxSteps)
//	selectors: [...]        # optional, see package selector
//	exclude: [...]
//
// Exactly one of source and path is set. A script file is read through the
// kustomization's loader, so load restrictions apply and, under Bazel, a
// missing file is reported with the srcs to add it to.
//
// # Script
//
// As in kpt, the script sees ctx.resource_list, a dict with apiVersion,
// kind, items (a list with one dict per resource) and functionConfig (the
// StarlarkRun object as a dict, params included). It edits items in place,
// appends new ones, removes items from the list, or assigns a new list to
// ctx.resource_list["items"]; fail(msg) stops the build. A generator starts
// from an empty items list and produces what the script appends. A
// validator must leave the items unchanged. print() writes to stderr.
//
// YAML maps become dicts that keep their key order; scalars become int,
// float, bool, None or string after their YAML type (a quoted "1" stays a
// string); sequences become lists. Dicts, lists, tuples and those scalars
// convert back; anything else (a set, a function) is an error.
//
// Kustomize's bookkeeping annotations (origin, transformations, previous
// names, ...) are hidden from the script and kept on the resources it
// returns. A returned dict that is one of the input dicts stays that
// resource; any other dict is a new resource.
//
// The dialect is kpt's: sets, while loops, recursion and top-level
// if/for/while are allowed. ctx.open_api and ctx.environment, which kpt
// also offers, are not: a build depends on nothing but its inputs.
//
// # Sandbox
//
// Only Starlark's own built-ins exist: no file, network, clock or random
// number access. load() accepts
//
//   - a path relative to the loading file (":name.star" too), read through
//     the kustomization's loader like the script itself;
//   - "@rules_krm//starlark:FILE", a module of the rules_krm Starlark
//     library (the starlark/ directory of rules_krm). krm carries a copy
//     of it; $KRM_STARLARK_LIB, when set, names a directory to read it from
//     instead. Library modules load library modules only;
//   - "encoding/json.star" (json) and "math.star" (math), as in kpt.
//
// A run stops after maxSteps Starlark steps (loaded modules count too),
// and when it nears growing the memory the process holds by MaxMemory; krm
// exits at once when one operation takes it past (limits.go).
// Errors name the script file (or the config, for inline source, whose
// lines count from the first line of source), line and column, with the
// Starlark backtrace.
package starlarkfn

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/krmfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// The config object's type.
const (
	APIVersion = "fn.kpt.dev/v1alpha1"
	Kind       = "StarlarkRun"
)

// IsConfig reports whether res configures a Starlark function.
func IsConfig(res *resource.Resource) bool {
	return res.GetApiVersion() == APIVersion && res.GetKind() == Kind
}

// config is the StarlarkRun schema.
type config struct {
	APIVersion string                 `json:"apiVersion"`
	Kind       string                 `json:"kind"`
	Metadata   map[string]interface{} `json:"metadata"`
	Source     string                 `json:"source,omitempty"`
	Path       string                 `json:"path,omitempty"`
	Params     interface{}            `json:"params,omitempty"`
	MaxSteps   *int64                 `json:"maxSteps,omitempty"`
	Selectors  interface{}            `json:"selectors,omitempty"`
	Exclude    interface{}            `json:"exclude,omitempty"`
}

// Plugin is a configured Starlark function; it is a resmap.Generator and
// a resmap.Transformer.
type Plugin struct {
	rt       krmfn.Runtime
	h        *resmap.PluginHelpers
	name     string
	fnConfig *yaml.RNode
	main     module
	source   []byte
	inline   bool
	maxSteps uint64
	// maxMemory is MaxMemory; tests lower it.
	maxMemory uint64
}

// New returns an unconfigured Starlark function of a build that prints
// through rt.
func New(rt krmfn.Runtime) *Plugin { return &Plugin{rt: rt, maxMemory: MaxMemory} }

// Config reads a StarlarkRun object (YAML, key order kept) and the script
// it names.
func (p *Plugin) Config(h *resmap.PluginHelpers, c []byte) error {
	p.h = h
	fc, err := krmfn.FunctionConfig(c)
	if err != nil {
		return err
	}
	p.fnConfig = fc
	p.name = krmfn.Name(fc)
	var cfg config
	if err := sigsyaml.UnmarshalStrict(c, &cfg); err != nil {
		msg := err.Error()
		if i := strings.LastIndex(msg, "json: "); i >= 0 {
			msg = msg[i+len("json: "):] // past "error unmarshaling JSON: while decoding JSON: "
		}
		return fmt.Errorf("%s: %s (fields: source or path, params, maxSteps, selectors, exclude)", p.name, msg)
	}
	switch {
	case cfg.Source != "" && cfg.Path != "":
		return fmt.Errorf("%s: set either source or path, not both", p.name)
	case cfg.Source != "":
		p.source, p.inline = []byte(cfg.Source), true
		p.main = module{key: "[inline]", display: fmt.Sprintf("%s(%s).source", Kind, fc.GetName())}
	case cfg.Path != "":
		if filepath.IsAbs(cfg.Path) || path.IsAbs(cfg.Path) {
			return fmt.Errorf("%s: path %q must be relative to the kustomization directory", p.name, cfg.Path)
		}
		rel := path.Clean(filepath.ToSlash(cfg.Path))
		p.main = module{key: rel, display: rel}
		if p.source, err = h.Loader().Load(rel); err != nil {
			return fmt.Errorf("%s: reading script: %w", p.name, err)
		}
	default:
		return fmt.Errorf("%s: needs the script, inline as source or as a file named by path", p.name)
	}
	p.maxSteps = DefaultMaxSteps
	if cfg.MaxSteps != nil {
		if *cfg.MaxSteps <= 0 || *cfg.MaxSteps > MaxStepsCeiling {
			return fmt.Errorf("%s: maxSteps must be between 1 and %d, not %d", p.name, MaxStepsCeiling, *cfg.MaxSteps)
		}
		p.maxSteps = uint64(*cfg.MaxSteps)
	}
	return nil
}

// Transform runs the script on the resources of m.
func (p *Plugin) Transform(m resmap.ResMap) error {
	return krmfn.Transform(m, p.h.ResmapFactory(), p.name, p.Run)
}

// Generate runs the script on an empty items list; what it returns is generated.
func (p *Plugin) Generate() (resmap.ResMap, error) {
	return krmfn.Generate(p.h.ResmapFactory(), p.name, p.Run)
}

// Run runs the script on items (which it does not change) and returns the
// items it leaves in ctx.resource_list.
func (p *Plugin) Run(items []*yaml.RNode) ([]krmfn.Output, error) {
	inputs := make([]*starlark.Dict, len(items))
	elems := make([]starlark.Value, len(items))
	index := make(map[*starlark.Dict]int, len(items))
	for i, n := range items {
		v, err := toStarlark(n.YNode())
		if err != nil {
			return nil, fmt.Errorf("%s: converting %s/%s: %w", p.name, n.GetKind(), n.GetName(), err)
		}
		d, ok := v.(*starlark.Dict)
		if !ok {
			return nil, fmt.Errorf("%s: item %d is not a mapping", p.name, i)
		}
		inputs[i], elems[i], index[d] = d, d, i
	}
	fc, err := toStarlark(p.fnConfig.YNode())
	if err != nil {
		return nil, fmt.Errorf("%s: converting the function config: %w", p.name, err)
	}
	rl := starlark.NewDict(4)
	for _, kv := range []struct {
		k string
		v starlark.Value
	}{
		{"apiVersion", starlark.String(kio.ResourceListAPIVersion)},
		{"kind", starlark.String(kio.ResourceListKind)},
		{"items", starlark.NewList(elems)},
		{"functionConfig", fc},
	} {
		if err := rl.SetKey(starlark.String(kv.k), kv.v); err != nil {
			return nil, err
		}
	}
	ctx := starlarkstruct.FromStringDict(starlarkstruct.Default, starlark.StringDict{"resource_list": rl})

	ms := &modules{
		ldr:    p.h.Loader(),
		cache:  map[string]*entry{},
		budget: newBudget(p.maxSteps, p.maxMemory),
		print: func(_ *starlark.Thread, msg string) {
			fmt.Fprintf(p.rt.Output(), "%s: %s\n", p.name, msg)
		},
	}
	thread := ms.thread(p.main)
	ms.budget.start(thread, 0)
	ms.budget.abort = func(pos, reason string) {
		where := fmt.Sprintf("%s in %s", p.name, load.Rel(p.h.Loader().Root()))
		if p.rt.Where != "" {
			where = p.rt.Where + ": " + p.name // the file that configures the function
		}
		p.rt.Exit(fmt.Sprintf("Error: %s: %s: %s%s\n", where, pos, reason, p.note(pos)))
	}
	stop := ms.budget.watch()
	panicked, err := p.exec(thread, ctx)
	stop()
	if panicked != "" {
		pos := ""
		if at := ms.budget.pos.Load(); at != nil {
			pos = *at
		}
		return nil, &ScriptError{msg: fmt.Sprintf("%s: %s: a built-in function failed: %s%s", p.name, pos, panicked, p.note(pos))}
	}
	if err != nil {
		return nil, p.scriptError(err)
	}

	v, _, err := rl.Get(starlark.String("items"))
	if err != nil {
		return nil, err
	}
	list, ok := v.(starlark.Indexable)
	if _, isStr := v.(starlark.String); !ok || isStr {
		return nil, fmt.Errorf("%s: ctx.resource_list[\"items\"] is a %s after the script; it must be a list", p.name, typeName(v))
	}
	outs := make([]krmfn.Output, 0, list.Len())
	used := make([]bool, len(items))
	for i := 0; i < list.Len(); i++ {
		e := list.Index(i)
		d, ok := e.(*starlark.Dict)
		if !ok {
			return nil, fmt.Errorf("%s: items[%d] is a %s; each item must be a dict", p.name, i, e.Type())
		}
		from := -1
		if j, ok := index[d]; ok && !used[j] {
			from, used[j] = j, true
		}
		n, err := fromStarlark(d, fmt.Sprintf("items[%d]", i))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.name, err)
		}
		outs = append(outs, krmfn.Output{Node: yaml.NewRNode(n), From: from})
	}
	return outs, nil
}

// exec runs the main script. A Go panic in a built-in (a string.replace
// result too large for a Go string) is reported, not a crash.
func (p *Plugin) exec(thread *starlark.Thread, ctx starlark.Value) (panicked string, err error) {
	defer func() {
		if r := recover(); r != nil {
			panicked = fmt.Sprint(r)
		}
	}()
	_, err = execFile(thread, p.main.display, p.source, starlark.StringDict{"ctx": ctx})
	return "", err
}

func typeName(v starlark.Value) string {
	if v == nil {
		return "missing"
	}
	return v.Type()
}

// scriptError reports a failed run with the position of the failure and
// the Starlark backtraces (the script's, then those of failing loaded
// modules).
func (p *Plugin) scriptError(err error) error {
	var chain []*starlark.EvalError
	for e := err; e != nil; {
		var ee *starlark.EvalError
		if !errors.As(e, &ee) {
			break
		}
		chain = append(chain, ee)
		e = ee.Unwrap()
	}
	if len(chain) == 0 {
		// Syntax and resolution errors carry their position.
		return &ScriptError{msg: fmt.Sprintf("%s: %v%s", p.name, err, p.note(err.Error()))}
	}
	pos := ""
	inner := chain[len(chain)-1]
	for i := len(inner.CallStack) - 1; i >= 0; i-- {
		if fn := inner.CallStack[i].Pos.Filename(); fn != "<builtin>" {
			pos = inner.CallStack[i].Pos.String()
			break
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: %s%s", p.name, pos, chain[0].Msg, p.note(pos))
	for _, ee := range chain {
		b.WriteString("\n")
		b.WriteString(indent(backtrace(ee)))
	}
	return &ScriptError{msg: b.String()}
}

// backtraceEnds is how many frames a backtrace keeps at each end.
const backtraceEnds = 10

// backtrace is ee's backtrace with the middle of a deep stack left out.
func backtrace(ee *starlark.EvalError) string {
	if len(ee.CallStack) <= 2*backtraceEnds+1 {
		return ee.Backtrace()
	}
	short := *ee
	n := len(ee.CallStack)
	short.CallStack = append(append(starlark.CallStack{}, ee.CallStack[:backtraceEnds]...), ee.CallStack[n-backtraceEnds:]...)
	s := short.Backtrace()
	// Mark the gap after the first backtraceEnds frames (and the header line).
	lines := strings.SplitAfter(s, "\n")
	gap := fmt.Sprintf("  ... %d frames left out ...\n", n-2*backtraceEnds)
	return strings.Join(lines[:backtraceEnds+1], "") + gap + strings.Join(lines[backtraceEnds+1:], "")
}

// note explains line numbers of a position in inline source.
func (p *Plugin) note(pos string) string {
	if p.inline && strings.HasPrefix(pos, p.main.display+":") {
		return " (lines count from the first line of source)"
	}
	return ""
}

// ScriptError is a script that failed to compile or run.
type ScriptError struct{ msg string }

func (e *ScriptError) Error() string { return strings.TrimRight(e.msg, "\n") }
