// Package snapshot encodes and decodes the intermediate result of one
// kustomization (its Accumulation) so that the kustomizations that include
// it can continue from it without re-reading its sources.
//
// A snapshot is a YAML stream. The first document is the header; each
// following document is one resource exactly as the accumulation holds it,
// including kustomize's internal build annotations (previous names,
// prefixes/suffixes, generator behavior, pending hash suffix) and, when
// rendered with origins, origin annotations. Paths in origins are relative
// to the kustomization's own directory; the consumer rebases them.
package snapshot

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/kio"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provenance"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// APIVersion and Kind identify a snapshot header; a change to the format
// bumps the version.
const (
	APIVersion = "rules-krm.dev/v1alpha1"
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
	// present only when rendered with provenance.
	Provenance *provenance.SnapshotData `json:"provenance,omitempty"`
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
	var b bytes.Buffer
	b.Write(head)
	for _, r := range res {
		// Anchors keep the nodes an object shares (resourcemap.AnchorShared).
		// Comments never reach kustomize's output: leaving them out makes a
		// comment-only edit of a base re-run nothing above it.
		n := resourcemap.AnchorShared(r.RNode.YNode())
		prepare(n)
		s, err := kyaml.NewRNode(n).String()
		if err != nil {
			return nil, fmt.Errorf("encoding %s: %w", r.CurId(), err)
		}
		b.WriteString("---\n")
		b.WriteString(s)
	}
	return b.Bytes(), nil
}

// untaggedTag marks, in a snapshot, a plain scalar that had no tag. YAML
// text has no such thing: read back, `x:` is a null and `x: true` a bool,
// while kyaml treats an untagged scalar (one a transformer made, such as a
// replacement creating a field) as a string in some places (it is not
// null for IsMissingOrNull) and by its spelling in others.
const untaggedTag = "!krm.untagged"

// prepare clears the comments of n and everything below it, and marks the
// untagged plain scalars.
func prepare(n *kyaml.Node) {
	if n == nil {
		return
	}
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	if n.Kind == kyaml.ScalarNode && n.Tag == "" && n.Style == 0 {
		n.Tag = untaggedTag
	}
	for _, c := range n.Content {
		prepare(c)
	}
}

// unmarkUntagged undoes prepare's marks below n.
func unmarkUntagged(n *kyaml.Node) {
	if n.Kind == kyaml.ScalarNode && n.Tag == untaggedTag {
		n.Tag, n.Style = "", 0
	}
	for _, c := range n.Content {
		unmarkUntagged(c)
	}
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
	head := data
	if i := bytes.Index(data, []byte("\n---\n")); i >= 0 {
		head = data[:i+1]
	}
	var h Header
	if err := yaml.Unmarshal(head, &h); err != nil {
		return nil, fmt.Errorf("malformed snapshot header: %w", err)
	}
	if h.APIVersion != APIVersion || h.Kind != Kind {
		return nil, fmt.Errorf("not a snapshot of this krm version: got %s %s, want %s %s", h.APIVersion, h.Kind, APIVersion, Kind)
	}
	return &h, nil
}

// Decode reads a snapshot written by Encode.
func Decode(data []byte) (*Snapshot, error) {
	// Not kio.FromBytes: it expands the anchors Encode writes for shared
	// nodes into copies; ResolveShared turns them back into sharing.
	nodes, err := (&kio.ByteReader{OmitReaderAnnotations: true, Reader: bytes.NewReader(data)}).Read()
	if err != nil {
		return nil, fmt.Errorf("malformed snapshot: %w", err)
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("malformed snapshot: empty")
	}
	head, err := nodes[0].MarshalJSON()
	if err != nil {
		return nil, err
	}
	var h Header
	if err := yaml.Unmarshal(head, &h); err != nil {
		return nil, fmt.Errorf("malformed snapshot header: %w", err)
	}
	if h.APIVersion != APIVersion || h.Kind != Kind {
		return nil, fmt.Errorf("not a snapshot of this krm version: got %s %s, want %s %s", h.APIVersion, h.Kind, APIVersion, Kind)
	}
	nodes = nodes[1:]
	if len(nodes) != h.Resources {
		return nil, fmt.Errorf("malformed snapshot: header says %d resources, found %d", h.Resources, len(nodes))
	}
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
	acc.HelmUnnamespaced = h.HelmUnnamespaced
	acc.Origins = h.Origins
	list := make([]*resource.Resource, len(nodes))
	for i, n := range nodes {
		resourcemap.ResolveShared(n.YNode())
		unmarkUntagged(n.YNode())
		r := &resource.Resource{RNode: *n}
		names := h.RefVars[i]
		for _, name := range names {
			r.AppendRefVarName(types.Var{Name: name})
		}
		list[i] = r
	}
	m, err := resourcemap.FromResources(list)
	if err != nil {
		return nil, fmt.Errorf("malformed snapshot: %w", err)
	}
	acc.Resources = m
	acc.Provenance = h.Provenance
	return &Snapshot{Header: h, Accumulation: acc}, nil
}

var defaultConfig = func() *fieldspec.Config {
	c, err := (&fieldspec.Config{}).Merge(fieldspec.Defaults())
	if err != nil {
		panic(err)
	}
	return c
}()

func isDefault(c *fieldspec.Config) bool {
	a, err1 := yaml.Marshal(c)
	b, err2 := yaml.Marshal(defaultConfig)
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}
