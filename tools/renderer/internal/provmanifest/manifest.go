// Package provmanifest is the provenance format: the manifest krm build
// --provenance writes beside the manifests (its types, how it is written
// and read), the annotations it adds to each object, the inputs digest and
// what a source document is (docs/provenance.md). Package provenance
// records a build and writes it; krm trace, krm validate and krm diff only
// read it, through this package, without the recorder.
//
// Its name says which manifest: "manifest" alone, in a renderer of
// Kubernetes manifests, would read as the rendered objects.
package provmanifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
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

// Chart identifies an inflated Helm chart: its name and version (from
// Chart.yaml) and a digest of its files (of the archive, for a packaged chart).
type Chart struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	Sha256  string `json:"sha256"`
}

// PinnedImage is an `images` entry the build appended (krm --image) and
// the source of its digest (a Bazel label). It has observe.PinnedImage's
// fields, so the recorder converts one into the other.
type PinnedImage struct {
	Name    string `json:"name"`
	NewName string `json:"newName,omitempty"`
	Digest  string `json:"digest,omitempty"`
	Source  string `json:"source,omitempty"`
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
