//go:build apiserver

package validate

// The agreement test: krm validate against a real kube-apiserver (dev/testing/apiserver).
//
// The corpus, generated the same way on every run:
//   - base cases: the objects kustomize renders in the repository, deduplicated: the
//     examples' goldens (examples/**/*_manifests.golden.yaml), the differential cases'
//     expected output (tools/renderer/dev/difftest/testdata/cases/*/expected.yaml), and the real
//     trees dev/bench/real and e2e/gazelle/testdata rendered with package build (every
//     kustomization there that renders alone);
//   - mutants of the base cases, two of the kinds in mutations per object, chosen by its index;
//   - custom resources of a CRD written for the test (crdYAML) with every extension krm
//     honours, one field at a time set to values valid and invalid (widgetCases);
//   - CRDs with rules the server checks (value bounds, patterns, formats, list types, CEL
//     rules), real ones (Gateway API's standard CRDs, testdata/gateway-api) and written ones
//     (package crdcheck's testdata: every kind of rule, a rule over the cost limit, one that
//     does not compile), and custom resources of them: a valid one each, then mutants that
//     break one rule each (crdCases);
//   - built-in objects valid on the server and mutants that break one per-kind rule each
//     (nativeCases).
//
// Every CRD of the corpus is created on the server first (those the server refuses are
// left out of krm's CRDs too). Every case is then sent as a server-side dry-run create with
// strict field validation, namespaced objects into one namespace of the test; 2xx and
// AlreadyExists (validation runs before the write) mean valid, 400, 422 and a kind the server
// does not serve mean invalid. krm validate must say the same of every case not excluded.
//
// krm validates as the full renderer does: CRDs and custom resources with the API server's
// own code too (package crdcheck), so nothing of theirs is excluded; built-in kinds with
// the per-kind rules of package nativecheck, and the built-in objects and mutants of
// nativeCases (native_agreement_test.go) must also give each of krm's errors in the
// server's words. Excluded, by rule (none is, on today's corpus; docs/cli.md says what
// nativecheck leaves out):
//   - handwritten: krm finds the object valid and the server answers 422 for a built-in kind
//     (a per-kind rule nativecheck does not write again: Go code, not schema), unless a
//     cause is a missing field the schema says is required (krm must find those);
//   - admission: the server answers 403 (admission plugins: a ServiceAccount, a quota).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/dev/testing/apiserver"
	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
)

func TestMain(m *testing.M) { os.Exit(apiserver.RunShared(m)) }

const corpusNamespace = "validate-corpus"

type agreementCase struct {
	name     string // source and mutation
	node     *yaml.Node
	mutation string // "" for a base case
}

func TestAgreementWithAPIServer(t *testing.T) {
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	bases := baseCases(t, root)
	var cases []agreementCase
	for i, b := range bases {
		cases = append(cases, b)
		for _, j := range []int{i % len(mutations), (i + 3) % len(mutations)} {
			m := mutations[j]
			n := deepCopy(b.node)
			if m.apply(n) {
				cases = append(cases, agreementCase{name: b.name + " " + m.name, node: n, mutation: m.name})
			}
		}
	}
	widgetCRD, err := Parse("crd.yaml", []byte(crdYAML))
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, agreementCase{name: "widget CRD", node: widgetCRD[0].Node})
	cases = append(cases, widgetCases(t)...)
	cases = append(cases, crdCases(t, root)...)
	cases = append(cases, nativeCases(t)...)

	s := apiserver.Shared(t)
	ctx := context.Background()
	if err := s.CreateNamespace(ctx, corpusNamespace); err != nil {
		t.Fatal(err)
	}
	c := &client{s: s, hc: s.Client()}
	c.hc.Timeout = 30 * time.Second
	installed := c.installCRDs(t, cases)
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.AddCRDs(installed); err != nil {
		t.Fatal(err)
	}
	kinds := c.discover(t)

	var agreed, pathAgreed, bothInvalid int
	excluded := map[string]int{}
	var disagreements []string
	for _, k := range cases {
		res := v.validateOne(Object{Node: k.node, File: k.name})
		krmValid := len(res.Errors) == 0
		verdict := c.dryRun(t, kinds, k.node)
		if rule := exclusion(k, krmValid, verdict, v); rule != "" {
			excluded[rule]++
			t.Logf("excluded (%s): %s: %.300s", rule, k.name, verdict.message)
			continue
		}
		if krmValid != verdict.valid {
			var msgs []string
			for _, e := range res.Errors {
				msgs = append(msgs, e.Field+": "+e.Msg)
			}
			disagreements = append(disagreements, fmt.Sprintf("%s (%s): krm valid=%v %q; server %d %s",
				k.name, res.Object, krmValid, msgs, verdict.code, verdict.message))
			continue
		}
		if strings.HasPrefix(k.mutation, "native") && !krmValid {
			if missing := nativeReasons(res, verdict.message); len(missing) > 0 {
				disagreements = append(disagreements, fmt.Sprintf("%s (%s): krm's errors %q not in the server's message: %s", k.name, res.Object, missing, verdict.message))
				continue
			}
		}
		agreed++
		if !krmValid {
			bothInvalid++
			for _, e := range res.Errors {
				if e.Field != "" && strings.Contains(verdict.message, e.Field) {
					pathAgreed++
					break
				}
			}
		}
	}
	sort.Strings(disagreements)
	for _, d := range disagreements {
		t.Errorf("disagreement: %s", d)
	}
	var ex []string
	for r, n := range excluded {
		ex = append(ex, fmt.Sprintf("%s %d", r, n))
	}
	sort.Strings(ex)
	t.Logf("agreement: %d cases (%d base objects), %d agreed (%d both invalid, %d of them naming the same field), %d disagreed; excluded by rule: %s",
		len(cases), len(bases), agreed, bothInvalid, pathAgreed, len(disagreements), strings.Join(ex, ", "))
	fmt.Printf("agreement: %d cases, %d agreed, %d disagreed, excluded: %s\n", len(cases), agreed, len(disagreements), strings.Join(ex, ", "))
}

