package provenance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
)

// Annotation keys added to every printed object.
const (
	AnnotationPrefix       = "provenance.rules-krm.dev/"
	OriginAnnotation       = AnnotationPrefix + "origin"
	TransformersAnnotation = AnnotationPrefix + "transformers"
	DigestAnnotation       = AnnotationPrefix + "inputs-digest"
)

// Manifest identification.
const (
	ManifestAPIVersion = "rules-krm.dev/v1alpha1"
	ManifestKind       = "ProvenanceManifest"
)

// Manifest is the provenance manifest written beside the manifests
// (docs/provenance.md).
type Manifest struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Kustomization is the directory built, relative to the workspace root.
	Kustomization string `json:"kustomization"`
	Label         string `json:"label,omitempty"`
	// Steps are the generators and transformers objects name by index.
	Steps []StepInfo `json:"steps"`
	// Objects are in the order the manifests print them.
	Objects []Object `json:"objects"`
	// Files are every file a step or origin names, sorted by path.
	Files []FileEntry `json:"files"`
}

// ObjectID identifies an object as the cluster does.
type ObjectID struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

// String is "apiVersion/kind/namespace/name" (namespace empty when cluster-scoped).
func (id ObjectID) String() string {
	return id.APIVersion + "/" + id.Kind + "/" + id.Namespace + "/" + id.Name
}

// Group is the API group of the object ("" for core).
func (id ObjectID) Group() string {
	if i := strings.Index(id.APIVersion, "/"); i >= 0 {
		return id.APIVersion[:i]
	}
	return ""
}

// Object is the provenance of one printed object.
type Object struct {
	ID           ObjectID    `json:"id"`
	InputsDigest string      `json:"inputsDigest"`
	Origin       *OriginInfo `json:"origin,omitempty"`
	// Transformers index Manifest.Steps, in the order they changed it.
	Transformers []int `json:"transformers,omitempty"`
	// References are the objects whose final names its name references
	// were set to.
	References []string  `json:"references,omitempty"`
	Vars       []VarInfo `json:"vars,omitempty"`
}

// OriginInfo is a source document, or a generator (an index into
// Manifest.Steps).
type OriginInfo struct {
	Path      string `json:"path,omitempty"`
	StartLine int    `json:"startLine,omitempty"`
	EndLine   int    `json:"endLine,omitempty"`
	Label     string `json:"label,omitempty"`
	// Sha256 hashes the source document; for a Secret, the document with
	// the values of data and stringData blanked (Redacted is set).
	Sha256    string `json:"sha256,omitempty"`
	Redacted  bool   `json:"redacted,omitempty"`
	Generator *int   `json:"generator,omitempty"`
}

// StepInfo is a generator or transformer as one kustomization configured it.
type StepInfo struct {
	Kind         string `json:"kind"`
	Name         string `json:"name,omitempty"`
	ConfiguredIn string `json:"configuredIn,omitempty"`
	Label        string `json:"label,omitempty"`
	// ConfigSha256 hashes its configuration. When the configuration may
	// hold secret values Redacted is set and it is omitted (for a
	// SecretGenerator it hashes the configuration without the values).
	ConfigSha256 string   `json:"configSha256,omitempty"`
	Redacted     bool     `json:"redacted,omitempty"`
	Files        []string `json:"files,omitempty"`
	// Images are the entries the build pinned (ImageTagTransformer only).
	Images []PinnedImage `json:"images,omitempty"`
	Chart  *Chart        `json:"chart,omitempty"`
}

// VarInfo is a var substituted into the object.
type VarInfo struct {
	Name     string `json:"name"`
	Object   string `json:"object,omitempty"`
	Sha256   string `json:"sha256,omitempty"`
	Redacted bool   `json:"redacted,omitempty"`
}

// FileEntry is an input file: its hash, or Redacted when it fed a Secret.
type FileEntry struct {
	Path     string `json:"path"`
	Sha256   string `json:"sha256,omitempty"`
	Redacted bool   `json:"redacted,omitempty"`
}

// originAnnotation and stepGroup are the annotation forms: identity only,
// nothing that changes when an unrelated input changes (line spans and
// hashes are in the manifest).
type originAnnotation struct {
	Path         string `json:"path,omitempty"`
	Generator    string `json:"generator,omitempty"`
	ConfiguredIn string `json:"configuredIn,omitempty"`
	Label        string `json:"label,omitempty"`
	// Chart is NAME-VERSION of the Helm chart the generator inflated.
	Chart string `json:"chart,omitempty"`
}

