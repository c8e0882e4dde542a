package trace

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

// serverMetadata are the metadata fields the API server writes.
var serverMetadata = []string{
	"managedFields", "resourceVersion", "uid", "generation", "creationTimestamp", "selfLink",
	"deletionTimestamp", "deletionGracePeriodSeconds",
}

// Strip removes from an object (a mapping, changed in place) what the API server adds and
// what the comparison leaves out: status, the server's metadata (managedFields,
// resourceVersion, uid, generation, creationTimestamp, ...), krm's provenance annotations
// (compared through the inputs digest) and apiVersion (an object may be read in another
// version than rendered). Both sides are stripped: a render may carry `status: {}` or
// `creationTimestamp: null`.
func Strip(obj *yaml.Node) {
	dropKeys(obj, func(k string) bool { return k == "status" || k == "apiVersion" })
	md := yamlnode.Field(obj, "metadata")
	dropKeys(md, func(k string) bool {
		for _, f := range serverMetadata {
			if k == f {
				return true
			}
		}
		return false
	})
	dropKeys(yamlnode.Field(md, "annotations"), func(k string) bool {
		return strings.HasPrefix(k, provmanifest.AnnotationPrefix)
	})
}

func dropKeys(m *yaml.Node, drop func(string) bool) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	kept := m.Content[:0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if !drop(m.Content[i].Value) {
			kept = append(kept, m.Content[i], m.Content[i+1])
		}
	}
	m.Content = kept
}

// Rendered are the objects of the rendered manifests, by identity.
type Rendered struct {
	// Name is where they were read, for the report.
	Name string
	objs map[rdiff.ID]*yaml.Node
}

// ParseRendered reads rendered manifests (a YAML stream) within yamlread's bounds.
func ParseRendered(name string, data []byte) (*Rendered, error) {
	nodes, err := yamlread.Nodes(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r := &Rendered{Name: name, objs: map[rdiff.ID]*yaml.Node{}}
	for _, n := range nodes {
		rn := yaml.NewRNode(n)
		group, _, ok := strings.Cut(rn.GetApiVersion(), "/")
		if !ok {
			group = ""
		}
		r.objs[rdiff.ID{Group: group, Kind: rn.GetKind(), Namespace: rn.GetNamespace(), Name: rn.GetName()}] = n
	}
	return r, nil
}

// LoadRendered reads a rendered manifests file.
func LoadRendered(path string) (*Rendered, error) {
	data, err := yamlread.File(path)
	if err != nil {
		return nil, err
	}
	return ParseRendered(path, data)
}

// object returns the rendered object of a manifest entry.
func (r *Rendered) object(id provmanifest.ObjectID) *yaml.Node {
	return r.objs[rdiff.ID{Group: id.Group(), Kind: id.Kind, Namespace: id.Namespace, Name: id.Name}]
}

// Drift is one field the render sets that the live object does not have as rendered.
type Drift struct {
	// Field is the difference: Path, Change (rdiff.Changed, or rdiff.Removed when missing
	// live, or rdiff.Added for an item added to a list matched by index), Old (rendered) and
	// New (live).
	rdiff.Field
	// Managers are the field managers other than krm apply's that own the field live
	// (from managedFields, when the live object has them), as "NAME (OPERATION)".
	Managers []string
	// Source is where the rendered value was written.
	Source Source
}

// Drifted compares a live object with its render. Only what the render sets counts: a field
// the render sets whose live value differs, or which is missing live (unless it is empty:
// the API server drops empty values), or an item added to a list the render sets as a whole
// (matched by index, such as args). Fields only the live object has (defaults, other
// managers' fields, a sidecar added to a named list) are not drift; neither is the order of
// a named list's items, nor a value written another way (1 and "1", a quantity 0.5 and
// 500m). Both objects are stripped (Strip) first; live's managedFields are read before.
func Drifted(rendered, live *yaml.Node) []Drift {
	managers := managedFields(live)
	rendered, live = clone(rendered), clone(live)
	Strip(rendered)
	Strip(live)
	secret := yaml.NewRNode(rendered).GetKind() == "Secret"
	if secret {
		stringDataToData(rendered)
	}
	var out []Drift
	for _, f := range rdiff.Fields(rendered, live, secret) {
		if !isDrift(f) {
			continue
		}
		d := Drift{Field: f}
		if path, err := parsePath(f.Path); err == nil {
			for _, m := range managers {
				if m.set.owns(path) {
					d.Managers = append(d.Managers, m.name)
				}
			}
		}
		out = append(out, d)
	}
	return out
}

func isDrift(f rdiff.Field) bool {
	switch f.Change {
	case rdiff.Removed:
		switch string(f.Old) {
		case "null", `""`, "{}", "[]":
			return false
		}
		return true
	case rdiff.Added:
		return strings.HasSuffix(f.Path, "]") && indexItem().MatchString(f.Path)
	case rdiff.Changed:
		return f.Lines != nil || !sameValue(f.Path, f.Old, f.New)
	}
	return false // reordered: named items are merged by name
}

var indexItem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[[0-9]+\]$`) })

// sameValue tells values written differently apart from different ones: scalars of equal
// text ("1" and 1), and equal quantities under resources (0.5 and 500m, 1Gi and 1024Mi).
func sameValue(path string, a, b json.RawMessage) bool {
	x, okA := scalarText(a)
	y, okB := scalarText(b)
	if !okA || !okB {
		return false
	}
	if x == y {
		return true
	}
	return quantityPath().MatchString(path) && yamlnode.SameQuantity(x, y)
}

var quantityPath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|\.)(limits|requests|hard|capacity|overhead)(\.|\[)|\.(storage|sizeLimit)$`)
})

