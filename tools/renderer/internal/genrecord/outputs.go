package genrecord

import (
	"fmt"
	"strconv"
	"strings"
)

// OutputPath names, for one kind, where an output reports the generation it reflects (the
// RFC's artifactTracing.observedGenerationPath): --output-path GROUP/KIND=PATH, e.g.
// kpack.io/Image=.status.latestImage.observedGeneration (KIND alone for the core group).
type OutputPath struct {
	Group, Kind string
	// Fields are the path's fields (status, latestImage, observedGeneration).
	Fields []string
}

// ParseOutputPath reads GROUP/KIND=PATH or KIND=PATH; PATH is dot-separated fields, the
// leading dot optional.
func ParseOutputPath(s string) (OutputPath, error) {
	gk, path, ok := strings.Cut(s, "=")
	if !ok || gk == "" || path == "" {
		return OutputPath{}, fmt.Errorf("--output-path %q: want GROUP/KIND=PATH, e.g. kpack.io/Image=.status.latestImage.observedGeneration", s)
	}
	var p OutputPath
	if g, k, ok := strings.Cut(gk, "/"); ok {
		p.Group, p.Kind = g, k
	} else {
		p.Kind = gk
	}
	for _, f := range strings.Split(strings.TrimPrefix(path, "."), ".") {
		if f == "" || strings.ContainsAny(f, "[]= ") {
			return OutputPath{}, fmt.Errorf("--output-path %q: PATH is fields separated by dots (.status.latestImage.observedGeneration)", s)
		}
		p.Fields = append(p.Fields, f)
	}
	if p.Kind == "" || len(p.Fields) < 2 {
		return OutputPath{}, fmt.Errorf("--output-path %q: want GROUP/KIND=PATH with a field under the output, e.g. kpack.io/Image=.status.latestImage.observedGeneration", s)
	}
	return p, nil
}

func (p OutputPath) String() string {
	gk := p.Kind
	if p.Group != "" {
		gk = p.Group + "/" + p.Kind
	}
	return gk + "=." + strings.Join(p.Fields, ".")
}

// Output kinds.
const (
	KindCondition = "condition"
	KindPath      = "path"
	// KindStatus is status.observedGeneration: a weaker signal than a condition's (the RFC:
	// by convention it says the controller saw the generation, not that every output of the
	// status was made from it).
	KindStatus = "status"
)

// Output is one output of a live object and the generation it reports.
type Output struct {
	// Path is the output: .status.conditions[type=Ready], .status (for
	// status.observedGeneration), or an --output-path's parent (.status.latestImage).
	Path string `json:"path"`
	// GenerationPath is where the generation was read.
	GenerationPath string `json:"generationPath"`
	Kind           string `json:"kind"`
	// Weak marks status.observedGeneration.
	Weak bool `json:"weak"`
	// Status, Reason and Message are a condition's.
	Status  string `json:"status,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	// ObservedGeneration is the generation the output reflects.
	ObservedGeneration int64 `json:"observedGeneration"`
}

// Generation is the object's metadata.generation (0: none).
func Generation(obj map[string]any) int64 {
	g, _ := Integer(Field(obj, "metadata", "generation"))
	return g
}

// Outputs lists the outputs of a live object that report a generation: each condition with
// its own observedGeneration (in the status's order), then each output path of paths for the
// object's kind, then status.observedGeneration.
func Outputs(obj map[string]any, paths []OutputPath) []Output {
	var out []Output
	conds, _ := Field(obj, "status", "conditions").([]any)
	for i, c := range conds {
		m, _ := c.(map[string]any)
		g, ok := Integer(m["observedGeneration"])
		if !ok {
			continue
		}
		t, _ := m["type"].(string)
		sel := "type=" + t
		if t == "" {
			sel = strconv.Itoa(i)
		}
		o := Output{Path: ".status.conditions[" + sel + "]", Kind: KindCondition, ObservedGeneration: g}
		o.GenerationPath = o.Path + ".observedGeneration"
		o.Status, _ = m["status"].(string)
		o.Reason, _ = m["reason"].(string)
		o.Message, _ = m["message"].(string)
		out = append(out, o)
	}
	group, kind := groupKind(obj)
	for _, p := range paths {
		if p.Kind != kind || p.Group != group {
			continue
		}
		g, ok := Integer(Field(obj, p.Fields...))
		if !ok {
			continue
		}
		out = append(out, Output{
			Path:           "." + strings.Join(p.Fields[:len(p.Fields)-1], "."),
			GenerationPath: "." + strings.Join(p.Fields, "."),
			Kind:           KindPath, ObservedGeneration: g,
		})
	}
	if g, ok := Integer(Field(obj, "status", "observedGeneration")); ok {
		out = append(out, Output{Path: ".status", GenerationPath: ".status.observedGeneration", Kind: KindStatus, Weak: true, ObservedGeneration: g})
	}
	return out
}

// Observed is the lowest generation the outputs report, the floor of what they may report
// again (0 when none reports one): the garbage collection's bound.
func Observed(outputs []Output) int64 {
	var low int64
	for i, o := range outputs {
		if i == 0 || o.ObservedGeneration < low {
			low = o.ObservedGeneration
		}
	}
	return low
}

// KeyOf is the Key of a live object.
func KeyOf(obj map[string]any) Key {
	group, kind := groupKind(obj)
	ns, _ := Field(obj, "metadata", "namespace").(string)
	name, _ := Field(obj, "metadata", "name").(string)
	return Key{Group: group, Kind: kind, Namespace: ns, Name: name}
}

func groupKind(obj map[string]any) (string, string) {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group, _, ok := strings.Cut(av, "/")
	if !ok {
		group = ""
	}
	return group, kind
}

// Field walks nested maps: the value at path, nil when there is none.
func Field(obj map[string]any, path ...string) any {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

// Integer reads a whole JSON number (float64 from encoding/json, int64 from apimachinery).
func Integer(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case float64:
		if n == float64(int64(n)) {
			return int64(n), true
		}
	case interface{ Int64() (int64, error) }: // json.Number
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}
