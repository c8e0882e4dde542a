// Package validate checks Kubernetes objects against OpenAPI v3 structural schemas, as
// `krm validate` does: built-in kinds against the schemas pinned in package schemas, custom
// resources against the CRDs found among the objects or given apart. Unknown and duplicate
// fields are errors, and so is a kind with no schema unless it is allowed.
//
// It checks what schemas say (types, formats, enums, required fields, unknown fields, the
// x-kubernetes-* extensions). CRDs and custom resources are also checked with the API server's
// own code where this krm links it (package crdsupport: value validations, list types, CEL
// rules; server.go). The rules the API server writes in Go for built-in kinds (name formats,
// selectors, containers, a Service's ports) are checked as package nativecheck writes them
// again (native.go); immutable fields and what needs the cluster are out of its scope
// (docs/cli.md, "krm validate").
// Errors never print a Secret value (package secretdata): "(Secret value hidden)" stands for it.
package validate

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/crdsupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/nativecheck"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/policysupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/secretdata"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/validate/fieldsource"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/validate/schemas"
)

// ErrUnknownVersion is returned by New for a Kubernetes version with no pinned schemas.
var ErrUnknownVersion = errors.New("no schemas for this Kubernetes version")

// GroupKind names a kind; Group is "" for the core group.
type GroupKind struct{ Group, Kind string }

func (gk GroupKind) String() string { return gk.Group + "/" + gk.Kind }

// ParseGroupKind parses GROUP/KIND ("apps/Deployment"; "/ConfigMap" or "ConfigMap" for the
// core group; KIND "*" for every kind of the group).
func ParseGroupKind(s string) (GroupKind, error) {
	g, k, ok := strings.Cut(s, "/")
	if !ok {
		g, k = "", s
	}
	if k == "" || strings.Contains(k, "/") {
		return GroupKind{}, fmt.Errorf("%q: want GROUP/KIND (apps/Deployment, /ConfigMap, example.com/*)", s)
	}
	return GroupKind{g, k}, nil
}

// Options configure a Validator.
type Options struct {
	// KubernetesVersion names the pinned schemas of the built-in kinds (schemas.Default if "").
	KubernetesVersion string
	// AllowKinds are kinds that are valid without a schema (Kind "*": the whole group).
	AllowKinds []GroupKind
	// Sources, when set, finds the source line of each invalid field from the objects'
	// provenance manifest (krm build --provenance-manifest).
	Sources *fieldsource.Finder
	// PolicyFiles are files or directories of ValidatingAdmissionPolicies, their bindings and
	// params (krm validate --policy); NamespaceLabels the labels of namespaces that are not
	// among the objects (--namespace-labels). ValidateFiles evaluates the policies (policy.go).
	PolicyFiles     []string
	NamespaceLabels map[string]map[string]string
	// Stdin is what the path "-" of ValidateFiles reads (named StdinName in errors); nil:
	// "-" is an error.
	Stdin io.Reader
}

// Validator checks objects. Make one with New, then call ValidateFiles, or add CRDs with
// AddCRDs and call Validate.
type Validator struct {
	version string
	allow   map[GroupKind]bool
	builtin map[string]map[string]*Schema // group-version → kind → schema, loaded on demand
	meta    *Schema                       // ObjectMeta, for custom resources and embedded objects
	crds    map[GroupKind]*crd
	// interned holds one Schema of each content among the CRDs' (converter.interned).
	interned map[string]*Schema
	sources  *fieldsource.Finder
	stdin    io.Reader
	// trace, when set (by tests), sees each object ValidateFiles reads, with the number of
	// objects validated before it.
	trace func(o Object, validated int)

	// newChecker makes the checker of the API server's code (crdsupport.New; tests replace
	// it), at the first CRD; replayable is its argument (ValidateFiles: no pipe among the
	// inputs).
	newChecker  func(replayable bool) (crdsupport.Checker, error)
	replayable  bool
	checkerMade bool
	checker     crdsupport.Checker
	checkerErr  error
	// crdErrs are the server's errors of the CRDs among the objects ValidateFiles reads, from
	// when they are learnt until they are validated; checked the versions of each CRD that
	// objects were validated against (for Notes).
	crdErrs map[*yaml.Node][]crdsupport.Error
	checked map[*crd]map[string]bool

	// opts are the options New was given; policies what ValidateFiles gathers for the
	// policy checks, with the checker made at the first policy (newPolicyChecker:
	// policysupport.New; tests replace it).
	opts              Options
	policies          policies
	newPolicyChecker  func() (policysupport.Checker, error)
	policyCheckerMade bool
	policyCheck       policysupport.Checker
	policyCheckErr    error
	// native checks the built-in kinds (native.go), made at the first.
	native *nativecheck.Checker
}

