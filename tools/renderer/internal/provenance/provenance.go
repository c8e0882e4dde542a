// Package provenance is the recorder: it records, for every object a build
// prints, where it came from (source file and line span, or the generator
// that made it), the transformers that changed it and the files each of
// them read, and turns that into per-object annotations, an inputs digest
// and a provenance manifest, in the format package provmanifest defines
// (docs/provenance.md). The pipeline uses it only as its observe.Observer;
// readers of a manifest import provmanifest, not this package.
//
// Nothing here runs unless a build asks for provenance. Records are kept
// beside the resources, keyed by the *resource.Resource they describe, never
// in the YAML itself, so the objects transformers see are exactly the ones
// they see without provenance. Which transformer changed which object is
// found by comparing a cheap structural fingerprint of each object before
// and after each step.
package provenance

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/fingerprint"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// Options configure a Tracker.
type Options struct {
	// WorkspaceRoot is the directory recorded paths are relative to
	// (default: the current directory).
	WorkspaceRoot string
	// Labels maps kustomization directories (absolute, or relative to the
	// current directory) to the Bazel labels that build them.
	Labels map[string]string
	// Slow is a test knob: fingerprint every object after every step
	// (ignoring scopes and reports), and set the annotations on the
	// objects rather than have emit splice them in. Results must not
	// change.
	Slow bool
}

// file is one input file, by its path relative to the workspace root.
type file struct {
	Path   string
	Sha256 string // hex; "" if it could not be read
	// Sensitive files fed a Secret: their hash is never published.
	Sensitive bool
}

// step is one generator or transformer as configured by one kustomization.
type step struct {
	Kind string
	// Name is the name of the config object, for plugins configured by one.
	Name string
	// ConfiguredIn is the file holding the configuration (the
	// kustomization file for its own fields, or a plugin config file).
	ConfiguredIn *file
	Label        string
	// ConfigSha256 hashes the configuration the step was given; Redacted
	// hashes it without secret values (SecretGenerator only).
	ConfigSha256   string
	RedactedSha256 string
	// Files are the files it read (patches, generator sources, scripts...).
	Files []*file
	// Generator is set for steps run as generators.
	Generator bool
	// Validator is set for steps run as validators.
	Validator bool
	// Ordinal is the step's position among its kustomization's generators
	// (or transformers, or validators): with Kind, ConfiguredIn and Label
	// it names one configuration entry.
	Ordinal int
	// Chart is the Helm chart a helmCharts step inflated.
	Chart *provmanifest.Chart
	// DataCarrying steps can write arbitrary content (patches, generators,
	// replacements, functions); the others only write names, labels,
	// annotations, namespaces, images and replica counts.
	DataCarrying bool
	// Sensitive steps wrote into a Secret: their configuration and files
	// are never hashed into anything published.
	Sensitive bool
	// Images are the entries of an ImageTagTransformer step that the build
	// pinned (krm --image), with the source of each digest.
	Images []provmanifest.PinnedImage

	key string // entry(), cached
}

func (s *step) markSensitive() {
	if s.Sensitive {
		return
	}
	s.Sensitive = true
	if s.ConfiguredIn != nil {
		s.ConfiguredIn.Sensitive = true
	}
	for _, f := range s.Files {
		f.Sensitive = true
	}
}

// origin is where an object came from: a document of a resource file, or
// a generator.
type origin struct {
	File       *file
	Start, End int
	Label      string
	// DocSha256 hashes the source document (for a Secret, the document
	// with its values blanked).
	DocSha256 string
	Redacted  bool
	// Generator made the object when File is nil.
	Generator *step
}

// record is the provenance of one object. Records are immutable: a change
// makes a new record sharing the old one's history, so copies of a base
// handed to different parents never see each other's steps.
type record struct {
	Origin *origin
	steps  *link
	n      int
}

type link struct {
	step *step
	prev *link
}

func (r *record) with(s *step) *record {
	return &record{Origin: r.Origin, steps: &link{s, r.steps}, n: r.n + 1}
}

// appendSteps appends the transformers that changed the object, in order,
// to dst (linked newest first, they are filled
// in from the back).
func (r *record) appendSteps(dst []*step) []*step {
	dst = slices.Grow(dst, r.n)[:len(dst)+r.n]
	i := len(dst)
	for l := r.steps; l != nil; l = l.prev {
		i--
		dst[i] = l.step
	}
	return dst
}

type varUse struct {
	name     string
	source   *resource.Resource
	sha256   string
	redacted bool
}