func scalarText(v json.RawMessage) (string, bool) {
	var x any
	if json.Unmarshal(v, &x) != nil {
		return "", false
	}
	switch x.(type) {
	case map[string]any, []any:
		return "", false
	case nil:
		return "null", true
	}
	return fmt.Sprint(x), true
}

// stringDataToData moves a rendered Secret's stringData into data, base64-encoded, as the
// API server stores it.
func stringDataToData(secret *yaml.Node) {
	sd := yamlnode.Field(secret, "stringData")
	if sd == nil || sd.Kind != yaml.MappingNode {
		return
	}
	data := yamlnode.Field(secret, "data")
	if data == nil || data.Kind != yaml.MappingNode {
		data = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		secret.Content = append(secret.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "data"}, data)
	}
	for i := 0; i+1 < len(sd.Content); i += 2 {
		k, v := sd.Content[i], sd.Content[i+1]
		enc := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: base64.StdEncoding.EncodeToString([]byte(v.Value))}
		if old := yamlnode.Field(data, k.Value); old != nil {
			*old = *enc // stringData wins, as on the server
		} else {
			data.Content = append(data.Content, k, enc)
		}
	}
	dropKeys(secret, func(k string) bool { return k == "stringData" })
}

type managerSet struct {
	name string
	set  *fieldSet
}

// managedFields reads metadata.managedFields: the managers other than krm apply's, each
// with its field set.
func managedFields(obj *yaml.Node) []managerSet {
	mf := yamlnode.Field(yamlnode.Field(obj, "metadata"), "managedFields")
	if mf == nil || mf.Kind != yaml.SequenceNode {
		return nil
	}
	var out []managerSet
	for _, e := range mf.Content {
		name, op := yamlnode.Field(e, "manager"), yamlnode.Field(e, "operation")
		set := yamlnode.Field(e, "fieldsV1")
		if name == nil || set == nil || (name.Value == clustersupport.FieldManager && op != nil && op.Value == "Apply") {
			continue
		}
		label := fmt.Sprintf("%q", name.Value)
		if op != nil {
			label += " (" + op.Value + ")"
		}
		out = append(out, managerSet{name: label, set: newFieldSet(set)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// clone deep-copies a node tree (bounded: the trees passed the reader's node budget).
func clone(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, x := range n.Content {
		c.Content[i] = clone(x)
	}
	return &c
}

func fieldCount(n int) string {
	if n == 1 {
		return "1 field differs"
	}
	return fmt.Sprintf("%d fields differ", n)
}

// printDrift writes the comparison with the rendered object: each drifted field, its
// rendered and live values, the managers owning it live, and where it was written.
func printDrift(w io.Writer, r *Result) {
	if r.LiveAPIVersion != "" {
		fmt.Fprintf(w, "  live version:  %s, rendered as %s: fields are compared across versions (read it as %s)\n", r.LiveAPIVersion, r.Object.ID.APIVersion, r.Object.ID.APIVersion)
	}
	if !r.Drifted() {
		fmt.Fprintf(w, "  live fields:   as rendered (%s): every field the render sets has its rendered value\n", r.Rendered)
		return
	}
	fmt.Fprintf(w, "  live fields:   %s from the render (%s):\n", fieldCount(len(r.Drift)), r.Rendered)
	for _, d := range r.Drift {
		fmt.Fprintf(w, "    %s: %s\n", d.Path, change(d.Field))
		if len(d.Managers) > 0 {
			fmt.Fprintf(w, "      live value owned by field manager %s\n", strings.Join(d.Managers, ", "))
		}
		fmt.Fprintf(w, "      set by %s\n", describeSource(r, d.Source))
	}
}

// change is a field's rendered and live values.
func change(f rdiff.Field) string {
	switch {
	case f.Redacted:
		return "(Secret data: values hidden) " + f.Change
	case f.Change == rdiff.Removed:
		return string(f.Old) + " → missing live"
	case f.Change == rdiff.Added:
		return "missing in the render → " + string(f.New) + " (an item added live)"
	case f.Lines != nil:
		return "the text differs (- rendered, + live):\n        " + strings.Join(f.Lines, "\n        ")
	}
	return string(f.Old) + " → " + string(f.New)
}

// describeSource names a Source: FILE:LINE[-LINE], the step that wrote it there and the note.
func describeSource(r *Result, s Source) string {
	where := s.Path
	switch {
	case where == "" && s.Note != "":
		return s.Note
	case where == "":
		where = "an unknown source (the manifest has no origin for the object)"
	}
	switch {
	case s.StartLine > 0 && s.EndLine > s.StartLine:
		where += fmt.Sprintf(":%d-%d", s.StartLine, s.EndLine)
	case s.StartLine > 0:
		where += fmt.Sprintf(":%d", s.StartLine)
	}
	if st := r.stepAt(s.Step); st != nil {
		what := st.Kind
		if st.Name != "" {
			what += " " + st.Name
		}
		if st.ConfiguredIn != s.Path {
			what += " configured in " + st.ConfiguredIn
		}
		where += " (" + what + ")"
	}
	if s.Note != "" {
		where += " [" + s.Note + "]"
	}
	return where
}

func (r *Result) stepAt(i int) *provmanifest.StepInfo {
	if i < 0 || i >= len(r.Steps) {
		return nil
	}
	return &r.Steps[i]
}