// crd is the schemas of one CRD's versions.
type crd struct {
	source       string // where it was read, for messages
	versions     map[string]*Schema
	versionNames []string // served, in the CRD's order
	// check is the API server's view of the CRD (nil: no checker, or the checker could not
	// read it), notes its unchecked rules per version.
	check crdsupport.CRD
	notes map[string][]Error
}

// New returns a Validator of the built-in kinds of opts.KubernetesVersion.
func New(opts Options) (*Validator, error) {
	v := &Validator{version: opts.KubernetesVersion, allow: map[GroupKind]bool{},
		builtin: map[string]map[string]*Schema{}, crds: map[GroupKind]*crd{}, interned: map[string]*Schema{},
		sources: opts.Sources, stdin: opts.Stdin, newChecker: crdsupport.New, replayable: true, opts: opts, newPolicyChecker: policysupport.New,
		crdErrs: map[*yaml.Node][]crdsupport.Error{}, checked: map[*crd]map[string]bool{}}
	if v.version == "" {
		v.version = schemas.Default
	}
	if !schemas.Has(v.version) {
		return nil, fmt.Errorf("%w: %s (pinned: %s)", ErrUnknownVersion, v.version, strings.Join(schemas.Versions(), ", "))
	}
	for _, gk := range opts.AllowKinds {
		v.allow[gk] = true
	}
	core, err := v.groupVersion("v1")
	if err != nil {
		return nil, err
	}
	v.meta = core["\x00ObjectMeta"]
	if v.meta == nil {
		return nil, fmt.Errorf("schemas %s: no ObjectMeta in api/v1", v.version)
	}
	return v, nil
}

