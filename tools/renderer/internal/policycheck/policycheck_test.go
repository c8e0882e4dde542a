package policycheck

import (
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/policysupport"
)

// The policies are evaluated through package validate in its tests (policy_test.go and the
// agreement test); these test what policycheck adds to the server's code.

// TestObjectFields: the fields a validation reads, the most specific first, through variables.
func TestObjectFields(t *testing.T) {
	vars := map[string][]string{"containers": {"spec.template.spec.containers", "kind"}}
	for expr, want := range map[string]string{
		"object.spec.replicas <= 5":                                                            "spec.replicas",
		"has(object.metadata.labels) && 'team' in object.metadata.labels":                      "metadata.labels",
		"variables.containers.all(c, c.image.startsWith('r/'))":                                "spec.template.spec.containers kind",
		"object.kind == 'Pod' ? object.spec.containers : object.spec.template.spec.containers": "spec.template.spec.containers spec.containers kind",
		"params.max > 1":   "",
		"object.data.x ==": "", // does not parse: its compile error says so
	} {
		if got := strings.Join(objectFields(expr, vars), " "); got != want {
			t.Errorf("objectFields(%q) = %q, want %q", expr, got, want)
		}
	}
}

// TestLoadRefusesAndDefaults: a policy whose expression does not compile is refused at the
// expression's field, as the server's create refuses it; one without matchConstraints too; a
// valid one is loaded with the server's defaults (failurePolicy Fail).
func TestLoadRefusesAndDefaults(t *testing.T) {
	policy := func(name, spec string) policysupport.Object {
		return policysupport.Object{JSON: []byte(`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"` + name + `"},"spec":` + spec + `}`)}
	}
	rules := `"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}]}`
	in := policysupport.Inputs{Policies: []policysupport.Object{
		policy("syntax", `{`+rules+`,"validations":[{"expression":"object.x =="}]}`),
		policy("type", `{`+rules+`,"validations":[{"expression":"true","messageExpression":"1"}]}`),
		policy("no-rules", `{"validations":[{"expression":"true"}]}`),
		policy("ok", `{`+rules+`,"validations":[{"expression":"object.metadata.name != 'bad'"}]}`),
	}}
	for i := range in.Policies {
		in.Policies[i].Index = i
	}
	in.Bindings = []policysupport.Object{{JSON: []byte(`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"b"},"spec":{"policyName":"ok","validationActions":["Deny"]}}`)}}
	set, refused, err := Checker{}.Load(in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range refused {
		got = append(got, r.Field+": "+r.Message)
	}
	want := []string{
		`spec.validations[0].expression: Invalid value: "object.x ==": compilation failed: ERROR: <input>:1:12: Syntax error:`,
		`spec.validations[0].messageExpression: Invalid value: "1": must evaluate to string but got int`,
		`spec.matchConstraints: Required value`,
	}
	if len(got) != len(want) {
		t.Fatalf("refused:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("refusal %d: %s\nwant it to start %s", i, got[i], want[i])
		}
	}
	d := set.Evaluate([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bad","namespace":"x"}}`))
	if len(d) != 1 || d[0].Action != policysupport.Deny || d[0].Message != "ValidatingAdmissionPolicy 'ok' with binding 'b' denied request: failed expression: object.metadata.name != 'bad'" {
		t.Errorf("decisions: %+v", d)
	}
	if d := set.Evaluate([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"good"}}`)); len(d) != 0 {
		t.Errorf("a good ConfigMap: %+v", d)
	}
	if u := set.Unmatched(); len(u) != 0 {
		t.Errorf("unmatched: %q", u)
	}
}