// exclusion returns the rule that leaves a case out, or "".
func exclusion(k agreementCase, krmValid bool, r verdict, v *Validator) string {
	if !krmValid || r.valid {
		return ""
	}
	switch {
	case r.code == http.StatusForbidden:
		return "admission"
	case r.code != http.StatusUnprocessableEntity:
		return ""
	}
	group := ""
	if i := strings.LastIndex(str(k.node, "apiVersion"), "/"); i >= 0 {
		group = str(k.node, "apiVersion")[:i]
	}
	if _, cr := v.crds[GroupKind{group, str(k.node, "kind")}]; cr || isCRD(k.node) {
		return "" // checked with the server's code
	}
	for i, c := range r.causes {
		if c == "FieldValueRequired" && requiredBySchema(v, k.node, r.fields[i]) {
			return ""
		}
	}
	return "handwritten"
}

// requiredBySchema reports whether the built-in schema of obj marks field (as the server
// writes it: spec.ports[0].name) required.
func requiredBySchema(v *Validator, obj *yaml.Node, field string) bool {
	kinds, _ := v.groupVersion(str(obj, "apiVersion"))
	s := kinds[str(obj, "kind")]
	parts := strings.Split(strings.NewReplacer("[", ".[").Replace(field), ".")
	for i, p := range parts {
		if s == nil {
			return false
		}
		if i == len(parts)-1 {
			for _, r := range s.Required {
				if r == p {
					return true
				}
			}
			return false
		}
		if strings.HasPrefix(p, "[") {
			s = s.Items
		} else {
			s = s.Properties[p]
		}
	}
	return false
}

// baseCases reads and renders the corpus's objects, deduplicated by content, in a stable order.
func baseCases(t *testing.T, root string) []agreementCase {
	var streams []struct{ name, data string }
	add := func(name string, data []byte) {
		streams = append(streams, struct{ name, data string }{name, string(data)})
	}
	globs := []string{"examples/*/*_manifests.golden.yaml", "examples/*/*/*_manifests.golden.yaml",
		"tools/renderer/dev/difftest/testdata/cases/*/expected.yaml"}
	for _, g := range globs {
		files, _ := filepath.Glob(filepath.Join(root, g))
		sort.Strings(files)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, f)
			add(rel, b)
		}
	}
	for _, tree := range []string{"dev/bench/real", "e2e/gazelle/testdata"} {
		var dirs []string
		filepath.WalkDir(filepath.Join(root, tree), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Name() == "kustomization.yaml" {
				dirs = append(dirs, filepath.Dir(p))
			}
			return nil
		})
		sort.Strings(dirs)
		for _, dir := range dirs {
			res, err := render.Render(filesys.MakeFsOnDisk(), dir, render.Options{Stderr: io.Discard})
			if err != nil {
				continue // a component, or a base that needs its parent
			}
			rel, _ := filepath.Rel(root, dir)
			add(rel, res.Manifests)
		}
	}
	seen := map[string]bool{}
	var cases []agreementCase
	for _, s := range streams {
		objs, err := Parse(s.name, []byte(s.data))
		if err != nil {
			continue // kustomize's output of a case with anchors: not a manifest for a server
		}
		for i, o := range objs {
			if o.Node.Kind != yaml.MappingNode {
				continue
			}
			key := string(yamlnode.JSON(o.Node))
			if seen[key] {
				continue
			}
			seen[key] = true
			cases = append(cases, agreementCase{name: fmt.Sprintf("%s#%d", s.name, i), node: o.Node})
		}
	}
	return cases
}