// Tracker holds the provenance of one build. It is the build's
// observe.Observer (observer.go).
type Tracker struct {
	fs      filesys.FileSystem
	root    string
	top     Top
	slow    bool
	final   *final
	labels  map[string]string
	files   map[string]*file
	records map[*resource.Resource]*record
	fps     map[*resource.Resource]uint64
	refs    map[*resource.Resource][]*resource.Resource
	vars    map[*resource.Resource][]varUse
	// pinned are the images the build appended to the `images` of
	// kustomization files, by file (workspace-relative).
	pinned map[string][]provmanifest.PinnedImage
}

// Pinned records the images the build appended to the kustomization
// file kustFile (absolute): the ImageTagTransformer step it configures
// lists them.
func (t *Tracker) Pinned(kustFile string, imgs []observe.PinnedImage) {
	if t.pinned == nil {
		t.pinned = map[string][]provmanifest.PinnedImage{}
	}
	out := make([]provmanifest.PinnedImage, len(imgs))
	for i, img := range imgs {
		out[i] = provmanifest.PinnedImage(img)
	}
	t.pinned[t.rel(kustFile)] = out
}

// New returns a tracker of the build of top, reading files (for hashes)
// from fs. top's label applies unless o.Labels names its directory.
func New(fs filesys.FileSystem, o Options, top Top) (*Tracker, error) {
	root := o.WorkspaceRoot
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	t := &Tracker{
		fs:      fs,
		root:    filepath.Clean(abs),
		top:     top,
		slow:    o.Slow,
		labels:  map[string]string{},
		files:   map[string]*file{},
		records: map[*resource.Resource]*record{},
		fps:     map[*resource.Resource]uint64{},
		refs:    map[*resource.Resource][]*resource.Resource{},
		vars:    map[*resource.Resource][]varUse{},
	}
	for dir, label := range o.Labels {
		if err := t.setLabel(dir, label); err != nil {
			return nil, err
		}
	}
	if top.Label != "" {
		if err := t.setDefaultLabel(top.Dir, top.Label); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// setLabel records the label of the kustomization in dir.
func (t *Tracker) setLabel(dir, label string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("label map %s: %w", dir, err)
	}
	t.labels[filepath.Clean(abs)] = label
	return nil
}

// setDefaultLabel records label for dir unless the label map names it.
func (t *Tracker) setDefaultLabel(dir, label string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if _, ok := t.labels[filepath.Clean(abs)]; !ok {
		t.labels[filepath.Clean(abs)] = label
	}
	return nil
}

// label is the label of the kustomization in the absolute directory dir.
func (t *Tracker) label(dir string) string { return t.labels[filepath.Clean(dir)] }

// rel is abs relative to the workspace root, with forward slashes.
func (t *Tracker) rel(abs string) string {
	r, err := filepath.Rel(t.root, abs)
	if err != nil {
		return filepath.ToSlash(filepath.Base(abs))
	}
	return filepath.ToSlash(r)
}

// file returns the file at the absolute path abs with the given content.
func (t *Tracker) file(abs string, content []byte) *file {
	p := t.rel(abs)
	if f, ok := t.files[p]; ok {
		if f.Sha256 == "" && content != nil {
			f.Sha256 = sha(content)
		}
		return f
	}
	f := &file{Path: p}
	if content != nil {
		f.Sha256 = sha(content)
	}
	t.files[p] = f
	return f
}

// fileNamed returns the file at abs, reading it if it is new.
func (t *Tracker) fileNamed(abs string) *file {
	if f, ok := t.files[t.rel(abs)]; ok && f.Sha256 != "" {
		return f
	}
	b, err := t.fs.ReadFile(abs)
	if err != nil {
		return t.file(abs, nil)
	}
	return t.file(abs, b)
}

// newStep returns a step configured in configuredIn by the kustomization
// labelled label, the ordinal-th of its generators (generator set) or
// transformers. builtin says whether kind names a builtin plugin.
func (t *Tracker) newStep(kind, name string, configuredIn *file, label string, ordinal int, config []byte, builtin, generator bool) *step {
	s := &step{
		Kind: kind, Name: name, ConfiguredIn: configuredIn, Label: label, Ordinal: ordinal,
		ConfigSha256: sha(config), Generator: generator,
		DataCarrying: generator || !builtin || !metadataOnly[kind],
	}
	if kind == "ImageTagTransformer" && builtin && configuredIn != nil {
		s.Images = t.pinned[configuredIn.Path]
	}
	return s
}

// entry names the configuration entry a step comes from: copies of a step
// (a base read from two snapshots, a component applied twice) share it.
func (s *step) entry() string {
	if s.key != "" {
		return s.key
	}
	in := ""
	if s.ConfiguredIn != nil {
		in = s.ConfiguredIn.Path
	}
	s.key = fmt.Sprintf("%t\x00%t\x00%d\x00%s\x00%s\x00%s\x00%s", s.Generator, s.Validator, s.Ordinal, s.Kind, s.Name, in, s.Label)
	return s.key
}

// metadataOnly are the builtin transformers that write only names,
// namespaces, labels, annotations, images and replica counts.
var metadataOnly = map[string]bool{
	"NamespaceTransformer":    true,
	"PrefixTransformer":       true,
	"SuffixTransformer":       true,
	"PrefixSuffixTransformer": true,
	"LabelTransformer":        true,
	"AnnotationsTransformer":  true,
	"ImageTagTransformer":     true,
	"ReplicaCountTransformer": true,
	"HashTransformer":         true,
}

// setRedacted makes s a step whose configuration holds secret values:
// redacted is its configuration without them.
func (s *step) setRedacted(redacted []byte) {
	s.RedactedSha256 = sha(redacted)
	s.markSensitive()
}

// addReads adds the files a step read.
func (t *Tracker) addReads(s *step, reads []load.Read) {
	for _, r := range reads {
		var f *file
		if r.Loaded {
			f = t.file(r.Path, r.Content)
		} else {
			f = t.fileNamed(r.Path)
		}
		dup := false
		for _, g := range s.Files {
			dup = dup || g == f
		}
		if !dup {
			s.Files = append(s.Files, f)
			if s.Sensitive {
				f.Sensitive = true
			}
		}
	}
}

// addResources records res, just read from the file at the absolute path
// abs with content, as listed by the kustomization labelled label.
func (t *Tracker) addResources(res []*resource.Resource, abs string, content []byte, label string) {
	f := t.file(abs, content)
	docs, ok := provmanifest.Documents(content)
	var at []*provmanifest.Document
	if ok {
		at = place(res, docs)
	}
	lines := 1
	if at == nil {
		lines = countLines(content)
	}
	for i, r := range res {
		o := &origin{File: f, Label: label}
		if at != nil {
			d := at[i]
			o.Start, o.End = d.Start, d.End
			if d.Items == 1 && !isSecret(r) {
				o.DocSha256 = sha(d.Text)
			} else {
				o.DocSha256 = nodeSha(r)
			}
		} else {
			o.Start, o.End = 1, lines
			o.DocSha256 = nodeSha(r)
		}
		if isSecret(r) {
			o.Redacted = true
			f.Sensitive = true
		}
		t.records[r] = &record{Origin: o}
	}
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// originFile returns the origin file of r, or nil (for plugin configs).
func (t *Tracker) originFile(r *resource.Resource) *file {
	if rec := t.records[r]; rec != nil && rec.Origin != nil {
		return rec.Origin.File
	}
	return nil
}

// copyRecords gives each resource of to the record of the resource at the
// same index of from (to is a deep copy of from).
func (t *Tracker) copyRecords(from, to []*resource.Resource) {
	for i, r := range from {
		if i >= len(to) {
			return
		}
		if rec, ok := t.records[r]; ok {
			t.records[to[i]] = rec
		}
		if f, ok := t.fps[r]; ok {
			t.fps[to[i]] = f
		}
	}
}

// before returns the resources of m before a step that can change any of
// them, each fingerprinted.
func (t *Tracker) before(m resmap.ResMap) []*resource.Resource {
	res := m.Resources()
	t.fingerprintStale(res)
	return res
}

// beforeScoped is before for a step that can change in place only the
// resources in scope (nil for a step that reports its changes, or one that
// changes none): only those are fingerprinted.
func (t *Tracker) beforeScoped(m resmap.ResMap, scope []*resource.Resource) []*resource.Resource {
	if t.slow {
		return t.before(m)
	}
	t.fingerprintStale(scope)
	return m.Resources()
}

// fingerprintStale fingerprints those of res whose fingerprint is not known.
func (t *Tracker) fingerprintStale(res []*resource.Resource) {
	var walk []*resource.Resource
	for _, r := range res {
		if _, ok := t.fps[r]; !ok {
			walk = append(walk, r)
		}
	}
	for i, sum := range fingerprints(walk) {
		t.fps[walk[i]] = sum
	}
}

// after records step s on every resource of m it created or changed since
// t.before returned before.
func (t *Tracker) after(m resmap.ResMap, before []*resource.Resource, s *step) {
	t.compare(m, before, s, nil, false)
}

// afterScoped is after for a step that can have changed in place only the
// resources in scope (others it can only have added or removed): only
// those are fingerprinted.
func (t *Tracker) afterScoped(m resmap.ResMap, before []*resource.Resource, s *step, scope []*resource.Resource) {
	t.compare(m, before, s, scope, !t.slow)
}

// afterReported is after for a step that reported exactly the resources
// whose content it changed: nothing is fingerprinted, and theirs are taken
// again only when a later step needs them.
func (t *Tracker) afterReported(m resmap.ResMap, before []*resource.Resource, s *step, changed []*resource.Resource) {
	if t.slow {
		t.compare(m, before, s, nil, false)
		return
	}
	for _, r := range changed {
		delete(t.fps, r)
		t.changed(r, s)
	}
	t.moved(current(m), before, s)
}

// current are the resources of m now, for reading at once.
func current(m resmap.ResMap) []*resource.Resource {
	if v, ok := m.(interface{ View() []*resource.Resource }); ok {
		return v.View()
	}
	return m.Resources()
}

// fingerprints fingerprints res, in parallel when there are many.
func fingerprints(res []*resource.Resource) []uint64 {
	out := make([]uint64, len(res))
	parallel(len(res), func(i int) { out[i] = fingerprint.Of(res[i].RNode.YNode()) })
	return out
}

func (t *Tracker) compare(m resmap.ResMap, before []*resource.Resource, s *step, scope []*resource.Resource, scoped bool) {
	after := current(m)
	t.moved(after, before, s)
	// Fingerprint what the step can have changed and whose fingerprint
	// before it is known: its scope, or every resource (moved forgot those
	// that left m; new ones are fingerprinted when a step needs them).
	walk := after
	if scoped {
		walk = scope
	}
	var had []*resource.Resource
	var was []uint64
	for _, r := range walk {
		if sum, ok := t.fps[r]; ok {
			had = append(had, r)
			was = append(was, sum)
		}
	}
	for i, sum := range fingerprints(had) {
		if was[i] != sum {
			t.changed(had[i], s)
		}
		t.fps[had[i]] = sum
	}
}

// moved records the resources that entered m during step s (after lists
// them now, before as they were): new ones, and those that replaced one
// with the same ID. It forgets the fingerprints of those that left.
func (t *Tracker) moved(after, before []*resource.Resource, s *step) {
	if slices.Equal(after, before) {
		return // what most steps leave, found without hashing
	}
	if len(after) > len(before) && slices.Equal(after[:len(before)], before) {
		// Only added (a generator's new objects): none left, none replaced.
		for _, r := range after[len(before):] {
			t.entered(r, nil, s)
		}
		return
	}
	present := make(map[*resource.Resource]bool, len(after))
	for _, r := range after {
		present[r] = true
	}
	// Objects that left m: deleted, or replaced by a fresh object with the
	// same ID (a generator merging into it, a function rewriting it).
	was := make(map[*resource.Resource]bool, len(before))
	gone := map[resourcemap.IDKey]*resource.Resource{}
	for _, r := range before {
		was[r] = true
		if !present[r] {
			delete(t.fps, r)
			k := resourcemap.KeyOf(resourcemap.CurID(r))
			if _, dup := gone[k]; !dup {
				gone[k] = r
			}
		}
	}
	for _, r := range after {
		if !was[r] {
			t.entered(r, gone, s)
		}
	}
}

// entered records r, which entered m during step s: it replaced the object
// with its ID in gone (which is forgotten), or s made it.
func (t *Tracker) entered(r *resource.Resource, gone map[resourcemap.IDKey]*resource.Resource, s *step) {
	delete(t.fps, r)
	if len(gone) > 0 {
		k := resourcemap.KeyOf(resourcemap.CurID(r))
		if old, ok := gone[k]; ok && t.records[old] != nil {
			delete(gone, k)
			t.records[r] = t.records[old]
			t.changed(r, s)
			return
		}
	}
	if rec := t.records[r]; rec != nil {
		return // a resource added with its record already (not expected)
	}
	t.records[r] = &record{Origin: &origin{Generator: s, Label: s.Label}}
	if isSecret(r) && s.DataCarrying {
		s.markSensitive()
	}
}

func (t *Tracker) changed(r *resource.Resource, s *step) {
	rec := t.records[r]
	if rec == nil {
		rec = &record{}
	}
	t.records[r] = rec.with(s)
	if s.DataCarrying && isSecret(r) {
		s.markSensitive()
	}
}

// Referred records that a name reference in referrer resolved to referral.
func (t *Tracker) Referred(referrer, referral *resource.Resource) {
	for _, r := range t.refs[referrer] {
		if r == referral {
			return
		}
	}
	t.refs[referrer] = append(t.refs[referrer], referral)
}

// VarUsed records that $(name) in r was replaced by value, read from source.
func (t *Tracker) VarUsed(r *resource.Resource, name string, source *resource.Resource, value interface{}) {
	for _, v := range t.vars[r] {
		if v.name == name {
			return
		}
	}
	u := varUse{name: name, source: source}
	if source == nil || isSecret(source) {
		u.redacted = true
	} else {
		u.sha256 = shaString(fmt.Sprintf("%T:%v", value, value))
	}
	t.vars[r] = append(t.vars[r], u)
	sort.Slice(t.vars[r], func(i, j int) bool { return t.vars[r][i].name < t.vars[r][j].name })
}
