// Package trace answers "where did this object come from?" from a
// provenance manifest (package provenance): given an object as the cluster
// returns it or just its kind, namespace and name, it finds the object's
// entry and reports its source document, the transformers that changed it,
// and, for a live object, whether its inputs digest annotation says it was
// rendered from the manifest's inputs and whether it still has the rendered
// object's fields: each field that drifted, with the managers that own it
// live and the source line that set it (live.go, source.go).
package trace

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

// Query selects an object. Group is nil when any group matches; Namespace
// is "" when any namespace matches (for a live object it is its namespace).
type Query struct {
	Group     *string
	Kind      string
	Namespace string
	Name      string
	// Live is set for a live object: its digest annotation (if any), and
	// the object (a mapping, read within yamlread's bounds).
	Live       bool
	LiveDigest string
	HasDigest  bool
	Object     *yaml.Node
}

func (q Query) String() string {
	k := q.Kind
	if q.Group != nil && *q.Group != "" {
		k += "." + *q.Group
	}
	if q.Namespace != "" {
		return k + "/" + q.Namespace + "/" + q.Name
	}
	return k + "/" + q.Name
}

// ParseID parses KIND[.GROUP]/[NAMESPACE/]NAME.
func ParseID(s string) (Query, error) {
	parts := strings.Split(s, "/")
	var q Query
	switch len(parts) {
	case 2:
		q.Kind, q.Name = parts[0], parts[1]
	case 3:
		q.Kind, q.Namespace, q.Name = parts[0], parts[1], parts[2]
	default:
		return q, fmt.Errorf("%q: want KIND[.GROUP]/[NAMESPACE/]NAME", s)
	}
	if kind, group, ok := strings.Cut(q.Kind, "."); ok {
		q.Kind, q.Group = kind, &group
	}
	if q.Kind == "" || q.Name == "" {
		return q, fmt.Errorf("%q: want KIND[.GROUP]/[NAMESPACE/]NAME", s)
	}
	return q, nil
}

// ParseObjects reads live objects (YAML or JSON; a List is expanded). What a
// cluster hands back is untrusted: yamlread refuses aliases and
// oversized or too deep documents before anything walks them.
func ParseObjects(data []byte) ([]Query, error) {
	docs, err := yamlread.Nodes(data)
	if err != nil {
		return nil, fmt.Errorf("reading the object: %w", err)
	}
	nodes := make([]*yaml.RNode, len(docs))
	for i, d := range docs {
		nodes[i] = yaml.NewRNode(d)
	}
	var out []Query
	var add func(n *yaml.RNode) error
	add = func(n *yaml.RNode) error {
		if strings.HasSuffix(n.GetKind(), "List") {
			if items := n.Field("items"); items != nil && items.Value != nil {
				for _, it := range items.Value.Content() {
					if err := add(yaml.NewRNode(it)); err != nil {
						return err
					}
				}
				return nil
			}
		}
		group := ""
		if g, _, ok := strings.Cut(n.GetApiVersion(), "/"); ok {
			group = g
		}
		q := Query{Group: &group, Kind: n.GetKind(), Namespace: n.GetNamespace(), Name: n.GetName(), Live: true, Object: n.YNode()}
		if q.Kind == "" || q.Name == "" {
			return fmt.Errorf("an object without kind or metadata.name")
		}
		q.LiveDigest, q.HasDigest = n.GetAnnotations()[provmanifest.DigestAnnotation]
		out = append(out, q)
		return nil
	}
	for _, n := range nodes {
		if err := add(n); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no object found in the input")
	}
	return out, nil
}

// Find returns the manifest entry q selects. A live object whose namespace
// no entry has matches an entry rendered without a namespace (the
// namespace was chosen when it was applied).
func Find(m *provmanifest.Manifest, q Query) (*provmanifest.Object, error) {
	var exact, loose []*provmanifest.Object
	for i := range m.Objects {
		o := &m.Objects[i]
		if !strings.EqualFold(o.ID.Kind, q.Kind) || o.ID.Name != q.Name {
			continue
		}
		if q.Group != nil && o.ID.Group() != *q.Group {
			continue
		}
		switch {
		case q.Namespace == "" && !q.Live, o.ID.Namespace == q.Namespace:
			exact = append(exact, o)
		case o.ID.Namespace == "":
			loose = append(loose, o)
		}
	}
	if len(exact) == 0 {
		exact = loose
	}
	switch len(exact) {
	case 1:
		return exact[0], nil
	case 0:
		var near []string
		for _, o := range m.Objects {
			if strings.EqualFold(o.ID.Kind, q.Kind) && strings.Contains(o.ID.Name, q.Name) {
				near = append(near, o.ID.String())
			}
		}
		if len(near) > 0 && len(near) <= 5 {
			return nil, fmt.Errorf("%s is not in the provenance manifest of %s; did you mean %s?", q, m.Kustomization, strings.Join(near, " or "))
		}
		return nil, fmt.Errorf("%s is not in the provenance manifest of %s", q, m.Kustomization)
	}
	var ids []string
	for _, o := range exact {
		ids = append(ids, o.ID.String())
	}
	return nil, fmt.Errorf("%s is ambiguous: %s (give the group or namespace)", q, strings.Join(ids, ", "))
}