// mutations change an object the way people get manifests wrong; apply reports whether it
// found something to change.
var mutations = []struct {
	name  string
	apply func(n *yaml.Node) bool
}{
	{"misspell a field", func(n *yaml.Node) bool {
		m := firstMapping(n)
		if m == nil || len(m.Content) == 0 {
			return false
		}
		m.Content[0].Value += "x"
		return true
	}},
	{"a string where a mapping was", func(n *yaml.Node) bool {
		m := firstMapping(n)
		if m == nil || len(m.Content) < 2 {
			return false
		}
		for i := 1; i < len(m.Content); i += 2 {
			if m.Content[i].Kind == yaml.MappingNode || m.Content[i].Kind == yaml.SequenceNode {
				m.Content[i] = yaml.NewScalarRNode("oops").YNode()
				return true
			}
		}
		return false
	}},
	{"a string where an int was", func(n *yaml.Node) bool {
		s := findScalar(n, "!!int")
		if s == nil {
			return false
		}
		s.Tag, s.Style = "!!str", yaml.DoubleQuotedStyle
		return true
	}},
	{"an int where a string was", func(n *yaml.Node) bool {
		s := findScalar(field(n, "spec"), "!!str")
		if s == nil {
			s = findScalar(field(n, "data"), "!!str")
		}
		if s == nil {
			return false
		}
		s.Tag, s.Value, s.Style = "!!int", "7", 0
		return true
	}},
	{"drop a name", func(n *yaml.Node) bool {
		return dropListItemName(field(n, "spec"))
	}},
	{"null a field", func(n *yaml.Node) bool {
		m := firstMapping(n)
		if m == nil || len(m.Content) < 2 {
			return false
		}
		m.Content[1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
		return true
	}},
	{"write a field twice", func(n *yaml.Node) bool {
		m := firstMapping(n)
		if m == nil || len(m.Content) < 2 {
			return false
		}
		m.Content = append(m.Content, deepCopy(m.Content[0]), deepCopy(m.Content[1]))
		return true
	}},
	{"misspell the kind", func(n *yaml.Node) bool {
		k := field(n, "kind")
		if k == nil {
			return false
		}
		k.Value += "Typo"
		return true
	}},
}

// firstMapping is the object's spec, else the first mapping-valued field other than
// metadata.
func firstMapping(n *yaml.Node) *yaml.Node {
	if s := field(n, "spec"); s != nil && s.Kind == yaml.MappingNode {
		return s
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := n.Content[i+1]; v.Kind == yaml.MappingNode && n.Content[i].Value != "metadata" {
			return v
		}
	}
	return nil
}

// findScalar returns the first scalar of a tag in a depth-first walk, or nil.
func findScalar(n *yaml.Node, tag string) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		if n.ShortTag() == tag {
			return n
		}
		return nil
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			continue // keys
		}
		if s := findScalar(c, tag); s != nil {
			return s
		}
	}
	return nil
}

// dropListItemName removes the name of the first item of a list that has one.
func dropListItemName(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.SequenceNode {
		for _, c := range n.Content {
			if c.Kind != yaml.MappingNode {
				continue
			}
			for i := 0; i+1 < len(c.Content); i += 2 {
				if c.Content[i].Value == "name" {
					c.Content = append(c.Content[:i], c.Content[i+2:]...)
					return true
				}
			}
		}
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			continue
		}
		if dropListItemName(c) {
			return true
		}
	}
	return false
}

