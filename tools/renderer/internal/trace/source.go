package trace

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

// Source is where a rendered field's value was written.
type Source struct {
	// Path is a workspace path; StartLine-EndLine the lines (0: none found, EndLine ==
	// StartLine for one line).
	Path               string
	StartLine, EndLine int
	// Step indexes the manifest's steps when a generator or transformer wrote the value
	// there (a patch, the kustomization's replicas or images), -1 for the object's own
	// source document.
	Step int
	// Note qualifies it: the document does not write the field, the file changed since the
	// render, an image pinned by the build.
	Note string
}

// sources reads the workspace's input files to find where a field was written.
type sources struct {
	fs    filesys.FileSystem
	root  string
	files map[string]provmanifest.FileEntry
	docs  map[string][]*yaml.Node // nil: unreadable
	data  map[string][]byte
}

func newSources(fs filesys.FileSystem, root string, files map[string]provmanifest.FileEntry) *sources {
	if root == "" {
		root = "."
	}
	return &sources{fs: fs, root: root, files: files, docs: map[string][]*yaml.Node{}, data: map[string][]byte{}}
}

// read returns a workspace file's bytes (nil when unreadable or over yamlread's bound).
func (s *sources) read(p string) []byte {
	if b, ok := s.data[p]; ok {
		return b
	}
	var b []byte
	if s.fs != nil {
		if d, err := s.fs.ReadFile(filepath.Join(s.root, filepath.FromSlash(p))); err == nil && len(d) <= yamlread.MaxFileBytes {
			b = d
		}
	}
	s.data[p] = b
	return b
}

// documents parses a file into its documents, their node lines those of the file.
func (s *sources) documents(p string) []*yaml.Node {
	if d, ok := s.docs[p]; ok {
		return d
	}
	var docs []*yaml.Node
	if b := s.read(p); b != nil {
		docs = parseDocs(b, 0)
	}
	s.docs[p] = docs
	return docs
}

// parseDocs splits YAML where kustomize does (yamlnode.NextSeparator) and parses each document
// within yamlread's bounds (no aliases), shifting lines by offset plus the document's first
// line; unparseable documents are left out.
func parseDocs(b []byte, offset int) []*yaml.Node {
	var docs []*yaml.Node
	for prev, line := 0, 0; ; {
		end, next := yamlnode.NextSeparator(b, prev)
		if nodes, err := yamlread.Nodes(b[prev:end]); err == nil {
			for _, n := range nodes {
				shift(n, offset+line)
				docs = append(docs, n)
			}
		}
		if next < 0 {
			return docs
		}
		line += bytes.Count(b[prev:next], []byte("\n"))
		prev = next
	}
}

func shift(n *yaml.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		shift(c, by)
	}
}

// changed reports whether a file differs from what the render read.
func (s *sources) changed(p string) bool {
	f, ok := s.files[p]
	b := s.read(p)
	return ok && !f.Redacted && b != nil && provmanifest.Sha256(b) != f.Sha256
}

// find says where the rendered value of path (rendered, in the rendered object) was
// written: the last transformer that changed the object and writes it in a file it read or
// in its kustomization (patches, replicas, images, namespace, name affixes, labels and
// annotations), else the generator's configuration or the object's source document.
func (s *sources) find(m *provmanifest.Manifest, obj *provmanifest.Object, p string, rendered *yaml.Node) Source {
	path, err := parsePath(p)
	if err != nil {
		return Source{Step: -1}
	}
	for i := len(obj.Transformers) - 1; i >= 0; i-- {
		if src, ok := s.inStep(m, obj.Transformers[i], path, rendered); ok {
			return s.mark(src)
		}
	}
	org := obj.Origin
	if org == nil {
		return Source{Step: -1}
	}
	if g := org.Generator; g != nil {
		if src, ok := s.inGenerator(m, *g, path); ok {
			return s.mark(src)
		}
		if st := m.Step(*g); st != nil {
			return s.mark(Source{Path: st.ConfiguredIn, Step: *g, Note: "generated; the field is not written in its configuration"})
		}
		return Source{Step: -1}
	}
	src := Source{Path: org.Path, StartLine: org.StartLine, EndLine: org.EndLine, Step: -1}
	if s.read(org.Path) == nil {
		src.Note = "the object's document; not read: no such file under " + s.root + " (--workspace-root)"
		return src
	}
	if doc := s.originDoc(org); doc != nil {
		if n := walk(doc, path); n != nil {
			src.StartLine, src.EndLine = lineSpan(n)
			if rendered != nil && !sameNode(n, rendered) {
				src.Note = "written there as " + short(n) + ", a transformer changed it"
			}
			return s.mark(src)
		}
	}
	src.Note = "the object's document; the field is not written there"
	return s.mark(src)
}

