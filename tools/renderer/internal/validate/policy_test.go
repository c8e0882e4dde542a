package validate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/policysupport"
)

// The policies of testdata/policy: replicas.yaml (params, variables, messageExpression, a
// namespaceSelector), others.yaml (Warn and Audit, excluded resources, an objectSelector,
// matchConditions, a rule over the cost limit, a message built from a Secret, bindings of a
// missing policy and of one matching nothing), broken.yaml (does not compile), noparams.yaml
// (a binding whose params are not among the inputs).
var (
	replicasPolicy = filepath.Join("testdata", "policy", "replicas.yaml")
	otherPolicies  = filepath.Join("testdata", "policy", "others.yaml")
	brokenPolicy   = filepath.Join("testdata", "policy", "broken.yaml")
	noParams       = filepath.Join("testdata", "policy", "noparams.yaml")
	policyObjects  = filepath.Join("testdata", "policy", "objects.yaml")
)

func policyValidator(t *testing.T, policies []string, nsLabels map[string]map[string]string) *Validator {
	t.Helper()
	v, err := New(Options{PolicyFiles: policies, NamespaceLabels: nsLabels})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPolicies: each policy's decision on each object, in the server's words, at the line of
// the field its failed validation reads; Warn and Audit are notes; what needs a namespace not
// among the inputs is noted as not evaluated, and evaluated once its labels are given.
func TestPolicies(t *testing.T) {
	costly := `ConfigMap/prod/c: ValidatingAdmissionPolicy 'costly' with binding 'costly' denied request: expression '[1,2,3,4,5,6,7,8,9,10].all(a, ` +
		`[1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, ` +
		`[1,2,3,4,5,6,7,8,9,10].all(f, a+b+c+d+e+f > 0))))))' resulted in error: operation cancelled: actual cost limit exceeded`
	wantErrs := policyObjects + `:9: Deployment/prod/web: spec.replicas: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-prod' denied request: replicas must be at most 5, not 7
` + policyObjects + `:66: ` + costly + `
` + policyObjects + `:72: Secret/prod/s: metadata.labels: ValidatingAdmissionPolicy 'team-label' with binding 'team-label' denied request: Secret s needs a team label; its token is (Secret value hidden)
`
	noLatest := "spec.template.spec.containers: %s no image may use the tag latest\n"
	warn := "note: " + policyObjects + ":14: Deployment/prod/web: " + strings.Replace(noLatest, "%s", "warning: Validation failed for ValidatingAdmissionPolicy 'no-latest' with binding 'no-latest-warn':", 1)
	audit := "note: " + policyObjects + ":14: Deployment/prod/web: " + strings.Replace(noLatest, "%s", "audit: ValidatingAdmissionPolicy 'no-latest' with binding 'no-latest-warn' failed (validationActions Audit: recorded in the audit log, admitted):", 1)
	orphan := "note: ValidatingAdmissionPolicyBinding: binding 'orphan' names the ValidatingAdmissionPolicy 'not-there', which is neither among the inputs nor in --policy (or is refused): not evaluated\n"
	devUnknown := func(b string) string {
		return "note: " + policyObjects + ":17: Deployment/dev/api: ValidatingAdmissionPolicy 'max-replicas' with binding '" + b +
			"' not evaluated for 1 object(s) (this one the first): the binding's matchResources.namespaceSelector needs the labels of the Namespace dev, " +
			"which is not among the inputs (give them with --namespace-labels dev=KEY=VALUE,...)\n"
	}
	policies := []string{replicasPolicy, otherPolicies}

	v := policyValidator(t, policies, nil)
	errs, notes := validateFiles(t, v, []string{policyObjects}, nil)
	if errs != wantErrs {
		t.Errorf("errors:\n%s\nwant:\n%s", errs, wantErrs)
	}
	if want := orphan + audit + warn + devUnknown("max-replicas-prod") + devUnknown("replicas-nowhere"); notes != want {
		t.Errorf("notes:\n%s\nwant:\n%s", notes, want)
	}

	// With the labels of dev given, dev's Deployment is evaluated (and passes), and the
	// binding of env=nowhere matches nothing.
	v = policyValidator(t, policies, map[string]map[string]string{"dev": {"env": "dev"}})
	errs, notes = validateFiles(t, v, []string{policyObjects}, nil)
	if errs != wantErrs {
		t.Errorf("with dev's labels: errors:\n%s\nwant:\n%s", errs, wantErrs)
	}
	nowhere := "note: ValidatingAdmissionPolicyBinding: binding 'replicas-nowhere' of ValidatingAdmissionPolicy 'max-replicas' matched no object\n"
	if want := orphan + nowhere + audit + warn; notes != want {
		t.Errorf("with dev's labels: notes:\n%s\nwant:\n%s", notes, want)
	}

	// The labels of dev as prod's: the replicas rule applies there too (2 <= 5: admitted).
	v = policyValidator(t, policies, map[string]map[string]string{"dev": {"env": "prod"}})
	if errs, _ = validateFiles(t, v, []string{policyObjects}, nil); errs != wantErrs {
		t.Errorf("dev labelled env=prod: errors:\n%s\nwant:\n%s", errs, wantErrs)
	}
}

// TestPoliciesAmongObjects: policies, bindings and params among the validated objects apply
// as those of --policy do, whatever their order (the params here come before their policy).
func TestPoliciesAmongObjects(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(replicasPolicy)
	if err != nil {
		t.Fatal(err)
	}
	docs := strings.Split(string(data), "---\n")
	params := filepath.Join(dir, "0-params.yaml")
	writeTestFile(t, params, docs[2])
	rest := filepath.Join(dir, "1-policy.yaml")
	writeTestFile(t, rest, docs[0]+"---\n"+docs[1])
	v := policyValidator(t, nil, nil)
	errs, _ := validateFiles(t, v, []string{params, policyObjects, rest}, nil)
	want := policyObjects + ":9: Deployment/prod/web: spec.replicas: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-prod' denied request: replicas must be at most 5, not 7\n"
	if errs != want {
		t.Errorf("errors:\n%s\nwant:\n%s", errs, want)
	}
}

// TestPolicyMissingParams: a binding whose params are not among the inputs is not evaluated
// (the cluster may have them), and says which params it needs.
func TestPolicyMissingParams(t *testing.T) {
	v := policyValidator(t, []string{replicasPolicy, noParams}, nil)
	errs, notes := validateFiles(t, v, []string{policyObjects}, nil)
	if !strings.Contains(errs, "with binding 'max-replicas-prod' denied request: replicas must be at most 5") {
		t.Errorf("errors:\n%s", errs)
	}
	want := "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-elsewhere' not evaluated for 5 object(s) (this one the first): its params (ConfigMap policies/other-limits) are not among the inputs"
	if !strings.Contains(notes, "Deployment/prod/web: "+want) {
		t.Errorf("notes:\n%s\nwant one with:\n%s", notes, want)
	}
}

// TestPolicyRefused: a --policy whose expression does not compile ends the run with the
// server's error at the file and line of the expression; one among the objects is invalid
// there, and not evaluated.
func TestPolicyRefused(t *testing.T) {
	v := policyValidator(t, []string{brokenPolicy}, nil)
	_, err := v.ValidateFiles([]string{policyObjects}, nil)
	var pe *PolicyFileError
	want := brokenPolicy + ": the API server refuses the ValidatingAdmissionPolicy broken:\n" + brokenPolicy +
		`:9: ValidatingAdmissionPolicy/broken: spec.validations[0].expression: Invalid value: "object.data.x ==": compilation failed: ERROR: <input>:1:17: Syntax error: mismatched input '<EOF>'`
	if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err %v; want a PolicyFileError starting\n%s", err, want)
	}
	v = policyValidator(t, nil, nil)
	errs, _ := validateFiles(t, v, []string{brokenPolicy, policyObjects}, nil)
	if !strings.HasPrefix(errs, brokenPolicy+`:9: ValidatingAdmissionPolicy/broken: spec.validations[0].expression: Invalid value: "object.data.x ==": compilation failed:`) ||
		strings.Count(errs, "\n") != 1 {
		t.Errorf("errors:\n%s", errs)
	}
	// A --policy that is not a valid object by its schema is refused too.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	writeTestFile(t, bad, "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec: {policyName: p, validationActons: [Deny]}\n")
	v = policyValidator(t, []string{bad}, nil)
	if _, err := v.ValidateFiles([]string{policyObjects}, nil); !errors.As(err, &pe) || !strings.Contains(err.Error(), `bad.yaml:4: ValidatingAdmissionPolicyBinding/b: spec.validationActons: unknown field`) {
		t.Errorf("a binding with an unknown field: %v", err)
	}
	if _, err := policyValidator(t, []string{filepath.Join(t.TempDir(), "missing")}, nil).ValidateFiles([]string{policyObjects}, nil); !errors.As(err, &pe) {
		t.Errorf("a missing --policy: %v", err)
	}
}