// widgetCases are custom resources of crdYAML's Widget: a valid one, then one field at a time
// set to other values, valid and invalid.
func widgetCases(t *testing.T) []agreementCase {
	valid := map[string]string{
		"size": "3", "port": "80", "mode": "fast", "extra": "{a: {b: [1]}}", "tags": "[a, b]",
		"ports":    "[{name: a}, {name: b, n: 2}]",
		"template": "{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: b}}",
	}
	variants := map[string][]string{
		"size":     {`"3"`, "1.5", "null", "true", "-4"},
		"port":     {`"http"`, "1.5", "true", "[80]", `"80"`},
		"mode":     {"slow", "medium", "1", `""`},
		"extra":    {"{}", `"str"`, "[1]", "{x: {y: {z: [a, {b: c}]}}}", "{dup: 1, dup: 2}"},
		"tags":     {"[]", "[a, a]", "[1]", "[a, b, c, a]", "a"},
		"ports":    {"[{name: a}, {name: a}]", "[{n: 1}]", "[{name: a, n: x}]", "[{name: a, bogus: 1}]"},
		"template": {"{kind: ConfigMap}", "{apiVersion: v1, kind: ConfigMap, metadata: {name: x, bogus: 1}}", "{apiVersion: v1, kind: Anything, spec: {whatever: [1]}}", `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, labels: {a: 1}}}`},
		"colour":   {"red"},
	}
	fields := []string{"size", "port", "mode", "extra", "tags", "ports", "template", "colour"}
	build := func(name string, over map[string]string) agreementCase {
		var b strings.Builder
		b.WriteString("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n")
		for _, f := range fields {
			val, ok := over[f]
			if !ok {
				val, ok = valid[f]
			}
			if ok {
				fmt.Fprintf(&b, "  %s: %s\n", f, val)
			}
		}
		objs, err := Parse(name, []byte(b.String()))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return agreementCase{name: name, node: objs[0].Node}
	}
	cases := []agreementCase{build("widget valid", nil)}
	for _, f := range fields {
		for _, val := range variants[f] {
			cases = append(cases, build(fmt.Sprintf("widget spec.%s: %s", f, val), map[string]string{f: val}))
		}
	}
	for _, meta := range []string{"{name: w, bogus: 1}", "{name: w, labels: {a: [1]}}", "{generateName: w-}", "{namespace: x}"} {
		c := build("widget metadata "+meta, nil)
		m, _ := Parse("m", []byte("metadata: "+meta+"\n"))
		c.node.Content[5] = field(m[0].Node, "metadata")
		cases = append(cases, c)
	}
	return cases
}

// crdCases are the CRDs with rules the server checks and custom resources of them: for each
// base object, the base and then its mutants, each a field set to a value (YAML) that breaks
// one rule of the CRD (named in the case).
func crdCases(t *testing.T, root string) []agreementCase {
	var cases []agreementCase
	crdFiles, _ := filepath.Glob(filepath.Join(root, "tools/renderer/internal/validate/testdata/gateway-api/*.yaml"))
	for _, f := range []string{"gizmo-crd.yaml", "costly-crd.yaml", "broken-crd.yaml"} {
		crdFiles = append(crdFiles, filepath.Join(root, "tools/renderer/internal/crdcheck/testdata", f))
	}
	for _, f := range crdFiles {
		objs, err := Read([]string{f})
		if err != nil || len(objs) != 1 {
			t.Fatalf("%s: %v (%d objects)", f, err, len(objs))
		}
		rel, _ := filepath.Rel(root, f)
		cases = append(cases, agreementCase{name: rel, node: objs[0].Node})
	}
	for _, b := range crdBases {
		objs, err := Parse(b.name, []byte(b.yaml))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, agreementCase{name: b.name, node: objs[0].Node})
		for _, m := range b.mutants {
			path, value, _ := strings.Cut(m, "=")
			n := deepCopy(objs[0].Node)
			setPath(t, n, path, value)
			cases = append(cases, agreementCase{name: b.name + " " + m, node: n, mutation: m})
		}
	}
	return cases
}