// Status is the verdict on a live object.
type Status int

const (
	// NoLiveObject: only an ID was given.
	NoLiveObject Status = iota
	// Match: the live object's digest is the manifest's.
	Match
	// Mismatch: the live object carries another digest.
	Mismatch
	// NoDigest: the live object has no digest annotation.
	NoDigest
)

// Result is what Trace found for one query.
type Result struct {
	Query  Query
	Object *provmanifest.Object
	// Steps are the manifest's steps (Object indexes them).
	Steps  []provmanifest.StepInfo
	Status Status
	// Consistent is false when the entry's digest does not follow from the
	// entry itself (the manifest was edited).
	Consistent bool
	// Files says, with a workspace to compare with, which inputs changed
	// since the render (path -> "changed", "missing", "document unchanged").
	Files map[string]string
	// Compared is set when a live object was compared with its rendered
	// object (in Rendered); Drift are the fields that differ.
	Compared bool
	Rendered string
	Drift    []Drift
	// LiveAPIVersion is the live object's API version when it is not the
	// rendered one (kubectl get reads the preferred version).
	LiveAPIVersion string
	// Outputs are, for a live object, what its status reflects (outputs.go).
	Outputs *Outputs
}

// Drifted reports whether the live object was compared and differs.
func (r *Result) Drifted() bool { return len(r.Drift) > 0 }

// Options are where to compare input files, if anywhere, and the rendered
// objects to compare a live object with.
type Options struct {
	FS            filesys.FileSystem
	WorkspaceRoot string // "" skips the comparison of input files
	// SourceRoot is where the workspace's input files are read to name a
	// drifted field's source line (default: WorkspaceRoot, else ".").
	SourceRoot string
	// Rendered are the rendered manifests; nil compares the digest only.
	Rendered *Rendered
	// Record reads a live object's generation record (nil: none is read); OutputPaths are
	// the per-kind output paths (--output-path).
	Record      RecordFunc
	OutputPaths []genrecord.OutputPath
}