// groupVersion returns the built-in kinds of a group-version (nil when it has none), reading
// its document the first time.
func (v *Validator) groupVersion(gv string) (map[string]*Schema, error) {
	if kinds, ok := v.builtin[gv]; ok {
		return kinds, nil
	}
	doc, err := schemas.Document(v.version, gv)
	if errors.Is(err, fs.ErrNotExist) {
		v.builtin[gv] = nil
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var d struct {
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("schemas %s %s: %w", v.version, gv, err)
	}
	c := &converter{builtin: true, refs: map[string]*Schema{}}
	names := make([]string, 0, len(d.Components.Schemas))
	for name := range d.Components.Schemas {
		names = append(names, name)
	}
	sort.Strings(names)
	kinds := map[string]*Schema{}
	for _, name := range names {
		m := d.Components.Schemas[name]
		s, err := c.convert(m)
		if err != nil {
			return nil, fmt.Errorf("schemas %s %s: %s: %w", v.version, gv, name, err)
		}
		if name == "io.k8s.apimachinery.pkg.api.resource.Quantity" {
			s.Format = "quantity"
		}
		c.refs[name] = s
		if strings.HasSuffix(name, ".meta.v1.ObjectMeta") {
			kinds["\x00ObjectMeta"] = s
		}
		for _, g := range asSlice(m["x-kubernetes-group-version-kind"]) {
			g, _ := g.(map[string]any)
			group, _ := g["group"].(string)
			version, _ := g["version"].(string)
			if joinGV(group, version) == gv {
				kinds[fmt.Sprint(g["kind"])] = s
			}
		}
	}
	if err := c.resolve(); err != nil {
		return nil, fmt.Errorf("schemas %s %s: %w", v.version, gv, err)
	}
	v.builtin[gv] = kinds
	return kinds, nil
}

func joinGV(group, version string) string {
	if group == "" {
		return version
	}
	return group + "/" + version
}

// Object is one object to check, with where it was read.
type Object struct {
	Node *yaml.Node // a mapping
	File string
	doc  int // the number of its document in File, from 1 (0: not known)
}

// Error is one reason an object is invalid.
type Error struct {
	File   string // the file the object was read from
	Line   int    // the line of the field in File (0: unknown)
	Object string // KIND/NAMESPACE/NAME or KIND/NAME
	Field  string // the field path, as the API server writes it: spec.containers[0].name
	Msg    string // what was expected
	// Origin is the source file the object came from, and Changed the transformers that last
	// changed it, from its provenance annotations (krm build --provenance); "" without.
	Origin, Changed string
	// Source is where the field was written, found from the provenance manifest; File "" when
	// there is none.
	Source fieldsource.Location
}

func (e Error) Error() string {
	var b strings.Builder
	if e.Source.File != "" {
		// The line to edit first, then where it was rendered.
		fmt.Fprintf(&b, "%s: %s", e.Source, e.Object)
		if e.Field != "" {
			b.WriteString(": " + e.Field)
		}
		b.WriteString(": " + e.Msg + " (rendered at " + e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		if e.Source.Note != "" {
			b.WriteString("; " + e.Source.Note)
		}
		b.WriteString(")")
		return b.String()
	}
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Object)
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	b.WriteString(": " + e.Msg)
	if e.Origin != "" {
		b.WriteString(" (from " + e.Origin)
		if e.Changed != "" {
			b.WriteString(", last changed by " + e.Changed)
		}
		b.WriteString(")")
	}
	return b.String()
}

// Result is the outcome for one object.
type Result struct {
	Object string // KIND/NAMESPACE/NAME
	File   string
	Line   int
	Errors []Error
}

// AddCRDs learns the schemas of the CustomResourceDefinitions (apiextensions.k8s.io/v1) among
// objs; other objects are ignored. A CRD seen twice: the later one wins. A CRD the API server
// would refuse (where this krm has its checks) is an error, as for krm validate --crd.
func (v *Validator) AddCRDs(objs []Object) error {
	for _, o := range objs {
		if err := v.addCRD(o, true); err != nil {
			return err
		}
	}
	return nil
}

// addCRD learns the schemas of o if it is a CustomResourceDefinition. The errors of the API
// server's validation of it are an error if apart (--crd), else kept for its own validation.
func (v *Validator) addCRD(o Object, apart bool) error {
	if !isCRD(o.Node) {
		return nil
	}
	group, kind, versions, err := CRDVersions(o)
	if err != nil {
		return err
	}
	if kind == "" {
		return nil // an invalid CRD: its own validation says so
	}
	c := &crd{source: o.File, versions: map[string]*Schema{}}
	for _, ver := range versions {
		s, err := (&converter{interned: v.interned}).convert(normalizeNumbers(ver.Schema).(map[string]any))
		if err != nil {
			return fmt.Errorf("%s: CustomResourceDefinition %s: version %s: %w", o.File, objectName(o.Node), ver.Name, err)
		}
		c.versions[ver.Name] = s
		c.versionNames = append(c.versionNames, ver.Name)
	}
	errs, err := v.serverCRD(o, c)
	if err != nil {
		return err
	}
	if apart && len(errs) > 0 {
		return v.refused(o, errs)
	}
	if !apart {
		v.crdErrs[o.Node] = errs
	}
	v.crds[GroupKind{group, kind}] = c
	return nil
}

// CRDVersion is the schema of a version a CRD serves.
type CRDVersion struct {
	Name   string
	Schema map[string]any // openAPIV3Schema; an object preserving unknown fields when it has none
}

// CRDVersions returns the group, kind and served versions of a CustomResourceDefinition
// (kind "" when it names none).
func CRDVersions(o Object) (group, kind string, versions []CRDVersion, err error) {
	// Decoded from JSON, in linear time (go-yaml's Decode compares a mapping's keys
	// pairwise), a key written twice refused as Decode did.
	if k := yamlnode.DuplicateKey(o.Node); k != nil {
		return "", "", nil, fmt.Errorf("%s: CustomResourceDefinition %s: line %d: %w: key %q appears twice in one mapping", o.File, objectName(o.Node), k.Line, ErrInput, k.Value)
	}
	var m map[string]any
	if err := json.Unmarshal(yamlnode.JSON(o.Node), &m); err != nil {
		return "", "", nil, fmt.Errorf("%s: CustomResourceDefinition %s: %w", o.File, objectName(o.Node), err)
	}
	spec, _ := m["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	group, _ = spec["group"].(string)
	kind, _ = names["kind"].(string)
	for _, ver := range asSlice(spec["versions"]) {
		ver, _ := ver.(map[string]any)
		name, _ := ver["name"].(string)
		if served, ok := ver["served"].(bool); ok && !served {
			continue
		}
		sch, _ := ver["schema"].(map[string]any)
		root, _ := sch["openAPIV3Schema"].(map[string]any)
		if root == nil {
			root = map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
		}
		versions = append(versions, CRDVersion{name, root})
	}
	return group, kind, versions, nil
}

// normalizeNumbers turns the integers yaml decodes into int into float64, as encoding/json
// would, so that enums print alike.
func normalizeNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			t[k] = normalizeNumbers(c)
		}
	case []any:
		for i, c := range t {
			t[i] = normalizeNumbers(c)
		}
	case int:
		return float64(t)
	}
	return v
}