// crdBases are valid custom resources and their mutants (PATH=YAML).
var crdBases = []struct {
	name, yaml string
	mutants    []string
}{
	{"gizmo", `apiVersion: example.com/v1
kind: Gizmo
metadata: {name: g}
spec:
  size: 3
  owner: team-a
  handle: abc
  mode: fast
  address: 10.0.0.1
  tags: [a, b]
  labels: {a: b}
  ports: [{name: http, port: 80}, {name: admin, port: 443}]
status: {ready: false}
`, []string{
		"spec.size=0", "spec.size=11", `spec.size="3"`, "spec.minReplicas=5", "spec.maxReplicas=0", "spec.owner=bob",
		"spec.owner=team-aaaaaaaaaaaaaaaaaaaaaa", "spec.handle=X", "spec.handle=ab1", "spec.mode=medium",
		"spec.address=1.2.3", "spec.tags=[a, b, c, d]", "spec.tags=[a, a]", "spec.labels={a: b, c: d, e: f}",
		"spec.ports=[{name: http, port: 80}, {name: http, port: 81}]", "spec.ports[1].port=8080",
		"spec.ports[0].port=70000", "metadata.name=Bad_Name", "metadata={generateName: g-}",
		`metadata.labels={"a b": x}`, "status={ready: true}",
	}},
	{"gatewayclass", `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/gateway-controller}
`, []string{"spec.controllerName=nodomain", "spec.controllerName=Example.com/x"}},
	{"gateway", `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: gc
  listeners:
  - {name: http, protocol: HTTP, port: 80, hostname: "*.example.com"}
  - name: https
    protocol: HTTPS
    port: 443
    hostname: "*.example.com"
    tls: {mode: Terminate, certificateRefs: [{name: cert}]}
`, []string{
		"spec.listeners[1].name=http", "spec.listeners[1].tls={mode: Passthrough}", "spec.listeners[1].tls={mode: Terminate}",
		"spec.listeners[0].port=0", `spec.listeners[0].hostname="*.*.example.com"`, "spec.listeners[0].protocol=TCP",
		"spec.listeners[1].port=80", "spec.listeners=[]",
	}},
	{"httproute", `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: route}
spec:
  parentRefs: [{name: gw}]
  hostnames: [www.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /api}}]
    filters: [{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: X-A, value: a}]}}]
    backendRefs: [{name: api, port: 8080}]
`, []string{
		"spec.rules[0].matches[0].path.value=api", "spec.rules[0].matches[0].path.value=/a//b",
		"spec.rules[0].filters=[{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: X-A, value: a}]}}, {type: RequestHeaderModifier, requestHeaderModifier: {add: [{name: X-B, value: b}]}}]",
		"spec.rules[0].filters=[{type: RequestRedirect}]", "spec.rules[0].backendRefs[0].port=70000",
		"spec.rules[0].backendRefs[0].weight=-1", "spec.hostnames=[Bad_Host]",
		`spec.rules[0].matches[0].headers=[{name: "bad header", value: x}]`,
		"spec.rules[0].timeouts={request: 1s, backendRequest: 5s}",
	}},
}

// setPath sets the field at path (as the API server writes it) of n to value (YAML); the
// field's parent must exist.
func setPath(t *testing.T, n *yaml.Node, path, value string) {
	t.Helper()
	v, err := yaml.Parse(value)
	if err != nil {
		t.Fatalf("%s=%s: %v", path, value, err)
	}
	parent, key := "", path
	if i := strings.LastIndexAny(path, "."); i >= 0 {
		parent, key = path[:i], path[i+1:]
	}
	_, p, _ := resolve(n, parent)
	if p == nil || p.Kind != yaml.MappingNode {
		t.Fatalf("%s: no mapping at %q", path, parent)
	}
	if _, old := keyValue(p, key); old != nil {
		*old = *v.YNode()
		return
	}
	p.Content = append(p.Content, yaml.NewScalarRNode(key).YNode(), v.YNode())
}

// client sends the corpus to the server.
type client struct {
	s  *apiserver.Server
	hc *http.Client
}

type verdict struct {
	valid   bool
	code    int
	message string
	causes  []string // the reasons (types) of the causes of a 422
	fields  []string // and their fields
}

