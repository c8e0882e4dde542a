package provenance

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"sync"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
)

// Top describes the kustomization a build rendered.
type Top struct {
	Dir   string // absolute
	Label string
}

func idOf(r *resource.Resource) provmanifest.ObjectID {
	n := r.RNode.YNode()
	if n == nil || n.Kind != yaml.MappingNode || n.Tag == yaml.NodeTagNull || len(n.Content)%2 != 0 {
		return provmanifest.ObjectID{APIVersion: r.GetApiVersion(), Kind: r.GetKind(), Namespace: r.GetNamespace(), Name: r.GetName()}
	}
	// One pass for what kyaml's four getters read in four: the first of
	// each key counts; metadata's fields count only in a non-empty one.
	var id provmanifest.ObjectID
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

func stepInfo(s *step) provmanifest.StepInfo {
	si := provmanifest.StepInfo{Kind: s.Kind, Name: s.Name, Label: s.Label, Chart: s.Chart}
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

// final is the provenance of a finished build: the manifest, and the
// annotations of each object (in output order).
type final struct {
	Manifest []byte
	ann      [][]observe.Annotation
	slow     bool
}

// finish computes the provenance of the resources of m (the final
// objects, in output order). Their annotations are added when they are
// printed (final.annotations).
func (t *Tracker) finish(m resmap.ResMap) (*final, error) {
	top := t.top
	res := m.Resources()
	// A Secret makes everything that wrote content into it sensitive.
	for _, r := range res {
		if !isSecret(r) {
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
	entries := map[string][]*step{}
	var keys []string
	for _, r := range res {
		rec := t.records[r]
		if rec == nil {
			continue
		}
		add := func(s *step) {
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
	man := &provmanifest.Manifest{APIVersion: provmanifest.ManifestAPIVersion, Kind: provmanifest.ManifestKind, Kustomization: t.rel(top.Dir), Label: top.Label}
	if man.Label == "" {
		man.Label = t.label(top.Dir)
	}
	// The step table holds each distinct step once (by what it publishes).
	stepIdx := map[*step]int{}
	byContent := map[string]int{}
	used := map[string]*file{}
	use := func(f *file) {
		if f != nil {
			used[f.Path] = f
		}
	}
	index := func(s *step) int {
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
	recs := make([]*record, len(res))
	objs := make([]provmanifest.Object, len(res))
	n := 0
	for _, r := range res {
		if rec := t.records[r]; rec != nil {
			n += rec.n
		}
	}
	indexes := make([]int, n) // every object's transformers, one allocation
	var steps []*step
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
				o.Origin = &provmanifest.OriginInfo{Label: org.Label, Generator: &g}
			} else if org.File != nil {
				use(org.File)
				o.Origin = &provmanifest.OriginInfo{
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
			vi := provmanifest.VarInfo{Name: v.name, Sha256: v.sha256, Redacted: v.redacted}
			if v.source != nil {
				vi.Object = idOf(v.source).String()
			}
			o.Vars = append(o.Vars, vi)
		}
	}
	files := make(map[string]provmanifest.FileEntry, len(used))
	for p, f := range used {
		e := provmanifest.FileEntry{Path: p}
		if f.Sensitive || f.Sha256 == "" {
			e.Redacted = true
		} else {
			e.Sha256 = f.Sha256
		}
		files[p] = e
		man.Files = append(man.Files, e)
	}
	sort.Slice(man.Files, func(i, j int) bool { return man.Files[i].Path < man.Files[j].Path })

	fin := &final{ann: make([][]observe.Annotation, len(res)), slow: t.slow}
	provmanifest.DigestAll(objs, man.Steps, files)
	ann := provmanifest.NewAnnotator(man.Steps)
	all := make([]observe.Annotation, 0, 3*len(objs)) // one allocation for all
	for i := range objs {
		var err error
		start := len(all)
		if all, err = appendAnnotations(ann, &objs[i], all); err != nil {
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

// appendAnnotations appends the annotations of o to out, sorted by key.
func appendAnnotations(a *provmanifest.Annotator, o *provmanifest.Object, out []observe.Annotation) ([]observe.Annotation, error) {
	out = append(out, observe.Annotation{Key: provmanifest.DigestAnnotation, Value: o.InputsDigest}) // sha256:HEX
	org, err := a.Origin(o)
	if err != nil {
		return nil, err
	}
	if org != "" {
		out = append(out, observe.Annotation{Key: provmanifest.OriginAnnotation, Value: org})
	}
	if tr := a.Transformers(o); tr != "" {
		out = append(out, observe.Annotation{Key: provmanifest.TransformersAnnotation, Value: tr})
	}
	return out, nil
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

// annotate sets the provenance annotations of the i-th object on r.
func (f *final) annotate(i int, r *resource.Resource) error {
	for _, a := range f.ann[i] {
		if err := r.PipeE(yaml.SetAnnotation(a.Key, a.Value)); err != nil {
			return err
		}
	}
	return nil
}

// Annotations are the provenance annotations of r, the i-th object, for
// emit to add as it prints it. Slow sets them on r instead.
func (f *final) annotations(i int, r *resource.Resource) ([]observe.Annotation, error) {
	if f.slow {
		return nil, f.annotate(i, r)
	}
	return f.ann[i], nil
}