func (s *sources) mark(src Source) Source {
	if src.Path != "" && s.changed(src.Path) {
		if src.Note != "" {
			src.Note += "; "
		}
		src.Note += "the file changed since the render"
	}
	return src
}

// originDoc is the object's document: the mapping of the file's documents (or of a List's
// items) that starts within the origin's span.
func (s *sources) originDoc(org *provmanifest.OriginInfo) *yaml.Node {
	for _, d := range s.documents(org.Path) {
		cands := []*yaml.Node{d}
		if items := yamlnode.Field(d, "items"); items != nil && items.Kind == yaml.SequenceNode {
			cands = append(cands, items.Content...)
		}
		for _, c := range cands {
			if c.Kind == yaml.MappingNode && c.Line >= org.StartLine && c.Line <= org.EndLine && yamlnode.Field(c, "kind") != nil {
				return c
			}
		}
	}
	return nil
}

// inStep looks for path in what step i read and configured.
func (s *sources) inStep(m *provmanifest.Manifest, i int, path []step, rendered *yaml.Node) (Source, bool) {
	st := m.Step(i)
	if st == nil {
		return Source{}, false
	}
	if src, ok := s.inKustomizationField(st, i, path, rendered); ok {
		return src, true
	}
	for _, f := range st.Files {
		for _, d := range s.documents(f) {
			if n := walk(d, path); n != nil && (rendered == nil || sameNode(n, rendered)) {
				a, b := lineSpan(n)
				return Source{Path: f, StartLine: a, EndLine: b, Step: i}, true
			}
		}
	}
	// Inline patches: strings of the kustomization's patches (a patch step
	// that read no file).
	if !strings.Contains(st.Kind, "Patch") || len(st.Files) > 0 {
		return Source{}, false
	}
	for _, d := range s.documents(st.ConfiguredIn) {
		for _, field := range []string{"patches", "patchesStrategicMerge"} {
			list := yamlnode.Field(d, field)
			if list == nil || list.Kind != yaml.SequenceNode {
				continue
			}
			for _, it := range list.Content {
				text := it
				if it.Kind == yaml.MappingNode {
					text = yamlnode.Field(it, "patch")
				}
				if text == nil || text.Kind != yaml.ScalarNode || !strings.Contains(text.Value, "\n") {
					continue
				}
				// A block scalar's text starts on the line after its indicator.
				for _, pd := range parseDocs([]byte(text.Value), text.Line) {
					if n := walk(pd, path); n != nil && (rendered == nil || sameNode(n, rendered)) {
						a, b := lineSpan(n)
						return Source{Path: st.ConfiguredIn, StartLine: a, EndLine: b, Step: i}, true
					}
				}
			}
		}
	}
	return Source{}, false
}

// inKustomizationField finds the kustomization field a builtin transformer was configured
// by, for the fields it writes.
func (s *sources) inKustomizationField(st *provmanifest.StepInfo, i int, path []step, rendered *yaml.Node) (Source, bool) {
	last, parent := "", ""
	if len(path) > 0 && !path[len(path)-1].item {
		last = path[len(path)-1].key
	}
	if len(path) > 1 && !path[len(path)-2].item {
		parent = path[len(path)-2].key
	}
	at := func(n *yaml.Node) (Source, bool) {
		if n == nil {
			return Source{}, false
		}
		a, b := lineSpan(n)
		return Source{Path: st.ConfiguredIn, StartLine: a, EndLine: b, Step: i}, true
	}
	value := ""
	if rendered != nil && rendered.Kind == yaml.ScalarNode {
		value = rendered.Value
	}
	for _, d := range s.documents(st.ConfiguredIn) {
		switch {
		case st.Kind == "ReplicaCountTransformer" && pathIs(path, "spec", "replicas"):
			if n := listItem(yamlnode.Field(d, "replicas"), func(it *yaml.Node) bool { return yamlnode.Scalar(yamlnode.Field(it, "count")) == value }); n != nil {
				return at(n)
			}
		case st.Kind == "ImageTagTransformer" && last == "image":
			for _, img := range st.Images {
				if imageRepo(value) == imageRepo(firstOf(img.NewName, img.Name)) {
					return Source{Path: st.ConfiguredIn, Step: i, Note: "an image pinned by the build" + from(img.Source)}, true
				}
			}
			if n := listItem(yamlnode.Field(d, "images"), func(it *yaml.Node) bool {
				return imageRepo(value) == imageRepo(firstOf(yamlnode.Scalar(yamlnode.Field(it, "newName")), yamlnode.Scalar(yamlnode.Field(it, "name"))))
			}); n != nil {
				return at(n)
			}
		case st.Kind == "NamespaceTransformer" && pathIs(path, "metadata", "namespace"):
			return at(yamlnode.Field(d, "namespace"))
		case st.Kind == "PrefixTransformer" && pathIs(path, "metadata", "name"):
			return at(yamlnode.Field(d, "namePrefix"))
		case st.Kind == "SuffixTransformer" && pathIs(path, "metadata", "name"):
			return at(yamlnode.Field(d, "nameSuffix"))
		case st.Kind == "LabelTransformer" && (parent == "labels" || parent == "matchLabels" || parent == "selector"):
			if n := yamlnode.Field(yamlnode.Field(d, "commonLabels"), last); n != nil {
				return at(n)
			}
			if n := listItem(yamlnode.Field(d, "labels"), func(it *yaml.Node) bool { return yamlnode.Field(yamlnode.Field(it, "pairs"), last) != nil }); n != nil {
				return at(yamlnode.Field(yamlnode.Field(n, "pairs"), last))
			}
		case st.Kind == "AnnotationsTransformer" && parent == "annotations":
			return at(yamlnode.Field(yamlnode.Field(d, "commonAnnotations"), last))
		}
	}
	return Source{}, false
}

