package rdiff

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/secretdata"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

// ID identifies an object as the cluster does: the API version is left
// out, so an object moved to another version is one changed object.
type ID struct {
	Group     string `json:"group"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String is KIND[.GROUP] [NAMESPACE/]NAME.
func (id ID) String() string {
	s := id.Kind
	if id.Group != "" {
		s += "." + id.Group
	}
	s += " "
	if id.Namespace != "" {
		s += id.Namespace + "/"
	}
	return s + id.Name
}

func (id ID) less(o ID) bool {
	if id.Kind != o.Kind {
		return id.Kind < o.Kind
	}
	if id.Group != o.Group {
		return id.Group < o.Group
	}
	if id.Namespace != o.Namespace {
		return id.Namespace < o.Namespace
	}
	return id.Name < o.Name
}

// object is one parsed object of a file.
type object struct {
	id     ID
	node   *yaml.Node // the mapping
	origin string     // from the provenance origin annotation, if any
	secret bool       // an item of a SecretList: a Secret whatever its kind says
}

// readFile reads and parses one input file, refusing files past the bounds.
func readFile(path string) ([]object, error) {
	data, err := yamlread.File(path)
	if err != nil {
		return nil, err
	}
	objs, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return objs, nil
}

// parse reads a YAML stream into objects (a list's items count as its objects),
// checking the bounds (and that no mapping repeats a key) before anything walks
// the nodes.
func parse(data []byte) ([]object, error) {
	nodes, err := yamlread.Nodes(data)
	if err != nil {
		return nil, err
	}
	var objs []object
	seen := map[ID]bool{}
	for i, n := range nodes {
		items, err := listItems(n, ID{}, false)
		if err != nil {
			return nil, fmt.Errorf("%w: object %d: %v", yamlread.ErrMalformed, i+1, err)
		}
		for _, o := range items {
			if seen[o.id] {
				return nil, fmt.Errorf("%w: %s appears twice", yamlread.ErrMalformed, o.id)
			}
			seen[o.id] = true
			objs = append(objs, o)
		}
	}
	return objs, nil
}

// listItems returns the objects of a document: itself, or the items of a list (kind List
// or KINDList, such as SecretList, with items: kubectl reads any such document as a list),
// lists in lists too. An item without a kind or group is of the list's: a SecretList's
// items have none.
func listItems(n *yaml.Node, def ID, secret bool) ([]object, error) {
	rn := yaml.NewRNode(n)
	kind := rn.GetKind()
	items := rn.Field("items")
	if !hasSuffixFold(kind, "List") || items == nil || items.Value.YNode().Kind != yaml.SequenceNode {
		o, err := newObject(rn, def)
		o.secret = secret
		return []object{o}, err
	}
	def = ID{Group: group(rn.GetApiVersion()), Kind: kind[:len(kind)-len("List")]}
	secret = secret || secretdata.IsSecretList(n)
	var out []object
	for j, item := range items.Value.YNode().Content {
		if item.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("line %d: item %d of the %s is not a mapping", item.Line, j+1, kind)
		}
		objs, err := listItems(item, def, secret)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// newObject reads an object; def gives the kind and group of a list's item that has none.
func newObject(rn *yaml.RNode, def ID) (object, error) {
	kind, api := rn.GetKind(), rn.GetApiVersion()
	g := group(api)
	if kind == "" {
		kind = def.Kind
	}
	if api == "" {
		g = def.Group
	}
	if kind == "" {
		return object{}, fmt.Errorf("no kind")
	}
	o := object{
		id:   ID{Group: g, Kind: kind, Namespace: rn.GetNamespace(), Name: rn.GetName()},
		node: rn.YNode(),
	}
	o.origin = dropProvenance(rn)
	return o, nil
}

// group is the API group of an apiVersion: "" for the core group ("v1").
func group(apiVersion string) string {
	g, _, found := strings.Cut(apiVersion, "/")
	if !found {
		return ""
	}
	return g
}

// dropProvenance removes krm's provenance annotations from the object and
// returns its origin as a file path, or as "GENERATOR in FILE".
func dropProvenance(rn *yaml.RNode) string {
	ann := rn.Field(yaml.MetadataField)
	if ann == nil {
		return ""
	}
	annField := ann.Value.Field(yaml.AnnotationsField)
	if annField == nil || annField.Value.YNode().Kind != yaml.MappingNode {
		return ""
	}
	m := annField.Value.YNode()
	origin := ""
	kept := m.Content[:0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		// The annotations krm build --provenance adds are left out of
		// comparisons: the inputs digest changes with every input.
		if !strings.HasPrefix(k.Value, provmanifest.AnnotationPrefix) {
			kept = append(kept, k, v)
			continue
		}
		if k.Value == provmanifest.OriginAnnotation {
			origin = originText(v.Value)
		}
	}
	m.Content = kept
	if len(kept) == 0 {
		_ = ann.Value.PipeE(yaml.Clear(yaml.AnnotationsField))
	}
	return origin
}

// originText reads the origin annotation's JSON (docs/provenance.md).
func originText(s string) string {
	o, err := provmanifest.ParseOrigin(s)
	if err != nil {
		return ""
	}
	return o.Text()
}