// stepGroup is consecutive transformers configured in one file.
type stepGroup struct {
	ConfiguredIn string   `json:"configuredIn"`
	Label        string   `json:"label,omitempty"`
	Kinds        []string `json:"kinds"`
}

// Top describes the kustomization a build rendered.
type Top struct {
	Dir   string // absolute
	Label string
}

func idOf(r *resource.Resource) ObjectID {
	n := r.RNode.YNode()
	if n == nil || n.Kind != yaml.MappingNode || n.Tag == yaml.NodeTagNull || len(n.Content)%2 != 0 {
		return ObjectID{APIVersion: r.GetApiVersion(), Kind: r.GetKind(), Namespace: r.GetNamespace(), Name: r.GetName()}
	}
	// One pass for what kyaml's four getters read in four: the first of
	// each key counts; metadata's fields count only in a non-empty one.
	var id ObjectID
	var apiVersion, kind, metadata bool
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k == nil {
			continue
		}
		switch {
		case k.Value == "apiVersion" && !apiVersion:
			apiVersion = true
			if v != nil {
				id.APIVersion = v.Value
			}
		case k.Value == "kind" && !kind:
			kind = true
			if v != nil {
				id.Kind = v.Value
			}
		case k.Value == "metadata" && !metadata:
			metadata = true
			if !yaml.IsYNodeNilOrEmpty(v) {
				id.Namespace, id.Name = metaString(v, "namespace"), metaString(v, "name")
			}
		}
	}
	return id
}

// metaString is kyaml's getMetaStringField on the metadata node md.
func metaString(md *yaml.Node, field string) string {
	c := md.Content
	for i := 0; i+1 < len(c); i += 2 {
		if c[i] != nil && c[i].Value == field {
			if yaml.IsYNodeNilOrEmpty(c[i+1]) {
				return ""
			}
			return c[i+1].Value
		}
	}
	return ""
}

func stepInfo(s *Step) StepInfo {
	si := StepInfo{Kind: s.Kind, Name: s.Name, Label: s.Label, Chart: s.Chart}
	if s.ConfiguredIn != nil {
		si.ConfiguredIn = s.ConfiguredIn.Path
	}
	if s.Sensitive {
		si.Redacted = true
		si.ConfigSha256 = s.RedactedSha256
	} else {
		si.ConfigSha256 = s.ConfigSha256
	}
	for _, f := range s.Files {
		si.Files = append(si.Files, f.Path)
	}
	si.Images = s.Images
	return si
}

// Final is the provenance of a finished build: the manifest, and the
// annotations of each object (in output order).
type Final struct {
	Manifest []byte
	ann      [][]observe.Annotation
	slow     bool
}