// Validate checks each object; the results are in the objects' order.
func (v *Validator) Validate(objs []Object) []Result {
	out := make([]Result, 0, len(objs))
	for _, o := range objs {
		out = append(out, v.validateOne(o))
	}
	return out
}

func (v *Validator) validateOne(o Object) Result {
	res, _ := v.check(o)
	return res
}

// check validates o and returns, with the result, the CustomResourceDefinition it used.
func (v *Validator) check(o Object) (Result, schemaOf) {
	w := v.walkerOf(o)
	res := Result{Object: w.id, File: o.File, Line: o.Node.Line}
	w.top(o.Node)
	if o.Node.Kind == yaml.MappingNode {
		w.serverChecks(o)
	}
	w.leftOut()
	res.Errors = w.errs
	return res, w.used
}

// schemaOf is the kind of a top-level object and the CRD (nil: none) that Validator.crds had
// for it when the object was checked: were the CRD another now, the result could differ.
type schemaOf struct {
	gk  GroupKind
	crd *crd
}

// walker checks one object.
type walker struct {
	v               *Validator
	file, id        string
	origin, changed string
	errs            []Error
	// at is the path of the field being checked, for finding its source.
	at   []fieldsource.Elem
	pid  provmanifest.ObjectID
	used schemaOf
	// version is the version of used.crd the object was checked against ("": none).
	version string
	// builtin: the object is of a built-in kind with a pinned schema (native.go checks it).
	builtin bool
	// root is the object; secrets its Secret values, found when an error first needs them.
	root    *yaml.Node
	secrets *secretdata.Set
	// dropped counts the errors past MaxErrors, over holds their fields (for covered).
	dropped int
	over    map[string]bool
}

// fail reports an error at the field w.at, whose rendered value is value (nil: missing); n
// gives the rendered line.
func (w *walker) fail(n, value *yaml.Node, path, format string, args ...any) {
	if len(w.errs) >= MaxErrors {
		w.drop(path)
		return
	}
	line := 0
	if n != nil {
		line = n.Line
	}
	e := Error{File: w.file, Line: line, Object: w.id, Field: path,
		Msg: cut(fmt.Sprintf(format, args...)), Origin: w.origin, Changed: w.changed}
	if w.v.sources != nil {
		e.Source, _ = w.v.sources.Find(w.pid, w.at, value)
	}
	w.errs = append(w.errs, e)
}