// Trace looks q up in m.
func Trace(m *provmanifest.Manifest, q Query, o Options) (*Result, error) {
	obj, err := Find(m, q)
	if err != nil {
		return nil, err
	}
	r := &Result{Query: q, Object: obj, Steps: m.Steps}
	files := m.FileIndex()
	r.Consistent = provmanifest.Digest(obj, m.Steps, files) == obj.InputsDigest
	switch {
	case !q.Live:
		r.Status = NoLiveObject
	case !q.HasDigest:
		r.Status = NoDigest
	case q.LiveDigest == obj.InputsDigest:
		r.Status = Match
	default:
		r.Status = Mismatch
	}
	if o.WorkspaceRoot != "" && o.FS != nil {
		r.Files = compareFiles(obj, m, files, o)
	}
	if q.Live && q.Object != nil && o.Rendered != nil {
		if err := r.compare(m, files, o); err != nil {
			return nil, err
		}
	}
	if q.Live && q.Object != nil {
		if err := r.correlate(m, o); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// maxSourced bounds the source lookups (each walks the inputs) of a live
// object whose every field may have been rewritten.
const maxSourced = 100

// compare finds the drifted fields of the live object and where each was
// written.
func (r *Result) compare(m *provmanifest.Manifest, files map[string]provmanifest.FileEntry, o Options) error {
	rendered := o.Rendered.object(r.Object.ID)
	if rendered == nil {
		return fmt.Errorf("%s is in the provenance manifest but not in the rendered manifests %s: give the manifests of the same render (--manifests)", r.Object.ID, o.Rendered.Name)
	}
	r.Compared, r.Rendered = true, o.Rendered.Name
	if v := yamlnode.Scalar(yamlnode.Field(r.Query.Object, "apiVersion")); v != r.Object.ID.APIVersion {
		r.LiveAPIVersion = v
	}
	r.Drift = Drifted(rendered, r.Query.Object)
	root := o.SourceRoot
	if root == "" {
		root = o.WorkspaceRoot
	}
	src := newSources(o.FS, root, files)
	for i := range r.Drift {
		d := &r.Drift[i]
		if i >= maxSourced {
			d.Source = Source{Step: -1, Note: fmt.Sprintf("not looked up: more than %d fields drifted", maxSourced)}
			continue
		}
		p := d.Path
		if d.Change == rdiff.Added { // an item added to a list the render sets: the list's source
			p = indexItem().ReplaceAllString(p, "")
		}
		var value *yaml.Node
		if path, err := parsePath(p); err == nil {
			value = walk(rendered, path)
		}
		d.Source = src.find(m, r.Object, p, value)
	}
	return nil
}

// LiveQuery reads the object q names from a cluster (get), as the render
// named it: its API version and, unless q names one, its namespace (empty:
// the context's).
func LiveQuery(m *provmanifest.Manifest, q Query, get func(clustersupport.Ref) ([]byte, error)) (Query, error) {
	obj, err := Find(m, q)
	if err != nil {
		return q, err
	}
	ns := q.Namespace
	if ns == "" {
		ns = obj.ID.Namespace
	}
	data, err := get(clustersupport.Ref{APIVersion: obj.ID.APIVersion, Kind: obj.ID.Kind, Namespace: ns, Name: obj.ID.Name})
	if err != nil {
		return q, err
	}
	qs, err := ParseObjects(data)
	if err != nil {
		return q, fmt.Errorf("the API server's %s: %w", obj.ID, err)
	}
	if len(qs) != 1 {
		return q, fmt.Errorf("the API server's %s: %d objects", obj.ID, len(qs))
	}
	return qs[0], nil
}

// compareFiles compares the object's input files with the workspace.
func compareFiles(obj *provmanifest.Object, m *provmanifest.Manifest, files map[string]provmanifest.FileEntry, o Options) map[string]string {
	out := map[string]string{}
	check := func(p string) {
		f, ok := files[p]
		if _, done := out[p]; done || !ok || f.Redacted {
			return
		}
		b, err := o.FS.ReadFile(filepath.Join(o.WorkspaceRoot, filepath.FromSlash(p)))
		switch {
		case err != nil:
			out[p] = "missing"
		case provmanifest.Sha256(b) != f.Sha256:
			out[p] = "changed"
			if obj.Origin != nil && obj.Origin.Path == p && !obj.Origin.Redacted && provmanifest.HasDocument(b, obj.Origin.Sha256) {
				out[p] = "document unchanged"
			}
		default:
			out[p] = "unchanged"
		}
	}
	// A step's inputs are the files it read and the file that configured
	// it: an inline patch, replicas or images live in the kustomization.
	checkStep := func(i int) {
		if s := m.Step(i); s != nil {
			if s.ConfiguredIn != "" {
				check(s.ConfiguredIn)
			}
			for _, f := range s.Files {
				check(f)
			}
		}
	}
	if obj.Origin != nil {
		if obj.Origin.Path != "" {
			check(obj.Origin.Path)
		}
		if g := obj.Origin.Generator; g != nil {
			checkStep(*g)
		}
	}
	for _, i := range obj.Transformers {
		checkStep(i)
	}
	return out
}

// Print writes r for people.
func Print(w io.Writer, r *Result) {
	o := r.Object
	id := o.ID
	name := id.Name
	if id.Namespace != "" {
		name = id.Namespace + "/" + name
	}
	fmt.Fprintf(w, "%s %s (%s)\n", id.Kind, name, id.APIVersion)
	label := func(l string) string {
		if l == "" {
			return ""
		}
		return " (" + l + ")"
	}
	mark := func(p string) string {
		if s, ok := r.Files[p]; ok && s != "unchanged" {
			return " [" + s + " since render]"
		}
		return ""
	}
	step := func(indent string, i int) {
		if i < 0 || i >= len(r.Steps) {
			fmt.Fprintln(w, "? (step index out of range)")
			return
		}
		s := &r.Steps[i]
		what := s.Kind
		if s.Name != "" {
			what += " " + s.Name
		}
		fmt.Fprintf(w, "%s  configured in %s%s\n", what, s.ConfiguredIn, label(s.Label))
		for _, f := range s.Files {
			fmt.Fprintf(w, "%s  reads %s%s\n", indent, f, mark(f))
		}
		for _, img := range s.Images {
			fmt.Fprintf(w, "%s  pins image %s\n", indent, pinned(img))
		}
	}
	if org := o.Origin; org != nil {
		if g := org.Generator; g != nil {
			fmt.Fprint(w, "  origin:        generated by ")
			step("                ", *g)
		} else {
			fmt.Fprintf(w, "  origin:        %s:%d-%d%s%s\n", org.Path, org.StartLine, org.EndLine, label(org.Label), mark(org.Path))
		}
	} else {
		fmt.Fprintln(w, "  origin:        unknown")
	}
	if len(o.Transformers) == 0 {
		fmt.Fprintln(w, "  transformers:  none changed it")
	} else {
		fmt.Fprintln(w, "  transformers:")
		for i := range o.Transformers {
			fmt.Fprintf(w, "    %d. ", i+1)
			step("       ", o.Transformers[i])
		}
	}
	for i, ref := range o.References {
		if i == 0 {
			fmt.Fprintf(w, "  references:    %s\n", ref)
		} else {
			fmt.Fprintf(w, "                 %s\n", ref)
		}
	}
	for _, v := range o.Vars {
		fmt.Fprintf(w, "  var:           $(%s) from %s\n", v.Name, v.Object)
	}
	fmt.Fprintf(w, "  inputs digest: %s\n", o.InputsDigest)
	if !r.Consistent {
		fmt.Fprintln(w, "  warning:       the manifest entry does not hash to its inputs digest (edited manifest?)")
	}
	switch {
	case r.Status == Match && r.Drifted():
		fmt.Fprintf(w, "  live object:   %s: rendered from these inputs, but DRIFTED since: %s\n", r.Query.LiveDigest, fieldCount(len(r.Drift)))
	case r.Status == Match:
		fmt.Fprintf(w, "  live object:   %s: matches, rendered from these inputs\n", r.Query.LiveDigest)
	case r.Status == Mismatch:
		fmt.Fprintf(w, "  live object:   %s: DOES NOT MATCH, not rendered from these inputs\n", r.Query.LiveDigest)
	case r.Status == NoDigest:
		fmt.Fprintf(w, "  live object:   no %s annotation: not rendered with provenance\n", provmanifest.DigestAnnotation)
	}
	if r.Compared {
		printDrift(w, r)
	}
	if r.Outputs != nil && (r.Outputs.asked || len(r.Outputs.Outputs) > 0) {
		printOutputs(w, r)
	}
	if len(r.Files) > 0 {
		var changed []string
		for p, s := range r.Files {
			if s != "unchanged" {
				changed = append(changed, p+" ("+s+")")
			}
		}
		sort.Strings(changed)
		if len(changed) == 0 {
			fmt.Fprintln(w, "  workspace:     its input files are unchanged since the render")
		} else {
			fmt.Fprintf(w, "  workspace:     changed since the render: %s\n", strings.Join(changed, ", "))
		}
	}
}

// UsageError marks a query argument that is neither a file, "-" nor an object ID.
type UsageError struct{ error }

// LoadQueries turns the OBJECT argument of `krm trace` into queries: "-"
// reads objects from stdin, an existing file is read as objects, anything
// else is parsed as KIND[.GROUP]/[NAMESPACE/]NAME.
func LoadQueries(arg string, stdin io.Reader) ([]Query, error) {
	if arg == "-" {
		in, err := yamlread.Read(stdin, "stdin (OBJECT -)")
		if errors.Is(err, yamlread.ErrMalformed) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("reading the object from stdin (OBJECT -): %w", err)
		}
		qs, err := ParseObjects(in)
		if err != nil {
			return nil, fmt.Errorf("stdin (OBJECT -): %w", err)
		}
		return qs, nil
	}
	if st, err := os.Stat(arg); err == nil && st.Mode().IsRegular() {
		in, err := yamlread.File(arg)
		if err == nil {
			var qs []Query
			if qs, err = ParseObjects(in); err == nil {
				return qs, nil
			}
		}
		return nil, fmt.Errorf("%s: %w", arg, err)
	}
	q, err := ParseID(arg)
	if err != nil {
		return nil, UsageError{fmt.Errorf("no file %s, and not an object ID: %w", arg, err)}
	}
	return []Query{q}, nil
}

// LoadManifest reads a provenance manifest file.
func LoadManifest(path string) (*provmanifest.Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := provmanifest.ReadManifest(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// pinned describes an images entry the build appended: the image, what it
// becomes, and where the digest came from.
func pinned(img provmanifest.PinnedImage) string {
	ref := img.NewName
	if ref == "" {
		ref = img.Name
	}
	if img.Digest != "" {
		ref += "@" + img.Digest
	}
	s := img.Name + " to " + ref
	if img.Source != "" {
		s += " (digest from " + img.Source + ")"
	}
	return s
}
