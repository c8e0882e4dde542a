//go:build apiserver

package validate

// The policies' agreement test: the ValidatingAdmissionPolicies of testdata/policy-agreement
// created and bound in a real kube-apiserver (dev/testing/apiserver), then every case sent
// as a server-side dry-run create, and krm validate --policy run on the same case. The
// server's answer is the oracle: krm denies exactly what it denies (a policy Deny error of
// krm's is in the server's 403 or 422 message), warns exactly as it warns (the Warning
// headers), and refuses exactly the policies it refuses on create (refused.yaml).
//
// Excluded, by rule (what cannot be known offline):
//   - namespace-unknown: krm notes the policy as not evaluated because the case's Namespace
//     is not among its inputs (vap-hidden, which the server has);
//   - params-unknown: krm notes it as not evaluated because the binding's params are not
//     among its inputs (the server denies or admits by parameterNotFoundAction).
// The test waits until the server enforces every policy (each sentinel case is denied or
// warned about) before comparing: bindings and params reach the admission plugin through
// informers, not at once.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/dev/testing/apiserver"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/policycheck"
)

var policyCorpus = filepath.Join("testdata", "policy-agreement")

func TestPolicyAgreementWithAPIServer(t *testing.T) {
	start := time.Now()
	s := apiserver.Shared(t)
	c := &client{s: s, hc: s.Client()}
	c.hc.Timeout = 30 * time.Second
	policies := filepath.Join(policyCorpus, "policies.yaml")
	setup, err := Read([]string{policies, filepath.Join(policyCorpus, "hidden.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	kinds := c.discover(t)
	for _, o := range setup { // Namespaces first: the params live in one
		if str(o.Node, "kind") == "Namespace" {
			c.create(t, kinds, o)
			// A Pod's create needs its ServiceAccount (a cluster's controller makes it).
			sa := `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default"}}`
			ns := str(field(o.Node, "metadata"), "name")
			if code, body := c.do(t, http.MethodPost, "/api/v1/namespaces/"+ns+"/serviceaccounts", []byte(sa)); code != http.StatusCreated && code != http.StatusConflict {
				t.Fatalf("ServiceAccount of %s: %d %s", ns, code, body)
			}
		}
	}
	for _, o := range setup {
		if str(o.Node, "kind") != "Namespace" {
			c.create(t, kinds, o)
		}
	}
	cases, err := Read([]string{filepath.Join(policyCorpus, "cases.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	c.waitEnforced(t, kinds, cases)
	enforced := time.Since(start)

	var agreed, excludedNS, excludedParams int
	var disagreements []string
	for _, k := range cases {
		got := krmOnPolicies(t, []string{policies}, k)
		answer := c.policyDryRun(t, kinds, k)
		name := objectName(k.Node)
		switch {
		case got.notEvaluated != "" && strings.Contains(got.notEvaluated, "needs the labels of the Namespace"):
			excludedNS++
			t.Logf("excluded (namespace-unknown): %s: server %d %.200s", name, answer.code, answer.message)
			continue
		case got.notEvaluated != "" && strings.Contains(got.notEvaluated, "are not among the inputs"):
			excludedParams++
			t.Logf("excluded (params-unknown): %s: server %d %.200s", name, answer.code, answer.message)
			continue
		}
		serverDenied := answer.code == http.StatusForbidden || answer.code == http.StatusUnprocessableEntity
		if answer.code/100 != 2 && !serverDenied {
			t.Fatalf("%s: unexpected answer %d: %s", name, answer.code, answer.message)
		}
		var why []string
		if serverDenied != (len(got.denied) > 0) {
			why = append(why, fmt.Sprintf("krm denies %q, the server answers %d %s", got.denied, answer.code, answer.message))
		} else if serverDenied && !slices.ContainsFunc(got.denied, func(m string) bool { return strings.Contains(answer.message, m) }) {
			why = append(why, fmt.Sprintf("krm's reasons %q are not the server's: %s", got.denied, answer.message))
		}
		if !slices.Equal(got.warnings, answer.warnings) {
			why = append(why, fmt.Sprintf("krm warns %q, the server %q", got.warnings, answer.warnings))
		}
		if len(got.schema) > 0 {
			why = append(why, fmt.Sprintf("krm finds the case invalid by its schema: %q", got.schema))
		}
		if len(why) > 0 {
			disagreements = append(disagreements, name+": "+strings.Join(why, "; "))
			continue
		}
		agreed++
	}

	// The policies the server refuses on create, and one it accepts: krm says the same.
	refused, err := Read([]string{filepath.Join(policyCorpus, "refused.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range refused {
		code, body := c.do(t, http.MethodPost, "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies?dryRun=All", yamlnode.JSON(o.Node))
		var st struct{ Message string }
		json.Unmarshal(body, &st)
		errs := krmRefuses(t, o)
		name := objectName(o.Node)
		switch {
		case code == http.StatusCreated && len(errs) == 0:
			agreed++
		case code == http.StatusUnprocessableEntity && len(errs) > 0 && slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(st.Message, e) }):
			agreed++
		default:
			disagreements = append(disagreements, fmt.Sprintf("%s: krm refuses it with %q, the server answers %d %s", name, errs, code, st.Message))
		}
	}
	for _, d := range disagreements {
		t.Errorf("disagreement: %s", d)
	}
	total := len(cases) + len(refused)
	t.Logf("policy agreement: %d cases, %d agreed, %d disagreed; excluded by rule: namespace-unknown %d, params-unknown %d (enforced after %s, all in %s)",
		total, agreed, len(disagreements), excludedNS, excludedParams, enforced.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	fmt.Printf("policy agreement: %d cases, %d agreed, %d disagreed, excluded: namespace-unknown %d, params-unknown %d\n",
		total, agreed, len(disagreements), excludedNS, excludedParams)
	if excludedNS != 2 || excludedParams != 2 {
		t.Errorf("excluded %d by namespace-unknown and %d by params-unknown, want the 2 and 2 cases written for them", excludedNS, excludedParams)
	}
}

// TestBuiltinKindsAreTheServers: policycheck's table of the built-in kinds' resources and
// scopes is the server's discovery.
func TestBuiltinKindsAreTheServers(t *testing.T) {
	s := apiserver.Shared(t)
	c := &client{s: s, hc: s.Client()}
	served := c.discover(t)
	builtin := policycheck.BuiltinKinds()
	for k, want := range builtin {
		got, ok := served[k[0]+"/"+k[1]]
		if !ok || got.name != want.Resource || got.namespaced != want.Namespaced {
			t.Errorf("%s %s: policycheck says %+v, the server serves %+v (%v)", k[0], k[1], want, got, ok)
		}
	}
	// The kinds of CRDs (other tests of the binary create some) are not built in.
	_, body := c.do(t, http.MethodGet, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", nil)
	var crds struct {
		Items []struct {
			Spec struct{ Group string }
		}
	}
	if err := json.Unmarshal(body, &crds); err != nil {
		t.Fatal(err)
	}
	custom := map[string]bool{}
	for _, c := range crds.Items {
		custom[c.Spec.Group] = true
	}
	for k, r := range served {
		i := strings.LastIndex(k, "/")
		group, _, _ := strings.Cut(k[:i], "/")
		if _, ok := builtin[[2]string{k[:i], k[i+1:]}]; !ok && !custom[group] {
			t.Errorf("%s (%s) is not in policycheck's table", k, r.name)
		}
	}
}

// krmVerdict is what krm validate --policy says of one case.
type krmVerdict struct {
	denied, warnings, schema []string
	notEvaluated             string
}

// krmOnPolicies runs krm validate --policy policies on the case o alone.
func krmOnPolicies(t *testing.T, policies []string, o Object) krmVerdict {
	t.Helper()
	res, notes := krmOn(t, o, Options{PolicyFiles: policies})
	var out krmVerdict
	for _, e := range res.Errors {
		if strings.HasPrefix(e.Msg, "ValidatingAdmissionPolicy '") {
			out.denied = append(out.denied, e.Msg)
		} else {
			out.schema = append(out.schema, e.Field+": "+e.Msg)
		}
	}
	for _, n := range notes {
		switch {
		case strings.HasPrefix(n.Msg, "warning: "):
			out.warnings = append(out.warnings, strings.TrimPrefix(n.Msg, "warning: "))
		case strings.Contains(n.Msg, " not evaluated for "):
			out.notEvaluated = n.Msg
		}
	}
	sort.Strings(out.warnings)
	return out
}

// krmRefuses returns the errors krm gives a policy among the objects, as the server writes
// them after the field's path (spec.validations[0].expression: Invalid value: ...).
func krmRefuses(t *testing.T, o Object) []string {
	t.Helper()
	res, _ := krmOn(t, o, Options{})
	var out []string
	for _, e := range res.Errors {
		msg := e.Msg
		if i := strings.Index(msg, ": compilation failed: "); i >= 0 {
			msg = msg[:i+len(": compilation failed: ")] // the server's rendering of the caret line differs in spaces
		}
		out = append(out, e.Field+": "+msg)
	}
	return out
}

// krmOn runs krm validate with opts on the object o alone, written to a file.
func krmOn(t *testing.T, o Object, opts Options) (Result, []Error) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "case.yaml")
	b, err := yaml.Marshal(o.Node)
	if err == nil {
		err = os.WriteFile(f, b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := v.ValidateFiles([]string{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res[0], v.Notes()
}

// create creates o on the server (AlreadyExists: a second run on the shared server).
func (c *client) create(t *testing.T, kinds map[string]resource, o Object) {
	t.Helper()
	r, ok := kinds[str(o.Node, "apiVersion")+"/"+str(o.Node, "kind")]
	if !ok {
		t.Fatalf("%s: the server serves no such kind", objectName(o.Node))
	}
	code, body := c.do(t, http.MethodPost, pathOf(o, r), yamlnode.JSON(o.Node))
	if code != http.StatusCreated && code != http.StatusConflict {
		t.Fatalf("create %s: %d %s", objectName(o.Node), code, body)
	}
}

// pathOf is the collection path of o's resource r, in o's namespace.
func pathOf(o Object, r resource) string {
	return objectPath(o.Node, r, str(field(o.Node, "metadata"), "namespace"))
}

// policyAnswer is the server's answer to a dry-run create: the code, the message of a
// refusal, and the policies' warnings (sorted).
type policyAnswer struct {
	code     int
	message  string
	warnings []string
}

func (c *client) policyDryRun(t *testing.T, kinds map[string]resource, o Object) policyAnswer {
	t.Helper()
	r := kinds[str(o.Node, "apiVersion")+"/"+str(o.Node, "kind")]
	req, err := http.NewRequest(http.MethodPost, c.s.URL+pathOf(o, r)+"?dryRun=All&fieldValidation=Strict", bytes.NewReader(yamlnode.JSON(o.Node)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.s.AdminToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	a := policyAnswer{code: resp.StatusCode}
	if a.code/100 != 2 {
		var st struct{ Message string }
		json.Unmarshal(body, &st)
		a.message = st.Message
	}
	for _, w := range resp.Header.Values("Warning") {
		// 299 - "TEXT"
		if i := strings.Index(w, `"`); i >= 0 && strings.HasSuffix(w, `"`) {
			w = w[i+1 : len(w)-1]
		}
		if strings.Contains(w, "ValidatingAdmissionPolicy") {
			a.warnings = append(a.warnings, w)
		}
	}
	sort.Strings(a.warnings)
	return a
}

// waitEnforced waits until the server denies (or warns about) every sentinel case.
func (c *client) waitEnforced(t *testing.T, kinds map[string]resource, cases []Object) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, o := range cases {
		if str(field(field(o.Node, "metadata"), "annotations"), "agreement.rules-krm.dev/sentinel") != "true" {
			continue
		}
		for {
			a := c.policyDryRun(t, kinds, o)
			if a.code/100 != 2 || len(a.warnings) > 0 {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("the server does not enforce the policy of %s after 60 s", objectName(o.Node))
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
}