func (w *walker) push(e fieldsource.Elem) { w.at = append(w.at, e) }
func (w *walker) pop()                    { w.at = w.at[:len(w.at)-1] }

func (w *walker) top(n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		w.fail(n, n, "", "an object must be a mapping")
		return
	}
	apiVersion, kind := str(n, "apiVersion"), str(n, "kind")
	if apiVersion == "" || kind == "" {
		w.fail(n, n, "", "apiVersion and kind are required")
		return
	}
	group, version := "", apiVersion
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		group, version = apiVersion[:i], apiVersion[i+1:]
	}
	gk := GroupKind{group, kind}
	w.used = schemaOf{gk, w.v.crds[gk]}
	if c, ok := w.v.crds[gk]; ok {
		s, ok := c.versions[version]
		if !ok {
			w.push(fieldsource.Key("apiVersion"))
			w.fail(n, field(n, "apiVersion"), "apiVersion", "the CustomResourceDefinition of %s (%s) serves no version %s", gk, c.source, version)
			w.pop()
			return
		}
		w.version = version
		w.resource(n, s, "")
		return
	}
	kinds, err := w.v.groupVersion(apiVersion)
	if err != nil {
		w.fail(n, n, "", "%v", err)
		return
	}
	if s := kinds[kind]; s != nil {
		w.object(n, s, "")
		w.name(n)
		w.builtin = true
		return
	}
	if w.v.allow[gk] || w.v.allow[GroupKind{group, "*"}] {
		return
	}
	w.fail(n, n, "", "no schema for %s %s: add its CustomResourceDefinition (--crd FILE) or allow the kind (--allow-kind %s)", apiVersion, kind, gk)
}

// resource checks a custom resource or an embedded object: apiVersion, kind and metadata as
// the API server checks them, the other fields against s.
func (w *walker) resource(n *yaml.Node, s *Schema, path string) {
	for _, f := range []string{"apiVersion", "kind"} {
		w.push(fieldsource.Key(f))
		if v := field(n, f); v == nil || isNull(v) {
			w.fail(n, nil, join(path, f), "Required value")
		} else {
			w.value(v, &Schema{Types: []string{"string"}}, join(path, f))
		}
		w.pop()
	}
	if m := field(n, "metadata"); m != nil {
		w.push(fieldsource.Key("metadata"))
		w.value(m, w.v.meta, join(path, "metadata"))
		w.pop()
	}
	rest := *s
	rest.Embedded = false
	rest.Properties = map[string]*Schema{}
	for k, p := range s.Properties {
		rest.Properties[k] = p
	}
	skip := &Schema{AnyFields: true}
	for _, f := range []string{"apiVersion", "kind", "metadata"} {
		rest.Properties[f] = skip
	}
	w.object(n, &rest, path)
	if path == "" {
		w.name(n)
	}
}

// name checks that a top-level object has a name (or generateName).
func (w *walker) name(n *yaml.Node) {
	m := field(n, "metadata")
	if m == nil || (str(m, "name") == "" && str(m, "generateName") == "") {
		w.push(fieldsource.Key("metadata"))
		w.push(fieldsource.Key("name"))
		w.fail(n, nil, "metadata.name", "Required value: name or generateName is required")
		w.pop()
		w.pop()
	}
}

func (w *walker) value(n *yaml.Node, s *Schema, path string) {
	if isNull(n) {
		return // null where not nullable: dropped before validation, as absent
	}
	got := yamlnode.JSONType(n)
	if !typeAllowed(s.Types, got, n) {
		w.fail(n, n, path, "Invalid value: must be of type %s, not %s%s", strings.Join(s.Types, " or "), got, w.shown(n))
		return
	}
	switch got {
	case "object":
		if s.Embedded {
			w.resource(n, s, path)
			return
		}
		w.object(n, s, path)
	case "array":
		w.array(n, s, path)
	default:
		w.scalar(n, s, path, got)
	}
}