// finish computes the provenance of the resources of m (the final
// objects, in output order). Their annotations are added when they are
// printed (Final.Annotations).
func (t *Tracker) finish(m resmap.ResMap) (*Final, error) {
	top := t.top
	res := m.Resources()
	// A Secret makes everything that wrote content into it sensitive.
	for _, r := range res {
		if !IsSecret(r) {
			continue
		}
		rec := t.records[r]
		if rec == nil || rec.Origin == nil {
			continue
		}
		if rec.Origin.File != nil {
			rec.Origin.File.Sensitive = true
		}
		if g := rec.Origin.Generator; g != nil && g.DataCarrying {
			g.markSensitive()
		}
		for l := rec.steps; l != nil; l = l.prev {
			if l.step.DataCarrying {
				l.step.markSensitive()
			}
		}
	}
	// Copies of one configuration entry are sensitive if any is.
	entries := map[string][]*Step{}
	var keys []string
	for _, r := range res {
		rec := t.records[r]
		if rec == nil {
			continue
		}
		add := func(s *Step) {
			k := s.entry()
			for _, x := range entries[k] {
				if x == s {
					return
				}
			}
			if entries[k] == nil {
				keys = append(keys, k)
			}
			entries[k] = append(entries[k], s)
		}
		if rec.Origin != nil && rec.Origin.Generator != nil {
			add(rec.Origin.Generator)
		}
		for l := rec.steps; l != nil; l = l.prev {
			add(l.step)
		}
	}
	for _, k := range keys {
		group := entries[k]
		sensitive := false
		for _, s := range group {
			sensitive = sensitive || s.Sensitive
		}
		if sensitive {
			for _, s := range group {
				s.markSensitive()
			}
		}
	}
	man := &Manifest{APIVersion: ManifestAPIVersion, Kind: ManifestKind, Kustomization: t.Rel(top.Dir), Label: top.Label}
	if man.Label == "" {
		man.Label = t.Label(top.Dir)
	}
	// The step table holds each distinct step once (by what it publishes).
	stepIdx := map[*Step]int{}
	byContent := map[string]int{}
	used := map[string]*File{}
	use := func(f *File) {
		if f != nil {
			used[f.Path] = f
		}
	}
	index := func(s *Step) int {
		i, ok := stepIdx[s]
		if ok {
			return i
		}
		si := stepInfo(s)
		k, _ := json.Marshal(si)
		if i, ok = byContent[string(k)]; !ok {
			i = len(man.Steps)
			byContent[string(k)] = i
			man.Steps = append(man.Steps, si)
			use(s.ConfiguredIn)
			for _, f := range s.Files {
				use(f)
			}
		}
		stepIdx[s] = i
		return i
	}
	recs := make([]*Record, len(res))
	objs := make([]Object, len(res))
	n := 0
	for _, r := range res {
		if rec := t.records[r]; rec != nil {
			n += rec.n
		}
	}
	indexes := make([]int, n) // every object's transformers, one allocation
	var steps []*Step
	for i, r := range res {
		o := &objs[i]
		o.ID = idOf(r)
		rec := t.records[r]
		recs[i] = rec
		if rec == nil {
			continue
		}
		if org := rec.Origin; org != nil {
			if org.Generator != nil {
				g := index(org.Generator)
				o.Origin = &OriginInfo{Label: org.Label, Generator: &g}
			} else if org.File != nil {
				use(org.File)
				o.Origin = &OriginInfo{
					Path: org.File.Path, StartLine: org.Start, EndLine: org.End, Label: org.Label,
					Sha256: org.DocSha256, Redacted: org.Redacted,
				}
			}
		}
		if rec.n > 0 {
			steps = rec.appendSteps(steps[:0])
			o.Transformers, indexes = indexes[:rec.n:rec.n], indexes[rec.n:]
			for k, st := range steps {
				o.Transformers[k] = index(st)
			}
		}
		for _, ref := range t.refs[r] {
			o.References = append(o.References, idOf(ref).String())
		}
		sort.Strings(o.References)
		for _, v := range t.vars[r] {
			vi := VarInfo{Name: v.name, Sha256: v.sha256, Redacted: v.redacted}
			if v.source != nil {
				vi.Object = idOf(v.source).String()
			}
			o.Vars = append(o.Vars, vi)
		}
	}
	files := make(map[string]FileEntry, len(used))
	for p, f := range used {
		e := FileEntry{Path: p}
		if f.Sensitive || f.Sha256 == "" {
			e.Redacted = true
		} else {
			e.Sha256 = f.Sha256
		}
		files[p] = e
		man.Files = append(man.Files, e)
	}
	sort.Slice(man.Files, func(i, j int) bool { return man.Files[i].Path < man.Files[j].Path })

	fin := &Final{ann: make([][]observe.Annotation, len(res)), slow: t.slow}
	dig := newDigester(man.Steps, files)
	dig.encodeAll()
	dig.digestAll(objs)
	ann := newAnnotator(man.Steps)
	all := make([]observe.Annotation, 0, 3*len(objs)) // one allocation for all
	for i := range objs {
		var err error
		start := len(all)
		if all, err = ann.of(&objs[i], all); err != nil {
			return nil, fmt.Errorf("%s: %w", objs[i].ID, err)
		}
		fin.ann[i] = all[start:len(all):len(all)]
	}
	man.Objects = objs
	b, err := man.Marshal()
	if err != nil {
		return nil, err
	}
	fin.Manifest = b
	return fin, nil
}