// TestPoliciesWithoutChecker: a krm without the server's code (krm_nohelm) refuses --policy
// and notes that the policies among the objects are not evaluated; its checker is made at
// the start with --policy (the default build hands the command over before reading).
func TestPoliciesWithoutChecker(t *testing.T) {
	none := func() (policysupport.Checker, error) { return nil, nil }
	v := policyValidator(t, []string{replicasPolicy}, nil)
	v.newPolicyChecker = none
	var pe *PolicyFileError
	if _, err := v.ValidateFiles([]string{policyObjects}, nil); !errors.As(err, &pe) || !strings.Contains(err.Error(), uncheckedPolicyNote) {
		t.Errorf("--policy without a checker: %v", err)
	}
	v = policyValidator(t, nil, nil)
	v.newPolicyChecker = none
	if _, notes := validateFiles(t, v, []string{replicasPolicy, policyObjects}, nil); notes != "note: ValidatingAdmissionPolicies: "+uncheckedPolicyNote+"\n" {
		t.Errorf("notes: %s", notes)
	}
	handedOff := errors.New("handed to krm_helm")
	v = policyValidator(t, []string{replicasPolicy}, nil)
	v.newPolicyChecker = func() (policysupport.Checker, error) { return nil, handedOff }
	v.trace = func(o Object, _ int) { t.Errorf("read %s before the checker was made", o.File) }
	if _, err := v.ValidateFiles([]string{policyObjects}, nil); !errors.Is(err, handedOff) {
		t.Errorf("--policy: the checker's error first: %v", err)
	}
	// No policy, no checker made.
	v = policyValidator(t, nil, nil)
	v.newPolicyChecker = func() (policysupport.Checker, error) { t.Error("checker made without policies"); return nil, nil }
	validateFiles(t, v, []string{policyObjects}, nil)
}

func TestParseNamespaceLabels(t *testing.T) {
	for in, want := range map[string]string{
		"prod=env=prod,tier=web": "prod map[env:prod tier:web]",
		"dev=":                   "dev map[]",
		"=env=prod":              `"=env=prod": want NAMESPACE=KEY=VALUE,... (NAMESPACE= for a namespace without labels)`,
		"prod":                   `"prod": want NAMESPACE=KEY=VALUE,...`,
		"prod=env":               `"prod=env": label "env": want KEY=VALUE`,
	} {
		ns, labels, err := ParseNamespaceLabels(in)
		got := ns + " " + fmtMap(labels)
		if err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, want) {
			t.Errorf("ParseNamespaceLabels(%q) = %s, want %s", in, got, want)
		}
	}
}

func fmtMap(m map[string]string) string {
	var parts []string
	for _, k := range []string{"env", "tier"} {
		if v, ok := m[k]; ok {
			parts = append(parts, k+":"+v)
		}
	}
	return "map[" + strings.Join(parts, " ") + "]"
}

func writeTestFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
