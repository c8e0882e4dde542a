package provenance

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/resource"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
)

// snapshotData is the provenance a snapshot carries for its resources
// (header field `provenance`), so that a parent rendered in another process
// continues from it. Steps and origins refer to files by index.
type snapshotData struct {
	Files   []snapFile   `json:"files,omitempty"`
	Steps   []snapStep   `json:"steps,omitempty"`
	Records []snapRecord `json:"records"`
}

// snapFile is a file.
type snapFile struct {
	Path      string `json:"path"`
	Sha256    string `json:"sha256,omitempty"`
	Sensitive bool   `json:"sensitive,omitempty"`
}

// snapStep is a step; ConfiguredIn and Files are indexes into Files.
type snapStep struct {
	Kind           string                     `json:"kind"`
	Name           string                     `json:"name,omitempty"`
	ConfiguredIn   *int                       `json:"configuredIn,omitempty"`
	Label          string                     `json:"label,omitempty"`
	ConfigSha256   string                     `json:"configSha256,omitempty"`
	RedactedSha256 string                     `json:"redactedSha256,omitempty"`
	Files          []int                      `json:"files,omitempty"`
	Generator      bool                       `json:"generator,omitempty"`
	Validator      bool                       `json:"validator,omitempty"`
	Ordinal        int                        `json:"ordinal,omitempty"`
	DataCarrying   bool                       `json:"dataCarrying,omitempty"`
	Sensitive      bool                       `json:"sensitive,omitempty"`
	Images         []provmanifest.PinnedImage `json:"images,omitempty"`
	Chart          *provmanifest.Chart        `json:"chart,omitempty"`
}

// snapRecord is the record of the resource at the same index.
type snapRecord struct {
	File      *int   `json:"file,omitempty"`
	Start     int    `json:"start,omitempty"`
	End       int    `json:"end,omitempty"`
	Label     string `json:"label,omitempty"`
	DocSha256 string `json:"docSha256,omitempty"`
	Redacted  bool   `json:"redacted,omitempty"`
	Generator *int   `json:"generator,omitempty"`
	Steps     []int  `json:"steps,omitempty"`
}

// exportRecords returns the provenance of res for a snapshot.
func (t *Tracker) exportRecords(res []*resource.Resource) *snapshotData {
	d := &snapshotData{Records: make([]snapRecord, len(res))}
	fileIdx := map[*file]int{}
	indexFile := func(f *file) *int {
		if f == nil {
			return nil
		}
		i, ok := fileIdx[f]
		if !ok {
			i = len(d.Files)
			fileIdx[f] = i
			sf := snapFile{Path: f.Path, Sensitive: f.Sensitive}
			if !f.Sensitive {
				sf.Sha256 = f.Sha256
			}
			d.Files = append(d.Files, sf)
		}
		return &i
	}
	stepIdx := map[*step]int{}
	indexStep := func(s *step) int {
		i, ok := stepIdx[s]
		if !ok {
			i = len(d.Steps)
			stepIdx[s] = i
			ss := snapStep{
				Kind:           s.Kind,
				Name:           s.Name,
				ConfiguredIn:   indexFile(s.ConfiguredIn),
				Label:          s.Label,
				Chart:          s.Chart,
				RedactedSha256: s.RedactedSha256,
				Generator:      s.Generator,
				Validator:      s.Validator,
				Ordinal:        s.Ordinal,
				DataCarrying:   s.DataCarrying,
				Sensitive:      s.Sensitive,
				Images:         s.Images,
			}
			if !s.Sensitive {
				ss.ConfigSha256 = s.ConfigSha256
			}
			for _, f := range s.Files {
				ss.Files = append(ss.Files, *indexFile(f))
			}
			d.Steps = append(d.Steps, ss)
		}
		return i
	}
	for i, r := range res {
		rec := t.records[r]
		if rec == nil {
			continue
		}
		sr := &d.Records[i]
		if o := rec.Origin; o != nil {
			sr.File, sr.Start, sr.End, sr.Label = indexFile(o.File), o.Start, o.End, o.Label
			sr.DocSha256, sr.Redacted = o.DocSha256, o.Redacted
			if o.Generator != nil {
				g := indexStep(o.Generator)
				sr.Generator = &g
			}
		}
		for _, s := range rec.appendSteps(nil) {
			sr.Steps = append(sr.Steps, indexStep(s))
		}
	}
	return d
}

// importRecords attaches the provenance d (from a snapshot) to res, the
// snapshot's resources in order.
func (t *Tracker) importRecords(res []*resource.Resource, d *snapshotData) error {
	if d == nil {
		return fmt.Errorf("the snapshot has no provenance: render it with --provenance too")
	}
	if len(d.Records) != len(res) {
		return fmt.Errorf("snapshot provenance has %d records for %d resources", len(d.Records), len(res))
	}
	files := make([]*file, len(d.Files))
	for i, sf := range d.Files {
		f, ok := t.files[sf.Path]
		if !ok {
			f = &file{Path: sf.Path, Sha256: sf.Sha256}
			t.files[sf.Path] = f
		} else if f.Sha256 == "" {
			f.Sha256 = sf.Sha256
		}
		if sf.Sensitive {
			f.Sensitive = true
		}
		files[i] = f
	}
	fileAt := func(i *int) (*file, error) {
		if i == nil {
			return nil, nil
		}
		if *i < 0 || *i >= len(files) {
			return nil, fmt.Errorf("snapshot provenance: file index %d out of range", *i)
		}
		return files[*i], nil
	}
	steps := make([]*step, len(d.Steps))
	for i, ss := range d.Steps {
		in, err := fileAt(ss.ConfiguredIn)
		if err != nil {
			return err
		}
		s := &step{
			Kind: ss.Kind, Name: ss.Name, ConfiguredIn: in, Label: ss.Label,
			ConfigSha256: ss.ConfigSha256, RedactedSha256: ss.RedactedSha256,
			Generator: ss.Generator, Validator: ss.Validator, Ordinal: ss.Ordinal, DataCarrying: ss.DataCarrying,
			Images: ss.Images,
			Chart:  ss.Chart,
		}
		for _, fi := range ss.Files {
			f, err := fileAt(&fi)
			if err != nil {
				return err
			}
			s.Files = append(s.Files, f)
		}
		if ss.Sensitive {
			s.markSensitive()
		}
		steps[i] = s
	}
	stepAt := func(i int) (*step, error) {
		if i < 0 || i >= len(steps) {
			return nil, fmt.Errorf("snapshot provenance: step index %d out of range", i)
		}
		return steps[i], nil
	}
	for i, sr := range d.Records {
		f, err := fileAt(sr.File)
		if err != nil {
			return err
		}
		o := &origin{File: f, Start: sr.Start, End: sr.End, Label: sr.Label, DocSha256: sr.DocSha256, Redacted: sr.Redacted}
		if sr.Generator != nil {
			if o.Generator, err = stepAt(*sr.Generator); err != nil {
				return err
			}
		}
		rec := &record{Origin: o}
		for _, si := range sr.Steps {
			s, err := stepAt(si)
			if err != nil {
				return err
			}
			rec = rec.with(s)
		}
		t.records[res[i]] = rec
	}
	return nil
}
