package provenance

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"sigs.k8s.io/kustomize/api/ifc"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
)

// A Tracker is what watches a build that asks for provenance.
var _ observe.Observer = (*Tracker)(nil)

// Loader is l recording what it reads.
func (t *Tracker) Loader(l *load.Loader) ifc.Loader { return load.NewRecorder(l) }

// Read records the resources of m, just read through ldr from one file, as
// listed by the kustomization in dir. Resources read otherwise (kustomize's
// own reader, which reads a file twice) have no origin.
func (t *Tracker) Read(dir string, ldr ifc.Loader, m resmap.ResMap) {
	if rec, ok := ldr.(*load.Recorder); ok {
		if reads := rec.Reads(); len(reads) == 1 {
			t.addResources(m.Resources(), reads[0].Path, reads[0].Content, t.label(dir))
		}
	}
}

// Copied gives the resources of to the records of those of from.
func (t *Tracker) Copied(from, to resmap.ResMap) {
	t.copyRecords(from.Resources(), to.Resources())
}

// Carry is the provenance of m for its snapshot (snapshotData, as JSON).
func (t *Tracker) Carry(m resmap.ResMap) ([]byte, error) {
	return json.Marshal(t.exportRecords(m.Resources()))
}

// Restore attaches the provenance a snapshot carried (Carry) to m, the
// snapshot's resources.
func (t *Tracker) Restore(m resmap.ResMap, carried []byte) error {
	var d *snapshotData
	if carried != nil {
		d = &snapshotData{}
		if err := json.Unmarshal(carried, d); err != nil {
			return fmt.Errorf("snapshot provenance: %w", err)
		}
	}
	return t.importRecords(m.Resources(), d)
}

// Step runs s, recording on each object of m what s did to it: which
// objects it made, replaced or changed, and the files it read. Which
// objects changed is learnt from what s reports (Report), or else by
// fingerprinting before and after what s can change (Scope), or all.
func (t *Tracker) Step(o *observe.Step, m resmap.ResMap, run func() error) error {
	s, err := t.step(o)
	if err != nil {
		return err
	}
	switch o.Role {
	case observe.Generator:
		// A generator adds or replaces objects, never edits one in place.
		before := t.beforeScoped(m, nil)
		if err := run(); err != nil {
			return err
		}
		if o.Chart != nil {
			name, version, digest := o.Chart()
			s.Chart = &provmanifest.Chart{Name: name, Version: version, Sha256: digest}
		}
		t.addStepReads(s, o)
		t.afterScoped(m, before, s, nil)
	case observe.Validator:
		// A validator may add its validated-by label.
		before := t.before(m)
		if err := run(); err != nil {
			return err
		}
		t.addStepReads(s, o)
		t.after(m, before, s)
	default:
		var scope []*resource.Resource
		scoped := false
		if o.Scope != nil {
			var err error
			scope, err = o.Scope(m)
			scoped = err == nil
		}
		var changed func() []*resource.Resource
		if o.Report != nil {
			changed = o.Report()
		}
		var before []*resource.Resource
		if scoped || changed != nil {
			before = t.beforeScoped(m, scope)
		} else {
			before = t.before(m)
		}
		if err := run(); err != nil {
			return err
		}
		if o.Schema != nil {
			t.addReads(s, []load.Read{*o.Schema})
		}
		t.addStepReads(s, o)
		switch {
		case changed != nil:
			t.afterReported(m, before, s, changed())
		case scoped:
			t.afterScoped(m, before, s, scope)
		default:
			t.after(m, before, s)
		}
	}
	return nil
}

// step is the provenance step of o: configured in the file its config
// object was read from, or else its kustomization file.
func (t *Tracker) step(o *observe.Step) (*step, error) {
	var config []byte
	if o.Config != nil {
		var err error
		if config, err = o.Config(); err != nil {
			return nil, err
		}
	}
	var in *file
	name := ""
	if o.Object != nil {
		name = o.Object.GetName()
		in = t.originFile(o.Object)
	}
	if in == nil {
		in = t.file(filepath.Join(o.In.Dir, o.In.File), o.In.Content)
	}
	s := t.newStep(o.Kind, name, in, t.label(o.In.Dir), o.Ordinal, config, o.Builtin, o.Role == observe.Generator)
	s.Validator = o.Role == observe.Validator
	if o.Redacted != nil {
		s.setRedacted(o.Redacted)
	}
	return s, nil
}

// addStepReads records the files o read through its recording loader.
func (t *Tracker) addStepReads(s *step, o *observe.Step) {
	if rec, ok := o.Loader.(*load.Recorder); ok {
		t.addReads(s, rec.Reads())
	}
}

// Finished computes the provenance of the final objects of m and returns
// the provenance manifest; Annotations then gives each object's.
func (t *Tracker) Finished(m resmap.ResMap) ([]byte, error) {
	f, err := t.finish(m)
	if err != nil {
		return nil, err
	}
	t.final = f
	return f.Manifest, nil
}

// Annotations are the provenance annotations of r, the i-th object of
// Finished's.
func (t *Tracker) Annotations(i int, r *resource.Resource) ([]observe.Annotation, error) {
	return t.final.annotations(i, r)
}
