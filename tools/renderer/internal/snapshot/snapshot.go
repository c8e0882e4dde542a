// Package snapshot encodes and decodes the intermediate result of one
// kustomization (its Accumulation) so that the kustomizations that include
// it can continue from it without re-reading its sources.
//
// A snapshot is text: a YAML header, then each resource exactly as the
// accumulation holds it, node by node (nodes.go), including kustomize's
// internal build annotations (previous names, prefixes/suffixes, generator
// behavior, pending hash suffix) and, when rendered with origins, origin
// annotations. Paths in origins are relative to the kustomization's own
// directory; the consumer rebases them.
package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// APIVersion and Kind identify a snapshot header; a change to the format
// bumps the version.
const (
	APIVersion = "rules-krm.dev/v1alpha2"
	Kind       = "KustomizationSnapshot"
)

// Header is the first document of a snapshot.
type Header struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// KustomizationKind is Kustomization or Component.
	KustomizationKind string `json:"kustomizationKind"`
	// Label is the Bazel label of the target that rendered it, if any.
	Label string `json:"label,omitempty"`
	// SortOptions and BuildMetadata of this kustomization, used when it is
	// the top of a build.
	SortOptions   *types.SortOptions `json:"sortOptions,omitempty"`
	BuildMetadata []string           `json:"buildMetadata,omitempty"`
	// Config holds the field specs accumulated here, or is omitted when they
	// are kustomize's defaults.
	Config *fieldspec.Config `json:"config,omitempty"`
	// Vars declared here and in bases.
	Vars []types.Var `json:"vars,omitempty"`
	// RefVars maps a resource's index to the names of the vars that read it.
	RefVars map[int][]string `json:"refVars,omitempty"`
	// OpenAPI is the first openapi setting met in this subtree (kustomize
	// keeps the first one for the whole build).
	OpenAPI *OpenAPI `json:"openapi,omitempty"`
	// Provenance is the provenance of the resources (docs/provenance.md),
	// present only when rendered with provenance: what the build's
	// observer carried (package provenance's snapshotData, as JSON).
	Provenance json.RawMessage `json:"provenance,omitempty"`
	// Files are the files of a Component (kustomizationKind Component) and
	// of the components it names: a component acts on its parent's
	// resources, so the parent applies it from these files. Empty for a
	// Kustomization.
	Files []File `json:"files,omitempty"`
	// Components are the directories and labels of the components whose
	// files are in Files, this one first.
	Components []Component `json:"components,omitempty"`
	// Bases are the snapshots of the bases those components name.
	Bases []Base `json:"bases,omitempty"`
	// HelmUnnamespaced is Accumulation.HelmUnnamespaced.
	HelmUnnamespaced bool `json:"helmUnnamespaced,omitempty"`
	// Origins says the resources carry origin and transformation
	// annotations, for a parent whose buildMetadata asks (krm render
	// --origins); without, they carry none.
	Origins bool `json:"origins,omitempty"`
	// Resources is the number of resource documents that follow.
	Resources int `json:"resources"`
}

// File is one file of a component: its workspace-relative path and
// content, as text when it is UTF-8, else base64-encoded in data.
type File struct {
	Path string `json:"path"`
	Text string `json:"text,omitempty"`
	Data []byte `json:"data,omitempty"`
}

// NewFile returns the File for path with content data.
func NewFile(path string, data []byte) File {
	if utf8.Valid(data) {
		return File{Path: path, Text: string(data)}
	}
	return File{Path: path, Data: data}
}

// Content is the file's content.
func (f File) Content() []byte {
	if f.Data != nil {
		return f.Data
	}
	return []byte(f.Text)
}

// Component is a component in a component's snapshot: its directory
// (workspace-relative) and the label of its target.
type Component struct {
	Dir   string `json:"dir"`
	Label string `json:"label,omitempty"`
}

// Base is the snapshot of a base that a component names, by directory
// (workspace-relative).
type Base struct {
	Dir      string `json:"dir"`
	Snapshot string `json:"snapshot"`
}

// OpenAPI is a kustomization's `openapi` setting, with the schema content
// when it named a file.
type OpenAPI struct {
	Settings map[string]string `json:"settings,omitempty"`
	Schema   string            `json:"schema,omitempty"`
}

// Snapshot is a decoded snapshot.
type Snapshot struct {
	Header
	Accumulation *accumulate.Accumulation
}

// Encode writes acc and h (whose Resources, Config, Vars and RefVars it fills).
func Encode(acc *accumulate.Accumulation, h Header) ([]byte, error) {
	h.APIVersion, h.Kind = APIVersion, Kind
	if !isDefault(acc.Config) {
		h.Config = acc.Config
	}
	h.Vars = acc.Vars.AsSlice()
	h.HelmUnnamespaced = acc.HelmUnnamespaced
	h.Origins = acc.Origins
	res := acc.Resources.Resources()
	h.Resources = len(res)
	for i, r := range res {
		if names := r.GetRefVarNames(); len(names) > 0 {
			if h.RefVars == nil {
				h.RefVars = map[int][]string{}
			}
			h.RefVars[i] = append([]string(nil), names...)
		}
	}
	head, err := yaml.Marshal(h)
	if err != nil {
		return nil, err
	}
	w := nodeWriter{out: head, seen: map[*kyaml.Node]int{}}
	for _, r := range res {
		w.out = append(w.out, objectStart...)
		if err := w.node(r.RNode.Document()); err != nil {
			return nil, fmt.Errorf("encoding %s: %w", r.CurId(), err)
		}
	}
	return w.out, nil
}

