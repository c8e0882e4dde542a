package validate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/crdsupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/validate/fieldsource"
)

// The CRDs of package crdcheck's tests: every kind of rule, one over the cost limit.
var (
	gizmoCRD  = filepath.Join("..", "crdcheck", "testdata", "gizmo-crd.yaml")
	costlyCRD = filepath.Join("..", "crdcheck", "testdata", "costly-crd.yaml")
	gizmos    = filepath.Join("testdata", "crds", "gizmos.yaml")
	broken    = filepath.Join("testdata", "crds", "broken.yaml")
)

// newValidator is a Validator of the default Kubernetes version.
func newValidator(t *testing.T) *Validator {
	t.Helper()
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// validateFiles runs ValidateFiles and returns its error lines and notes.
func validateFiles(t *testing.T, v *Validator, paths, crdPaths []string) (errs, notes string) {
	t.Helper()
	res, err := v.ValidateFiles(paths, crdPaths)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, n := range v.Notes() {
		b.WriteString("note: " + n.Error() + "\n")
	}
	return errorLines(res), b.String()
}

// TestServerChecks: custom resources are checked with the API server's code after the walk,
// at the fields the server names, at their lines; what the walk found at a field is said
// once; a CRD whose rule does not compile is invalid at the rule, and its resources say so;
// the transition rules are notes, once each.
func TestServerChecks(t *testing.T) {
	v := newValidator(t)
	errs, notes := validateFiles(t, v, []string{gizmos, broken, gizmos}, []string{gizmoCRD})
	const (
		blocked = "Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"
		compile = "compilation failed: ERROR: <input>:1:11: found no matching overload for '_>_' applied to '(int, string)' | self.size > 'three' | ..........^"
	)
	once := gizmos + `:11: Gizmo/bad: spec.size: Invalid value: must be of type integer, not string "3"
` + gizmos + `:7: Gizmo/bad: ` + blocked + `
` + gizmos + `:23: Gizmo/rules: spec.tags[1]: Duplicate value: the same as spec.tags[0] (x-kubernetes-list-type: set)
` + gizmos + `:17: Gizmo/rules: spec: Forbidden: owner bob must start with team-
` + gizmos + `:19: Gizmo/rules: spec.minReplicas: Invalid value: minReplicas must not exceed maxReplicas
` + gizmos + `:22: Gizmo/rules: spec.ports[0]: Invalid value: the admin port must be privileged
`
	want := once + broken + `:21: CustomResourceDefinition/brokens.example.com: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self.size \u003e 'three'","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: ` + compile + `
` + broken + `:28: Broken/b: spec: Invalid value: "object": rule compile error: ` + compile + `
` + once
	if errs != want {
		t.Errorf("errors:\n%s\nwant:\n%s", errs, want)
	}
	const rules = "CustomResourceDefinition/gizmos.example.com: spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations"
	wantNotes := "note: " + gizmoCRD + ":31: " + rules + "[2]: not checked offline: transition rule (needs the old object): self.size == oldSelf.size\n" +
		"note: " + gizmoCRD + ":33: " + rules + "[3]: checked as on create only (oldSelf absent): transition rule (needs the old object): oldSelf.hasValue() ? oldSelf.value().mode == self.mode : true\n"
	if notes != wantNotes {
		t.Errorf("notes:\n%s\nwant:\n%s", notes, wantNotes)
	}

	// No custom resource of the CRD: its rules went unchecked by no one, no notes.
	v = newValidator(t)
	if _, notes := validateFiles(t, v, []string{broken}, []string{gizmoCRD}); notes != "" {
		t.Errorf("notes without a Gizmo:\n%s", notes)
	}
}

// TestRefusedCRDApart: a CRD given apart (--crd) that the server refuses is an error naming
// the CRD's file and the line and text of each rule.
func TestRefusedCRDApart(t *testing.T) {
	v := newValidator(t)
	_, err := v.ValidateFiles([]string{gizmos}, []string{costlyCRD})
	rule := costlyCRD + ":26: CustomResourceDefinition/costlies.example.com: spec.validation.openAPIV3Schema.properties[spec].properties[words].x-kubernetes-validations[0].rule: "
	for _, w := range []string{
		costlyCRD + ": the API server refuses the CustomResourceDefinition costlies.example.com:\n",
		costlyCRD + ":16: CustomResourceDefinition/costlies.example.com: spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget",
		rule + "Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema (rule: self.all(",
		rule + "Forbidden: estimated rule cost exceeds budget by factor of more than 100x",
		"maxLength where arrays, maps, and strings are declared) (rule: self.all(x, self.all(y, self.all(z, x.contains(y) || y.contains(z)))))",
	} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v\nwant it to say %q", err, w)
		}
	}
	// AddCRDs refuses it alike.
	objs, err := Read([]string{costlyCRD})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.AddCRDs(objs); err == nil || !strings.Contains(err.Error(), rule) {
		t.Errorf("AddCRDs: %v", err)
	}
}

