package crdcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/crdsupport"
)

// readCRD reads a CRD of testdata with the checker.
func readCRD(t *testing.T, name string) (crdsupport.CRD, []crdsupport.Error) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	c, errs, err := Checker{}.CRD(j)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return c, errs
}

// lines are errors as FIELD: BODY, a line each.
func lines(errs []crdsupport.Error) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(e.Field + ": " + e.Body + "\n")
	}
	return b.String()
}

// The CRDs the server refuses, for the reasons it gives, at the rule (and where it is written:
// the internal version's spec.validation is the first version's schema), sorted by field.
func TestCRD(t *testing.T) {
	const rule = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"
	for _, c := range []struct {
		file string
		want []string // FIELD: substring, in order
		at   string   // where the first is written
	}{
		{"gizmo-crd.yaml", nil, ""},
		{"costly-crd.yaml", []string{
			"spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget",
			"spec.validation.openAPIV3Schema.properties[spec].properties[words].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit",
			"spec.validation.openAPIV3Schema.properties[spec].properties[words].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x",
		}, "spec.versions[0].schema.openAPIV3Schema"},
		{"broken-crd.yaml", []string{rule + `: Invalid value: {"Rule":"self.size \u003e 'three'"`, "compilation failed: ERROR: <input>:1:11: found no matching overload for '_>_' applied to '(int, string)'"},
			"spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"},
	} {
		_, errs := readCRD(t, c.file)
		got := lines(errs)
		rest := got
		for _, w := range c.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s: no %q (in order) in:\n%s", c.file, w, got)
				break
			}
			rest = rest[i+len(w):]
		}
		if len(c.want) == 0 && len(errs) > 0 {
			t.Errorf("%s: want no errors, got:\n%s", c.file, got)
		}
		if c.at != "" && (len(errs) == 0 || errs[0].At != c.at) {
			t.Errorf("%s: first error at %+v, want At %s", c.file, errs, c.at)
		}
	}
}