func (w *walker) object(n *yaml.Node, s *Schema, path string) {
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		w.push(fieldsource.Key(n.Content[i].Value))
		w.field(n.Content[i], n.Content[i+1], s, path, seen)
		w.pop()
	}
	for _, r := range s.Required {
		if v := field(n, r); v == nil || (isNull(v) && !s.Properties[r].nullable()) {
			w.push(fieldsource.Key(r))
			w.fail(n, nil, join(path, r), "Required value")
			w.pop()
		}
	}
}

// field checks the field k: val of an object of schema s at path.
func (w *walker) field(k, val *yaml.Node, s *Schema, path string, seen map[string]bool) {
	p := join(path, k.Value)
	if seen[k.Value] {
		w.fail(k, val, p, "duplicate field %q", k.Value)
		return
	}
	seen[k.Value] = true
	switch ps := s.Properties[k.Value]; {
	case ps != nil:
		w.value(val, ps, p)
	case s.Additional != nil:
		w.value(val, s.Additional, path+"["+k.Value+"]")
	case s.AnyFields:
		w.duplicates(val, p)
	default:
		w.fail(k, val, p, "unknown field %q", p)
	}
}

func (s *Schema) nullable() bool { return s != nil && s.Nullable }

// duplicates reports the duplicate fields of a subtree no schema describes.
func (w *walker) duplicates(n *yaml.Node, path string) {
	switch n.Kind {
	case yaml.MappingNode:
		seen := make(map[string]bool, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			p := join(path, k.Value)
			w.push(fieldsource.Key(k.Value))
			if seen[k.Value] {
				w.fail(k, n.Content[i+1], p, "duplicate field %q", k.Value)
			}
			seen[k.Value] = true
			w.duplicates(n.Content[i+1], p)
			w.pop()
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			w.push(fieldsource.Index(i, c))
			w.duplicates(c, fmt.Sprintf("%s[%d]", path, i))
			w.pop()
		}
	}
}

func (w *walker) array(n *yaml.Node, s *Schema, path string) {
	items := s.Items
	if items == nil {
		items = &Schema{AnyFields: true}
	}
	seen := map[string]int{}
	for i, c := range n.Content {
		p := fmt.Sprintf("%s[%d]", path, i)
		w.push(fieldsource.Index(i, c))
		w.item(i, c, items, s, p, path, seen)
		w.pop()
	}
}

// item checks the item i, c, of a list of schema s; seen maps the keys of the items before it.
func (w *walker) item(i int, c *yaml.Node, items, s *Schema, p, path string, seen map[string]int) {
	w.value(c, items, p)
	if !s.CheckLists {
		return
	}
	var key string
	switch s.ListType {
	case "set":
		key = scalarKey(c)
	case "map":
		if c.Kind != yaml.MappingNode {
			return
		}
		var parts []string
		for _, k := range s.MapKeys {
			if v := field(c, k); v != nil {
				parts = append(parts, k+"="+scalarKey(v))
			}
		}
		key = strings.Join(parts, ",")
	default:
		return
	}
	if j, dup := seen[key]; dup {
		w.fail(c, c, p, "Duplicate value: the same as %s[%d] (x-kubernetes-list-type: %s)", path, j, s.ListType)
	} else {
		seen[key] = i
	}
}

func (w *walker) scalar(n *yaml.Node, s *Schema, path, got string) {
	if len(s.Enum) > 0 {
		ok := false
		for _, e := range s.Enum {
			if e == n.Value {
				ok = true
				break
			}
		}
		if !ok {
			w.fail(n, n, path, "Unsupported value: %s: supported values: %s", w.quoted(n), quoteAll(s.Enum))
			return
		}
	}
	switch {
	case s.Format == "int32" && got == "integer":
		if i, err := strconv.ParseInt(n.Value, 0, 64); err != nil || i < math.MinInt32 || i > math.MaxInt32 {
			w.fail(n, n, path, "Invalid value: %s is out of the range of int32", w.reveal(n, n.Value))
		}
	case s.Format == "date-time" && got == "string":
		if _, err := time.Parse(time.RFC3339, n.Value); err != nil {
			w.fail(n, n, path, "Invalid value: %s is not a date-time (RFC 3339)", w.quoted(n))
		}
	case s.Format == "byte" && got == "string":
		if _, err := base64.StdEncoding.DecodeString(strings.NewReplacer("\n", "", "\r", "").Replace(n.Value)); err != nil {
			w.fail(n, n, path, "Invalid value: not base64 (format byte)")
		}
	case s.Format == "quantity" && got == "string":
		if !yamlnode.IsQuantity(strings.TrimSpace(n.Value)) { // trimmed, as the API server does
			w.fail(n, n, path, "Invalid value: %s: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", w.quoted(n))
		}
	}
}