// Marshal writes m as JSON with each step, object and file on a line of
// its own (readable, diffable, and cheap to write).
func (m *Manifest) Marshal() ([]byte, error) {
	var b bytes.Buffer
	// About what an object's line takes: one allocation, mostly.
	b.Grow(512 * (len(m.Steps) + len(m.Objects) + len(m.Files) + 1))
	// An Encoder writes into b what json.Marshal returns, plus a newline.
	enc := json.NewEncoder(&b)
	encode := func(v interface{}) error {
		if err := enc.Encode(v); err != nil {
			return err
		}
		b.Truncate(b.Len() - 1)
		return nil
	}
	field := func(name string, v interface{}, last bool) error {
		fmt.Fprintf(&b, "%q: ", name)
		if err := encode(v); err != nil {
			return err
		}
		if !last {
			b.WriteString(",")
		}
		b.WriteString("\n")
		return nil
	}
	list := func(name string, n int, at func(int) interface{}, last bool) error {
		fmt.Fprintf(&b, "%q: [", name)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n")
			if err := encode(at(i)); err != nil {
				return err
			}
		}
		if n > 0 {
			b.WriteString("\n")
		}
		b.WriteString("]")
		if !last {
			b.WriteString(",")
		}
		b.WriteString("\n")
		return nil
	}
	b.WriteString("{\n")
	for _, err := range []error{
		field("apiVersion", m.APIVersion, false),
		field("kind", m.Kind, false),
		field("kustomization", m.Kustomization, false),
		func() error {
			if m.Label == "" {
				return nil
			}
			return field("label", m.Label, false)
		}(),
		list("steps", len(m.Steps), func(i int) interface{} { return &m.Steps[i] }, false),
		func() error {
			// Objects are most of a manifest: written without reflection.
			b.WriteString(`"objects": [`)
			for i := range m.Objects {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString("\n")
				b.Write(appendObject(b.AvailableBuffer(), &m.Objects[i]))
			}
			if len(m.Objects) > 0 {
				b.WriteString("\n")
			}
			b.WriteString("],\n")
			return nil
		}(),
		list("files", len(m.Files), func(i int) interface{} { return &m.Files[i] }, true),
	} {
		if err != nil {
			return nil, err
		}
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// appendObject appends o as encoding/json writes it.
func appendObject(b []byte, o *Object) []byte {
	b = append(b, `{"id":{"apiVersion":`...)
	b = appendJSONString(b, o.ID.APIVersion)
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, o.ID.Kind)
	if o.ID.Namespace != "" {
		b = append(b, `,"namespace":`...)
		b = appendJSONString(b, o.ID.Namespace)
	}
	b = append(b, `,"name":`...)
	b = appendJSONString(b, o.ID.Name)
	b = append(b, `},"inputsDigest":`...)
	b = appendJSONString(b, o.InputsDigest)
	if org := o.Origin; org != nil {
		b = append(b, `,"origin":{`...)
		n := len(b)
		field := func(name string) {
			if len(b) > n {
				b = append(b, ',')
			}
			b = append(b, name...)
		}
		if org.Path != "" {
			field(`"path":`)
			b = appendJSONString(b, org.Path)
		}
		if org.StartLine != 0 {
			field(`"startLine":`)
			b = strconv.AppendInt(b, int64(org.StartLine), 10)
		}
		if org.EndLine != 0 {
			field(`"endLine":`)
			b = strconv.AppendInt(b, int64(org.EndLine), 10)
		}
		if org.Label != "" {
			field(`"label":`)
			b = appendJSONString(b, org.Label)
		}
		if org.Sha256 != "" {
			field(`"sha256":`)
			b = appendJSONString(b, org.Sha256)
		}
		if org.Redacted {
			field(`"redacted":true`)
		}
		if org.Generator != nil {
			field(`"generator":`)
			b = strconv.AppendInt(b, int64(*org.Generator), 10)
		}
		b = append(b, '}')
	}
	if len(o.Transformers) > 0 {
		b = append(b, `,"transformers":[`...)
		for i, t := range o.Transformers {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(t), 10)
		}
		b = append(b, ']')
	}
	if len(o.References) > 0 {
		b = appendJSONLine(append(b, `,"references":`...), o.References)
	}
	if len(o.Vars) > 0 {
		b = append(b, `,"vars":[`...)
		for i, v := range o.Vars {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = appendJSONString(b, v.Name)
			if v.Object != "" {
				b = append(b, `,"object":`...)
				b = appendJSONString(b, v.Object)
			}
			if v.Sha256 != "" {
				b = append(b, `,"sha256":`...)
				b = appendJSONString(b, v.Sha256)
			}
			if v.Redacted {
				b = append(b, `,"redacted":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// parallel runs f(0..n-1) on all CPUs.
func parallel(n int, f func(int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < 256 || workers < 2 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	chunk := (n + workers - 1) / workers
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// annotator makes the annotations of the objects of one manifest. Copies
// of a base share origins, and objects of one kustomization share
// transformers, so each distinct value is encoded once.
type annotator struct {
	steps        []StepInfo
	origins      map[originAnnotation]observe.Annotation
	transformers map[string]observe.Annotation // by the list of step indexes
	key, buf     []byte
}

func newAnnotator(steps []StepInfo) *annotator {
	return &annotator{steps: steps, origins: map[originAnnotation]observe.Annotation{}, transformers: map[string]observe.Annotation{}}
}

// of appends the annotations of o to out, sorted by key.
func (a *annotator) of(o *Object, out []observe.Annotation) ([]observe.Annotation, error) {
	out = append(out, observe.Annotation{Key: DigestAnnotation, Value: o.InputsDigest}) // sha256:HEX
	if org := o.Origin; org != nil {
		var v originAnnotation
		if org.Generator != nil {
			g := &a.steps[*org.Generator]
			v = originAnnotation{Generator: stepName(g), ConfiguredIn: g.ConfiguredIn, Label: g.Label}
			if c := g.Chart; c != nil {
				v.Chart = c.Name + "-" + c.Version
			}
		} else {
			v = originAnnotation{Path: org.Path, Label: org.Label}
		}
		an, ok := a.origins[v]
		if !ok {
			b, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			an = observe.Annotation{Key: OriginAnnotation, Value: string(b)}
			a.origins[v] = an
		}
		out = append(out, an)
	}
	if len(o.Transformers) > 0 {
		a.key = a.key[:0]
		for _, i := range o.Transformers {
			a.key = strconv.AppendInt(append(a.key, ','), int64(i), 10)
		}
		an, ok := a.transformers[string(a.key)]
		if !ok {
			a.buf = a.appendTransformers(a.buf[:0], o.Transformers)
			an = observe.Annotation{Key: TransformersAnnotation, Value: string(a.buf)}
			a.transformers[string(a.key)] = an
		}
		out = append(out, an)
	}
	return out, nil
}

// appendTransformers appends the transformers annotation of the steps idx
// as encoding/json writes them as []stepGroup: consecutive steps configured
// in one file form a group.
func (a *annotator) appendTransformers(b []byte, idx []int) []byte {
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

// Annotate sets the provenance annotations of the i-th object on r.
func (f *Final) Annotate(i int, r *resource.Resource) error {
	for _, a := range f.ann[i] {
		if err := r.PipeE(yaml.SetAnnotation(a.Key, a.Value)); err != nil {
			return err
		}
	}
	return nil
}

// Annotations are the provenance annotations of r, the i-th object, for
// emit to add as it prints it. Slow sets them on r instead.
func (f *Final) Annotations(i int, r *resource.Resource) ([]observe.Annotation, error) {
	if f.slow {
		return nil, f.Annotate(i, r)
	}
	return f.ann[i], nil
}

// ReadManifest parses a provenance manifest.
func ReadManifest(b []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("not a provenance manifest: %w", err)
	}
	if m.APIVersion != ManifestAPIVersion || m.Kind != ManifestKind {
		return nil, fmt.Errorf("not a provenance manifest: apiVersion %q kind %q, want %s %s", m.APIVersion, m.Kind, ManifestAPIVersion, ManifestKind)
	}
	return &m, nil
}

// FileIndex maps the manifest's files by path.
func (m *Manifest) FileIndex() map[string]FileEntry {
	out := make(map[string]FileEntry, len(m.Files))
	for _, f := range m.Files {
		out[f.Path] = f
	}
	return out
}

// Step returns the step at index i, or nil.
func (m *Manifest) Step(i int) *StepInfo {
	if i < 0 || i >= len(m.Steps) {
		return nil
	}
	return &m.Steps[i]
}