// Custom resources of gizmo-crd.yaml: what the server's create says of each (agreement_test.go
// in package validate holds them against kube-apiserver).
func TestValidate(t *testing.T) {
	crd, errs := readCRD(t, "gizmo-crd.yaml")
	if len(errs) > 0 {
		t.Fatalf("gizmo-crd.yaml refused:\n%s", lines(errs))
	}
	const blocked = ": Invalid value: null: some validation rules were not checked because the object was invalid"
	for _, c := range []struct {
		name, spec string
		meta       string   // metadata; "" for {name: g}
		extra      string   // more top-level fields
		want       []string // FIELD: BODY prefixes, exactly these
	}{
		{"valid", "{size: 3}", "", "", nil},
		{"defaults, then CEL with fieldPath", "{size: 3, minReplicas: 5}", "", "", []string{"spec.minReplicas: Invalid value: minReplicas must not exceed maxReplicas"}},
		{"messageExpression and reason", "{size: 3, owner: bob}", "", "", []string{"spec: Forbidden: owner bob must start with team-"}},
		{"CEL on list items", "{size: 3, ports: [{name: admin, port: 8080}]}", "", "", []string{"spec.ports[0]: Invalid value: the admin port must be privileged"}},
		{"bounds", "{size: 30}", "", "", []string{"spec.size: Invalid value: 30: spec.size in body should be less than or equal to 10"}},
		{"pattern and minLength", "{size: 3, handle: X1}", "", "", []string{"spec.handle: Invalid value: \"X1\": spec.handle in body should match '^[a-z]+$'"}},
		{"maxLength blocks CEL", "{size: 3, owner: team-abcdefghijklmnopqrstuvwxyz}", "", "", []string{"spec.owner: Too long: may not be more than 20 bytes", blocked}},
		{"enum", "{size: 3, mode: medium}", "", "", []string{`spec.mode: Unsupported value: "medium": supported values: "fast", "slow"`, blocked}},
		{"format", "{size: 3, address: 1.2.3}", "", "", []string{`spec.address: Invalid value: "1.2.3": spec.address in body must be of type ipv4: "1.2.3"`, blocked}},
		{"maxItems and maxProperties", "{size: 3, tags: [a, b, c, d], labels: {a: b, c: d, e: f}}", "", "", []string{
			"spec.labels: Too many: 3: must have at most 2 items", "spec.tags: Too many: 4: must have at most 3 items", blocked}},
		{"list types", "{size: 3, tags: [a, a], ports: [{name: x}, {name: x}]}", "", "", []string{
			`spec.ports[1]: Duplicate value: {"name":"x"}`, `spec.tags[1]: Duplicate value: "a"`}},
		{"required", "{minReplicas: 1}", "", "", []string{"spec.size: Required value", blocked}},
		{"metadata", "{size: 3}", `{name: Bad_Name, labels: {"a b": x}}`, "", []string{`metadata.labels: Invalid value: "a b"`, `metadata.name: Invalid value: "Bad_Name"`}},
		{"generateName", "{size: 3}", "{generateName: g-}", "", nil},
		{"unknown fields pruned", "{size: 3, colour: red}", "", "", nil},
		{"status dropped on create", "{size: 3}", "", "status: {ready: false}", nil},
	} {
		meta := c.meta
		if meta == "" {
			meta = "{name: g}"
		}
		j, err := yaml.YAMLToJSON([]byte("apiVersion: example.com/v1\nkind: Gizmo\nmetadata: " + meta + "\nspec: " + c.spec + "\n" + c.extra + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		errs := crd.Validate(j)
		got := lines(errs)
		if len(errs) != len(c.want) {
			t.Errorf("%s: got %d errors, want %d:\n%s", c.name, len(errs), len(c.want), got)
			continue
		}
		for i, w := range c.want {
			if e := errs[i].Field + ": " + errs[i].Body; !strings.HasPrefix(e, w) {
				t.Errorf("%s: error %d is %q, want %q...", c.name, i, e, w)
			}
		}
	}
}

// The transition rules are the notes, once each, where they are written; the rest are none.
func TestUnchecked(t *testing.T) {
	crd, _ := readCRD(t, "gizmo-crd.yaml")
	const at = "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations"
	want := []crdsupport.Note{
		{Field: at + "[2]", Rule: "self.size == oldSelf.size", Text: TransitionNote},
		{Field: at + "[3]", Rule: "oldSelf.hasValue() ? oldSelf.value().mode == self.mode : true", Text: OptionalTransitionNote},
	}
	got := crd.Unchecked("v1")
	if len(got) != len(want) {
		t.Fatalf("notes %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("note %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if n := crd.Unchecked("v2"); n != nil {
		t.Errorf("notes of a version the CRD lacks: %+v", n)
	}
	for rule, want := range map[string]bool{"self.a == oldSelf.a": true, "self.oldSelfish == 1": false, "'oldSelf' == self.x": false} {
		if got := usesOldSelf(rule); got != want {
			t.Errorf("usesOldSelf(%q) = %v, want %v", rule, got, want)
		}
	}
}

// Registered by init, as the full renderer links it.
func TestRegistered(t *testing.T) {
	c, err := crdsupport.New(false)
	if err != nil || c == nil {
		t.Fatalf("crdsupport.New: %v, %v", c, err)
	}
	if _, ok := c.(Checker); !ok {
		t.Errorf("crdsupport.New gives %T, want crdcheck's Checker", c)
	}
}

// A CRD or custom resource the server cannot decode is one error of the object, as its 400.
func TestUndecodable(t *testing.T) {
	c, errs, err := Checker{}.CRD([]byte(`{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "spec": {"versions": "v1"}}`))
	if err != nil || c != nil || len(errs) != 1 || errs[0].Field != "" || !strings.Contains(errs[0].Body, "cannot unmarshal string") {
		t.Errorf("CRD: %v, %+v, %v", c, errs, err)
	}
	crd, _ := readCRD(t, "gizmo-crd.yaml")
	if errs := crd.Validate([]byte(`{"apiVersion": "example.com/v1", "kind": "Gizmo", "spec": [`)); len(errs) != 1 || errs[0].Kind != "Invalid value" {
		t.Errorf("Validate: %+v", errs)
	}
}