// EncodeComponent writes the snapshot of a Component: a header carrying
// its files (h.Files, h.Components, h.Bases), and no resources.
func EncodeComponent(h Header) ([]byte, error) {
	h.APIVersion, h.Kind = APIVersion, Kind
	h.KustomizationKind = types.ComponentKind
	h.Resources = 0
	return yaml.Marshal(h)
}

// DecodeHeader reads the header of a snapshot (its first document) only.
func DecodeHeader(data []byte) (*Header, error) {
	head, _ := split(data)
	var h Header
	if err := yaml.Unmarshal(head, &h); err != nil {
		return nil, fmt.Errorf("malformed snapshot header: %w", err)
	}
	if h.APIVersion != APIVersion || h.Kind != Kind {
		return nil, fmt.Errorf("not a snapshot of this krm version: got %s %s, want %s %s", h.APIVersion, h.Kind, APIVersion, Kind)
	}
	return &h, nil
}

// split cuts a snapshot into its header and its resources.
func split(data []byte) (head, body []byte) {
	if i := bytes.Index(data, []byte("\n---\n")); i >= 0 {
		return data[:i+1], data[i+1:]
	}
	return data, nil
}

// objectStart begins each resource.
const objectStart = "---\n"

// Decode reads a snapshot written by Encode.
func Decode(data []byte) (*Snapshot, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("malformed snapshot: empty")
	}
	hp, err := DecodeHeader(data)
	if err != nil {
		return nil, err
	}
	h := *hp
	_, body := split(data)
	acc := accumulate.NewAccumulation()
	if h.Config != nil {
		acc.Config = h.Config
	} else {
		acc.Config = fieldspec.Defaults()
		// Merging sorts, exactly as accumulating the defaults did.
		if acc.Config, err = (&fieldspec.Config{}).Merge(acc.Config); err != nil {
			return nil, err
		}
	}
	if h.OpenAPI != nil {
		// A render from snapshots refuses it (accumulate.ErrOpenAPISnapshot).
		// Only that it is set and by whom: the schema is never applied.
		acc.OpenAPI = &accumulate.OpenAPISetting{Settings: h.OpenAPI.Settings, Label: h.Label}
	}
	if err := acc.Vars.MergeSlice(h.Vars); err != nil {
		return nil, err
	}
	if h.Label != "" {
		// Snapshots hold no paths: errors about these vars name the target.
		for _, v := range h.Vars {
			acc.AddVarFile(v.Name, h.Label)
		}
	}
	acc.HelmUnnamespaced = h.HelmUnnamespaced
	acc.Origins = h.Origins
	if h.Resources < 0 {
		return nil, fmt.Errorf("malformed snapshot: header says %d resources", h.Resources)
	}
	list := make([]*resource.Resource, 0, min(h.Resources, len(body)/len(objectStart)))
	r := nodeReader{s: string(body)}
	for r.pos < len(r.s) {
		if len(list) == h.Resources {
			return nil, fmt.Errorf("malformed snapshot: header says %d resources, found more", h.Resources)
		}
		if !strings.HasPrefix(r.s[r.pos:], objectStart) {
			return nil, fmt.Errorf("malformed snapshot: resource %d: %q expected", len(list), objectStart)
		}
		r.pos += len(objectStart)
		n, err := r.object()
		if err != nil {
			return nil, fmt.Errorf("malformed snapshot: resource %d: %w", len(list), err)
		}
		if n.Kind == kyaml.DocumentNode && len(n.Content) != 1 || kyaml.NewRNode(n).YNode().Kind != kyaml.MappingNode {
			return nil, fmt.Errorf("malformed snapshot: resource %d is not a mapping", len(list))
		}
		res := &resource.Resource{RNode: *kyaml.NewRNode(n)}
		for _, name := range h.RefVars[len(list)] {
			res.AppendRefVarName(types.Var{Name: name})
		}
		list = append(list, res)
	}
	if len(list) != h.Resources {
		return nil, fmt.Errorf("malformed snapshot: header says %d resources, found %d", h.Resources, len(list))
	}
	m, err := resourcemap.FromResources(list)
	if err != nil {
		return nil, fmt.Errorf("malformed snapshot: %w", err)
	}
	acc.Resources = m
	acc.Observed = h.Provenance
	return &Snapshot{Header: h, Accumulation: acc}, nil
}

// defaultConfig is kustomize's default field specs as accumulating them
// leaves them (merging sorts). Made on first use, like defaultYAML: commands
// that encode no snapshot do not pay for parsing the defaults.
var defaultConfig = sync.OnceValue(func() *fieldspec.Config {
	c, err := (&fieldspec.Config{}).Merge(fieldspec.Defaults())
	if err != nil {
		panic(err)
	}
	return c
})

var defaultYAML = sync.OnceValue(func() []byte {
	y, err := yaml.Marshal(defaultConfig())
	if err != nil {
		panic(err)
	}
	return y
})

// isDefault reports whether c marshals as the defaults do. Equal values
// marshal equally (Config has no maps), so DeepEqual answers the usual case
// without marshalling, which cost a fifth of a small render.
func isDefault(c *fieldspec.Config) bool {
	if reflect.DeepEqual(c, defaultConfig()) {
		return true
	}
	b, err := yaml.Marshal(c)
	return err == nil && bytes.Equal(b, defaultYAML())
}
