package provmanifest

import (
	"encoding/json"
	"strconv"
)

// Annotation keys added to every printed object.
const (
	AnnotationPrefix       = "provenance.rules-krm.dev/"
	OriginAnnotation       = AnnotationPrefix + "origin"
	TransformersAnnotation = AnnotationPrefix + "transformers"
	DigestAnnotation       = AnnotationPrefix + "inputs-digest"
)

// OriginValue and StepGroup are the annotation forms (JSON): identity only,
// nothing that changes when an unrelated input changes (line spans and
// hashes are in the manifest).
type OriginValue struct {
	Path         string `json:"path,omitempty"`
	Generator    string `json:"generator,omitempty"`
	ConfiguredIn string `json:"configuredIn,omitempty"`
	Label        string `json:"label,omitempty"`
	// Chart is NAME-VERSION of the Helm chart the generator inflated.
	Chart string `json:"chart,omitempty"`
}

// StepGroup is consecutive transformers configured in one file: the value
// of TransformersAnnotation is a list of them.
type StepGroup struct {
	ConfiguredIn string   `json:"configuredIn"`
	Label        string   `json:"label,omitempty"`
	Kinds        []string `json:"kinds"`
}

// ParseOrigin reads the value of OriginAnnotation.
func ParseOrigin(s string) (OriginValue, error) {
	var o OriginValue
	err := json.Unmarshal([]byte(s), &o)
	return o, err
}

// Text is the source file, or "GENERATOR in FILE" for a generated
// object ("" for neither).
func (o OriginValue) Text() string {
	if o.Path != "" {
		return o.Path
	}
	if o.Generator != "" {
		return o.Generator + " in " + o.ConfiguredIn
	}
	return ""
}

// ParseTransformers reads the value of TransformersAnnotation.
func ParseTransformers(s string) ([]StepGroup, error) {
	var gs []StepGroup
	err := json.Unmarshal([]byte(s), &gs)
	return gs, err
}

// Annotator encodes the annotation values of the objects of one manifest.
// Copies of a base share origins, and objects of one kustomization share
// transformers, so each distinct value is encoded once.
type Annotator struct {
	steps        []StepInfo
	origins      map[OriginValue]string
	transformers map[string]string // by the list of step indexes
	key, buf     []byte
}

// NewAnnotator returns the annotator of the objects of a manifest whose
// steps are steps.
func NewAnnotator(steps []StepInfo) *Annotator {
	return &Annotator{steps: steps, origins: map[OriginValue]string{}, transformers: map[string]string{}}
}

// Origin is the value of o's OriginAnnotation, "" when o has no origin.
func (a *Annotator) Origin(o *Object) (string, error) {
	org := o.Origin
	if org == nil {
		return "", nil
	}
	var v OriginValue
	if org.Generator != nil {
		g := &a.steps[*org.Generator]
		v = OriginValue{Generator: stepName(g), ConfiguredIn: g.ConfiguredIn, Label: g.Label}
		if c := g.Chart; c != nil {
			v.Chart = c.Name + "-" + c.Version
		}
	} else {
		v = OriginValue{Path: org.Path, Label: org.Label}
	}
	s, ok := a.origins[v]
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			return "", err
		}
		s = string(b)
		a.origins[v] = s
	}
	return s, nil
}

// Transformers is the value of o's TransformersAnnotation, "" when no
// transformer changed o.
func (a *Annotator) Transformers(o *Object) string {
	if len(o.Transformers) == 0 {
		return ""
	}
	a.key = a.key[:0]
	for _, i := range o.Transformers {
		a.key = strconv.AppendInt(append(a.key, ','), int64(i), 10)
	}
	s, ok := a.transformers[string(a.key)]
	if !ok {
		a.buf = a.appendTransformers(a.buf[:0], o.Transformers)
		s = string(a.buf)
		a.transformers[string(a.key)] = s
	}
	return s
}

// appendTransformers appends the transformers annotation of the steps idx
// as encoding/json writes them as []StepGroup: consecutive steps configured
// in one file form a group.
func (a *Annotator) appendTransformers(b []byte, idx []int) []byte {
	b = append(b, '[')
	for k, i := range idx {
		s := &a.steps[i]
		if k > 0 {
			if p := &a.steps[idx[k-1]]; p.ConfiguredIn == s.ConfiguredIn && p.Label == s.Label {
				b = appendJSONString(append(b, ','), stepName(s))
				continue
			}
			b = append(b, "]},"...)
		}
		b = append(b, `{"configuredIn":`...)
		b = appendJSONString(b, s.ConfiguredIn)
		if s.Label != "" {
			b = append(b, `,"label":`...)
			b = appendJSONString(b, s.Label)
		}
		b = append(b, `,"kinds":[`...)
		b = appendJSONString(b, stepName(s))
	}
	if len(idx) > 0 {
		b = append(b, "]}"...)
	}
	return append(b, ']')
}

// stepName is "Kind", or "Kind/name" for a plugin configured by a named object.
func stepName(s *StepInfo) string {
	if s.Name != "" {
		return s.Kind + "/" + s.Name
	}
	return s.Kind
}