func typeAllowed(types []string, got string, n *yaml.Node) bool {
	if len(types) == 0 {
		return true
	}
	for _, t := range types {
		switch {
		case t == got, t == "number" && got == "integer":
			return true
		case t == "integer" && got == "number":
			// 2.0 becomes the JSON number 2
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil && f == math.Trunc(f) && !math.IsInf(f, 0) {
				return true
			}
		}
	}
	return false
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// hiddenValue stands for a value that no error may print (package secretdata).
const hiddenValue = "(Secret value hidden)"

// shown is a scalar's value as a type error ends with it: " VALUE", quoted and cut.
func (w *walker) shown(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		return ""
	}
	v := n.Value
	if len(v) > 40 {
		v = v[:40] + "..."
	}
	return " " + w.reveal(n, strconv.Quote(v))
}

// quoted is a scalar's value, quoted, as an error shows it.
func (w *walker) quoted(n *yaml.Node) string { return w.reveal(n, strconv.Quote(n.Value)) }

// reveal is text, which shows n's value, unless that is a Secret value.
func (w *walker) reveal(n *yaml.Node, text string) string {
	if w.secrets == nil {
		s := secretdata.Find(w.root, false)
		w.secrets = &s
	}
	if w.secrets.Has(n) {
		return hiddenValue
	}
	return text
}

func scalarKey(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return yamlnode.JSONType(n) + ":" + n.Value
	}
	b, _ := yaml.Marshal(n)
	return string(b)
}

func quoteAll(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

func join(path, f string) string {
	if path == "" {
		return f
	}
	return path + "." + f
}

// field returns the value of the first key f of a mapping, or nil.
func field(n *yaml.Node, f string) *yaml.Node { return yamlnode.Field(n, f) }

// str returns the string value of field f of a mapping, or "".
func str(n *yaml.Node, f string) string { return yamlnode.Text(yamlnode.Field(n, f)) }

// objectName is KIND/NAMESPACE/NAME (KIND/NAME without a namespace).
func objectName(n *yaml.Node) string {
	kind := str(n, "kind")
	if kind == "" {
		kind = "(no kind)"
	}
	m := field(n, "metadata")
	name := str(m, "name")
	if name == "" {
		name = "(no name)"
	}
	if ns := str(m, "namespace"); ns != "" {
		return kind + "/" + ns + "/" + name
	}
	return kind + "/" + name
}

// provenanceID is the object's ID as the provenance manifest names it.
func provenanceID(n *yaml.Node) provmanifest.ObjectID {
	m := field(n, "metadata")
	return provmanifest.ObjectID{APIVersion: str(n, "apiVersion"), Kind: str(n, "kind"),
		Namespace: str(m, "namespace"), Name: str(m, "name")}
}

// provenanceOf returns the origin file (or generator) and the last transformers that changed
// the object, from the provenance annotations krm build --provenance writes.
func provenanceOf(n *yaml.Node) (origin, changed string) {
	ann := field(field(n, "metadata"), "annotations")
	if raw := str(ann, provmanifest.OriginAnnotation); raw != "" {
		if o, err := provmanifest.ParseOrigin(raw); err == nil {
			origin = o.Text()
		}
	}
	if raw := str(ann, provmanifest.TransformersAnnotation); raw != "" {
		if ts, err := provmanifest.ParseTransformers(raw); err == nil && len(ts) > 0 {
			last := ts[len(ts)-1]
			changed = strings.Join(last.Kinds, ", ") + " in " + last.ConfiguredIn
		}
	}
	return origin, changed
}