// inGenerator finds a generated ConfigMap's or Secret's key in its generator's literals or
// env files.
func (s *sources) inGenerator(m *provmanifest.Manifest, g int, path []step) (Source, bool) {
	st := m.Step(g)
	if st == nil || len(path) != 2 || (path[0].key != "data" && path[0].key != "binaryData") {
		return Source{}, false
	}
	key := path[1].key
	for _, d := range s.documents(st.ConfiguredIn) {
		for _, field := range []string{"configMapGenerator", "secretGenerator"} {
			gens := yamlnode.Field(d, field)
			if gens == nil || gens.Kind != yaml.SequenceNode {
				continue
			}
			for _, gen := range gens.Content {
				if lit := listItem(yamlnode.Field(gen, "literals"), func(it *yaml.Node) bool {
					return strings.HasPrefix(it.Value, key+"=")
				}); lit != nil {
					return Source{Path: st.ConfiguredIn, StartLine: lit.Line, EndLine: lit.Line, Step: g}, true
				}
			}
		}
	}
	for _, f := range st.Files {
		if filepath.Base(f) == key {
			return Source{Path: f, Step: g}, true
		}
		for n, l := range strings.Split(string(s.read(f)), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), key+"=") {
				return Source{Path: f, StartLine: n + 1, EndLine: n + 1, Step: g}, true
			}
		}
	}
	return Source{}, false
}

func pathIs(path []step, keys ...string) bool {
	if len(path) != len(keys) {
		return false
	}
	for i, k := range keys {
		if path[i].item || path[i].key != k {
			return false
		}
	}
	return true
}

func listItem(seq *yaml.Node, match func(*yaml.Node) bool) *yaml.Node {
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return nil
	}
	for _, it := range seq.Content {
		if match(it) {
			return it
		}
	}
	return nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func from(label string) string {
	if label == "" {
		return ""
	}
	return " (digest from " + label + ")"
}

// imageRepo is an image reference without its tag and digest.
func imageRepo(ref string) string {
	ref, _, _ = strings.Cut(ref, "@")
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref = ref[:i]
	}
	return ref
}

// lineSpan is a node's first and last line.
func lineSpan(n *yaml.Node) (int, int) {
	last := n.Line
	var walk func(*yaml.Node)
	walk = func(x *yaml.Node) {
		if x.Line > last {
			last = x.Line
		}
		for _, c := range x.Content {
			walk(c)
		}
	}
	walk(n)
	if n.Kind == yaml.ScalarNode && (n.Style&(yaml.LiteralStyle|yaml.FoldedStyle)) != 0 {
		last += strings.Count(strings.TrimRight(n.Value, "\n"), "\n") + 1
	}
	return n.Line, last
}

// sameNode compares a source node with the rendered value: no field differs (as rdiff
// compares, scalars by text).
func sameNode(a, b *yaml.Node) bool {
	if a.Kind == yaml.ScalarNode && b.Kind == yaml.ScalarNode {
		return a.Value == b.Value
	}
	wrap := func(n *yaml.Node) *yaml.Node {
		return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "v"}, n}}
	}
	return len(rdiff.Fields(wrap(a), wrap(b), false)) == 0
}

// short is a node's value for a note: a scalar's text (a string quoted), else its kind.
func short(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.SequenceNode:
		return "another list"
	case n.Kind != yaml.ScalarNode:
		return "another mapping"
	case n.ShortTag() == yaml.NodeTagString:
		return strconv.Quote(n.Value)
	}
	return n.Value
}