func (c *client) do(t *testing.T, method, path string, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, c.s.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.s.AdminToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// installCRDs creates the corpus's CustomResourceDefinitions (the first of each name) and
// returns those the server established.
func (c *client) installCRDs(t *testing.T, cases []agreementCase) []Object {
	var out []Object
	seen := map[string]bool{}
	for _, k := range cases {
		if str(k.node, "apiVersion") != "apiextensions.k8s.io/v1" || str(k.node, "kind") != "CustomResourceDefinition" || k.mutation != "" {
			continue
		}
		name := str(field(k.node, "metadata"), "name")
		if seen[name] {
			continue
		}
		seen[name] = true
		code, body := c.do(t, http.MethodPost, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", yamlnode.JSON(k.node))
		if code != http.StatusCreated {
			t.Logf("CRD %s not installed (%d): %.200s", name, code, body)
			continue
		}
		out = append(out, Object{Node: k.node, File: k.name})
	}
	// Wait until every CRD is established.
	deadline := time.Now().Add(60 * time.Second)
	for _, o := range out {
		name := str(field(o.Node, "metadata"), "name")
		for {
			_, body := c.do(t, http.MethodGet, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+name, nil)
			if bytes.Contains(body, []byte(`"type":"Established","status":"True"`)) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("CRD %s not established after 60 s: %s", name, body)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	t.Logf("%d CRDs installed", len(out))
	return out
}

type resource struct {
	name       string
	namespaced bool
}

// discover maps apiVersion/kind to the server's resources.
func (c *client) discover(t *testing.T) map[string]resource {
	kinds := map[string]resource{}
	read := func(gv, path string) {
		code, body := c.do(t, http.MethodGet, path, nil)
		if code != http.StatusOK {
			return
		}
		var l struct {
			Resources []struct {
				Name, Kind string
				Namespaced bool
			}
		}
		json.Unmarshal(body, &l)
		for _, r := range l.Resources {
			if !strings.Contains(r.Name, "/") {
				kinds[gv+"/"+r.Kind] = resource{r.Name, r.Namespaced}
			}
		}
	}
	read("v1", "/api/v1")
	// CRDs just established may take a moment to be served: read the groups until stable.
	time.Sleep(2 * time.Second)
	_, body := c.do(t, http.MethodGet, "/apis", nil)
	var groups struct {
		Groups []struct {
			Versions []struct{ GroupVersion string }
		}
	}
	json.Unmarshal(body, &groups)
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			read(v.GroupVersion, "/apis/"+v.GroupVersion)
		}
	}
	return kinds
}

// dryRun sends one object as a strict server-side dry-run create.
func (c *client) dryRun(t *testing.T, kinds map[string]resource, n *yaml.Node) verdict {
	r, ok := kinds[str(n, "apiVersion")+"/"+str(n, "kind")]
	if !ok {
		return verdict{code: http.StatusNotFound, message: "the server serves no such kind"}
	}
	n = deepCopy(n)
	if m := field(n, "metadata"); r.namespaced && m != nil && m.Kind == yaml.MappingNode {
		setField(m, "namespace", corpusNamespace)
	}
	path := objectPath(n, r, corpusNamespace) + "?dryRun=All&fieldValidation=Strict"
	code, body := c.do(t, http.MethodPost, path, yamlnode.JSON(n))
	v := verdict{code: code, message: string(body)}
	switch {
	case code/100 == 2, code == http.StatusConflict && bytes.Contains(body, []byte(`"reason":"AlreadyExists"`)):
		v.valid = true
	case code == http.StatusBadRequest, code == http.StatusUnprocessableEntity, code == http.StatusForbidden:
		var st struct {
			Message string
			Details struct {
				Causes []struct{ Reason, Field string }
			}
		}
		json.Unmarshal(body, &st)
		v.message = st.Message
		for _, c := range st.Details.Causes {
			v.causes = append(v.causes, c.Reason)
			v.fields = append(v.fields, c.Field)
		}
	default:
		t.Fatalf("POST %s: unexpected answer %d: %s", path, code, body)
	}
	return v
}

// objectPath is the collection path of the resource r of n, in namespace ns if namespaced.
func objectPath(n *yaml.Node, r resource, ns string) string {
	path := "/apis/" + str(n, "apiVersion")
	if !strings.Contains(str(n, "apiVersion"), "/") {
		path = "/api/" + str(n, "apiVersion")
	}
	if r.namespaced {
		path += "/namespaces/" + ns
	}
	return path + "/" + r.name
}

func setField(m *yaml.Node, key, value string) {
	if v := field(m, key); v != nil {
		v.Kind, v.Tag, v.Value, v.Style, v.Content = yaml.ScalarNode, "!!str", value, 0, nil
		return
	}
	m.Content = append(m.Content, yaml.NewScalarRNode(key).YNode(), yaml.NewScalarRNode(value).YNode())
}

func deepCopy(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = deepCopy(k)
	}
	return &c
}