// TestGatewayAPI: real CRDs (Gateway API's standard ones, testdata/gateway-api), their CEL
// rules' messages at the fields they name.
func TestGatewayAPI(t *testing.T) {
	v := newValidator(t)
	routes := filepath.Join(t.TempDir(), "routes.yaml")
	if err := os.WriteFile(routes, []byte(`apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: gc
  listeners:
  - {name: http, protocol: HTTP, port: 80}
  - {name: http, protocol: HTTP, port: 8080}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: route, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - matches: [{path: {type: PathPrefix, value: api}}]
    backendRefs: [{name: api, port: 8080}]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	errs, notes := validateFiles(t, v, []string{routes}, []string{filepath.Join("testdata", "gateway-api")})
	want := routes + `:8: Gateway/infra/gw: spec.listeners[1]: Duplicate value: the same as spec.listeners[0] (x-kubernetes-list-type: map)
` + routes + `:6: Gateway/infra/gw: spec.listeners: Invalid value: Listener name must be unique within the Gateway
` + routes + `:16: HTTPRoute/shop/route: spec.rules[0].matches[0].path: Invalid value: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']
`
	if errs != want || notes != "" {
		t.Errorf("errors:\n%s\nwant:\n%s\nnotes:\n%s", errs, want, notes)
	}
}

// TestWithoutChecker: a krm without the server's code (krm_nohelm) checks what the walk
// checks, and notes, once, that the rest is not checked.
func TestWithoutChecker(t *testing.T) {
	v := newValidator(t)
	v.newChecker = func(bool) (crdsupport.Checker, error) { return nil, nil }
	errs, notes := validateFiles(t, v, []string{gizmos, broken}, []string{gizmoCRD})
	want := gizmos + `:11: Gizmo/bad: spec.size: Invalid value: must be of type integer, not string "3"
` + gizmos + `:23: Gizmo/rules: spec.tags[1]: Duplicate value: the same as spec.tags[0] (x-kubernetes-list-type: set)
`
	if errs != want {
		t.Errorf("errors:\n%s\nwant:\n%s", errs, want)
	}
	if want := "note: CustomResourceDefinitions: " + uncheckedNote + "\n"; notes != want {
		t.Errorf("notes:\n%s\nwant:\n%s", notes, want)
	}
	// No CRD, no note.
	v = newValidator(t)
	v.newChecker = func(bool) (crdsupport.Checker, error) { return nil, nil }
	if _, notes := validateFiles(t, v, []string{configMap(t)}, nil); notes != "" {
		t.Errorf("notes without CRDs: %s", notes)
	}
}

// TestCheckerMadeAtFirstCRD: the checker is made once, at the first CRD, told that files can
// be read again; with a pipe among the inputs it is made first, before anything is read (the
// default build hands the command to krm_helm then: the pipe has no writer here, so reading
// it would wait for ever), and its error ends the run.
func TestCheckerMadeAtFirstCRD(t *testing.T) {
	var calls []bool
	v := newValidator(t)
	v.newChecker = func(replayable bool) (crdsupport.Checker, error) {
		calls = append(calls, replayable)
		return nil, nil
	}
	validateFiles(t, v, []string{configMap(t)}, nil)
	if len(calls) != 0 {
		t.Errorf("checker made without a CRD: %v", calls)
	}
	validateFiles(t, v, []string{gizmos, broken}, []string{gizmoCRD})
	if len(calls) != 1 || !calls[0] {
		t.Errorf("checker made %v, want once, replayable", calls)
	}

	pipe := filepath.Join(t.TempDir(), "pipe.yaml")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	handedOver := errors.New("handed over")
	v = newValidator(t)
	calls = nil
	v.newChecker = func(replayable bool) (crdsupport.Checker, error) {
		calls = append(calls, replayable)
		return nil, handedOver
	}
	done := make(chan error, 1)
	go func() {
		_, err := v.ValidateFiles([]string{gizmos, pipe}, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, handedOver) || len(calls) != 1 || calls[0] {
			t.Errorf("ValidateFiles: %v, checker made %v; want the checker's error, made once, not replayable", err, calls)
		}
	case <-time.After(time.Minute):
		t.Fatal("ValidateFiles opened the pipe before making the checker")
	}
}

// configMap is a file of one object, not a CRD.
func configMap(t *testing.T) string {
	f := filepath.Join(t.TempDir(), "cm.yaml")
	if err := os.WriteFile(f, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestResolve: field paths as the server writes them, to nodes and fieldsource's elements.
func TestResolve(t *testing.T) {
	n, err := yaml.Parse(`spec:
  labels: {app.kubernetes.io/name: web}
  ports:
  - {name: a, port: 1}
  - {name: b}
`)
	if err != nil {
		t.Fatal(err)
	}
	root := n.YNode()
	for _, c := range []struct {
		path  string
		line  int    // of the line node
		value string // the value's, "" for none
		elems int
	}{
		{"", 1, "map", 0},
		{"spec.labels[app.kubernetes.io/name]", 2, "web", 3},
		{"spec.ports[1].name", 5, "b", 4},
		{"spec.ports[1].port", 5, "", 4},  // missing: the item's line
		{"spec.ports[7].name", 3, "", 2},  // no such item: the list's key
		{"spec.nothing.deeper", 1, "", 3}, // missing: spec's key
	} {
		line, value, elems := resolve(root, c.path)
		got := ""
		switch {
		case value == nil:
		case value.Kind == yaml.MappingNode:
			got = "map"
		default:
			got = value.Value
		}
		if line.Line != c.line || got != c.value || len(elems) != c.elems {
			t.Errorf("resolve(%q): line %d, value %q, %d elements; want %d, %q, %d", c.path, line.Line, got, len(elems), c.line, c.value, c.elems)
		}
		if c.elems > 1 && elems[1] != fieldsource.Key(strings.FieldsFunc(c.path, func(r rune) bool { return r == '.' || r == '[' })[1]) {
			t.Errorf("resolve(%q): second element %+v", c.path, elems[1])
		}
	}
}

// TestServerErrorsHideSecrets: a server error at a Secret value (here a string holding a
// Secret manifest) says its kind of error, never the value nor the server's words about it.
func TestServerErrorsHideSecrets(t *testing.T) {
	v := newValidator(t)
	f := filepath.Join(t.TempDir(), "g.yaml")
	if err := os.WriteFile(f, []byte("apiVersion: example.com/v1\nkind: Gizmo\nmetadata: {name: g}\nspec:\n  size: 3\n  handle: 'kind: Secret, password: hunter2'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	errs, _ := validateFiles(t, v, []string{f}, []string{gizmoCRD})
	if want := f + ":6: Gizmo/g: spec.handle: Invalid value: (Secret value hidden)\n"; errs != want {
		t.Errorf("errors:\n%s\nwant:\n%s", errs, want)
	}
}

// The notes follow the errors in text, as "note:" lines before the summary, and are the first
// suite's system-out in JUnit.
func TestReportNotes(t *testing.T) {
	results := []Result{{Object: "Gizmo/g", File: "g.yaml", Errors: []Error{{File: "g.yaml", Line: 3, Object: "Gizmo/g", Field: "spec", Msg: "Invalid value: no"}}}}
	notes := []Error{{File: "crd.yaml", Line: 9, Object: "CustomResourceDefinition/gizmos.example.com", Field: "spec.versions[0]", Msg: "not checked"}}
	var text, junit strings.Builder
	if err := WriteText(&text, results, notes); err != nil {
		t.Fatal(err)
	}
	const want = "g.yaml:3: Gizmo/g: spec: Invalid value: no\nnote: crd.yaml:9: CustomResourceDefinition/gizmos.example.com: spec.versions[0]: not checked\n1 objects, 1 invalid\n"
	if text.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), want)
	}
	if err := WriteJUnit(&junit, results, notes); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(junit.String(), "<system-out>note: crd.yaml:9: CustomResourceDefinition/gizmos.example.com: spec.versions[0]: not checked</system-out>") {
		t.Errorf("junit:\n%s", junit.String())
	}
}

// A CRD among the objects gets the server's validation of a CRD after the walk's, each error
// once: the walk's Required value, the server's rule that the name is plural.group.
func TestCRDObjectChecked(t *testing.T) {
	objs, err := Parse("crd.yaml", []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Thing}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
`))
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(t)
	const want = `crd.yaml:7: CustomResourceDefinition/things.example.com: spec.names.plural: Required value
crd.yaml:3: CustomResourceDefinition/things.example.com: metadata.name: Invalid value: "things.example.com": must be spec.names.plural+"."+spec.group
`
	if got := errorLines(v.Validate(objs)); got != want {
		t.Errorf("errors:\n%s\nwant:\n%s", got, want)
	}
}
