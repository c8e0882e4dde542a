package validate

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/policysupport"
)

// ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1) and their bindings, from
// --policy files (Options.PolicyFiles) and from among the objects, are evaluated on the
// create of every object once all are read (namespaces and params may come anywhere), by a
// second reading of the files, with package policysupport's checker: policycheck's in the
// full renderer, the hand-off to it in the default build, none in the lean renderer.

const admissionGroup = "admissionregistration.k8s.io/v1"

// uncheckedPolicyNote is the note of a krm without the checker that met policies.
const uncheckedPolicyNote = "ValidatingAdmissionPolicies are not evaluated: this krm links no API server code " +
	"(krm_nohelm); the full krm (krm_helm, @rules_krm//tools/renderer:krm) evaluates them"

// policies is what ValidateFiles gathers for the policy checks.
type policies struct {
	// items are the policies, bindings and params read so far (from --policy, then the
	// objects), a node each; results[i] is the result index of items[i] among the objects
	// (-1: read from --policy).
	items   []Object
	results []int
	// namespaces are the labels of the namespaces among the inputs and given (--namespace-labels).
	namespaces map[string]map[string]string
	// kinds are the resources and scopes of the CRDs' kinds among the inputs.
	kinds map[string]policysupport.Kind
	// notes are what the evaluation could not decide, or admitted with a warning.
	notes []Error
	// paramKinds are the GROUP/VERSION/KIND of the policies' params; late: a policy among
	// the objects names one first, after objects that may be its params; fromFiles: the
	// number of items from --policy; given: the namespaces of --namespace-labels (they win).
	paramKinds map[string]bool
	late       bool
	fromFiles  int
	given      map[string]bool
}

func isPolicy(n *yaml.Node) bool {
	return str(n, "apiVersion") == admissionGroup && str(n, "kind") == "ValidatingAdmissionPolicy"
}

func isBinding(n *yaml.Node) bool {
	return str(n, "apiVersion") == admissionGroup && str(n, "kind") == "ValidatingAdmissionPolicyBinding"
}

// paramKindOf is a policy's spec.paramKind as GROUP/VERSION/KIND ("": none).
func paramKindOf(n *yaml.Node) string {
	pk := field(field(n, "spec"), "paramKind")
	if pk == nil {
		return ""
	}
	return str(pk, "apiVersion") + "/" + str(pk, "kind")
}

// gatherPolicy keeps what the policy checks need of the object o (result index i; -1: read
// from --policy): policies, bindings, namespaces, CRDs' kinds, and the objects of a kind that
// a policy read so far takes its params from.
func (v *Validator) gatherPolicy(o Object, i int) {
	p := &v.policies
	n := o.Node
	gvk := str(n, "apiVersion") + "/" + str(n, "kind")
	switch {
	case isPolicy(n):
		if pk := paramKindOf(n); pk != "" {
			if !p.paramKinds[pk] && i > 0 {
				p.late = true // its params may be among the objects read before it
			}
			p.paramKinds[pk] = true
		}
	case isBinding(n):
	case str(n, "apiVersion") == "v1" && str(n, "kind") == "Namespace":
		name := str(field(n, "metadata"), "name")
		if _, given := p.given[name]; !given {
			p.namespaces[name] = labelsOf(n)
		}
		if !p.paramKinds[gvk] {
			return
		}
	case isCRD(n):
		spec := field(n, "spec")
		for _, ver := range yamlSeq(field(spec, "versions")) {
			p.kinds[str(spec, "group")+"/"+str(ver, "name")+"/"+str(field(spec, "names"), "kind")] = policysupport.Kind{
				Resource: str(field(spec, "names"), "plural"), Namespaced: str(spec, "scope") != "Cluster"}
		}
		return
	case !p.paramKinds[gvk]:
		return
	}
	p.items = append(p.items, o)
	p.results = append(p.results, i)
}

func yamlSeq(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// labelsOf is an object's metadata.labels.
func labelsOf(n *yaml.Node) map[string]string {
	out := map[string]string{}
	l := field(field(n, "metadata"), "labels")
	if l == nil || l.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(l.Content); i += 2 {
		out[l.Content[i].Value] = l.Content[i+1].Value
	}
	return out
}

// PolicyFileError is an error of a --policy file: unreadable, or a policy the API server
// refuses.
type PolicyFileError struct{ Err error }

func (e *PolicyFileError) Error() string { return e.Err.Error() }
func (e *PolicyFileError) Unwrap() error { return e.Err }

// startPolicies is the policy checks' start of ValidateFiles: the namespaces given, then the
// --policy files, for which the checker is made first (the default build hands the command
// to krm_helm before reading anything).
func (v *Validator) startPolicies(opts Options) error {
	p := &v.policies
	*p = policies{namespaces: map[string]map[string]string{}, kinds: map[string]policysupport.Kind{},
		paramKinds: map[string]bool{}, given: map[string]bool{}}
	for ns, labels := range opts.NamespaceLabels {
		p.namespaces[ns], p.given[ns] = labels, true
	}
	if len(opts.PolicyFiles) == 0 {
		return nil
	}
	chk, err := v.policyChecker()
	if err != nil {
		return err
	}
	if chk == nil {
		return &PolicyFileError{fmt.Errorf("%s", uncheckedPolicyNote)}
	}
	if err := v.readPolicyFiles(opts.PolicyFiles); err != nil {
		return err
	}
	p.fromFiles = len(p.items)
	return nil
}

// readPolicyFiles reads the --policy files: their policies, bindings, params and namespaces.
// A policy whose schema check finds errors is refused, as the server refuses it.
func (v *Validator) readPolicyFiles(paths []string) error {
	var objs []Object
	err := eachObject(paths, func(o Object) error {
		objs = append(objs, o)
		return nil
	})
	if err != nil {
		return &PolicyFileError{err}
	}
	for _, o := range objs { // policies first: their paramKinds say which objects are params
		if isPolicy(o.Node) {
			v.gatherPolicy(o, -1)
		}
	}
	for _, o := range objs {
		if isPolicy(o.Node) || isBinding(o.Node) {
			if r, _ := v.check(o); len(r.Errors) > 0 {
				return &PolicyFileError{v.refusedPolicy(o, r.Errors)}
			}
		}
		if !isPolicy(o.Node) {
			v.gatherPolicy(o, -1)
		}
	}
	return nil
}

// refusedPolicy is the error of a --policy object the API server would refuse.
func (v *Validator) refusedPolicy(o Object, errs []Error) error {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.Error()
	}
	return fmt.Errorf("%s: the API server refuses the %s %s:\n%s", o.File, str(o.Node, "kind"), str(field(o.Node, "metadata"), "name"), strings.Join(lines, "\n"))
}

// evaluatePolicies loads the policies gathered and evaluates them on every object of files
// (read again; kept: the data of those that cannot be), adding the denials to results and
// the rest to the notes. Without policies it does nothing.
func (v *Validator) evaluatePolicies(files []string, kept [][]byte, results []Result) error {
	p := &v.policies
	hasPolicy := false
	for _, o := range p.items {
		hasPolicy = hasPolicy || isPolicy(o.Node) || isBinding(o.Node)
	}
	if !hasPolicy {
		return nil
	}
	chk, err := v.policyChecker()
	if err != nil {
		return err
	}
	if chk == nil {
		p.notes = append(p.notes, Error{Object: "ValidatingAdmissionPolicies", Msg: uncheckedPolicyNote})
		return nil
	}
	reread := func(fn func(o Object, i int)) error {
		i := 0
		for k, f := range files {
			each := func(o Object) error {
				if i >= len(results) {
					return fmt.Errorf("%s: %w", f, errChanged)
				}
				fn(o, i)
				i++
				return nil
			}
			var err error
			if kept[k] != nil {
				err = parse(f, bytes.NewReader(kept[k]), each)
			} else {
				_, err = readFile(f, each)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	if p.late { // params among the objects read before their policy
		p.items, p.results = p.items[:p.fromFiles], p.results[:p.fromFiles]
		if err := reread(func(o Object, i int) { v.gatherPolicy(o, i) }); err != nil {
			return err
		}
	}
	in := policysupport.Inputs{Namespaces: p.namespaces, Kinds: p.kinds}
	for k, o := range p.items {
		po := policysupport.Object{JSON: yamlnode.JSON(o.Node), Index: k}
		switch {
		case isPolicy(o.Node):
			in.Policies = append(in.Policies, po)
		case isBinding(o.Node):
			in.Bindings = append(in.Bindings, po)
		}
		if p.paramKinds[str(o.Node, "apiVersion")+"/"+str(o.Node, "kind")] {
			in.Params = append(in.Params, po)
		}
	}
	set, refused, err := chk.Load(in)
	if err != nil {
		return err
	}
	for _, r := range refused {
		o := p.items[r.Index]
		w := v.walkerOf(o)
		line, value, elems := resolve(o.Node, r.Field)
		w.at = elems
		w.fail(line, value, r.Field, "%s", oneLine(r.Message))
		if p.results[r.Index] < 0 {
			return &PolicyFileError{v.refusedPolicy(o, w.errs)}
		}
		res := &results[p.results[r.Index]]
		res.Errors = append(res.Errors, w.errs...)
	}
	notEvaluated := map[string]*notEvaluatedNote{}
	err = reread(func(o Object, i int) {
		for _, d := range set.Evaluate(yamlnode.JSON(o.Node)) {
			w := v.walkerOf(o)
			switch d.Action {
			case policysupport.NotEvaluated:
				key := d.Policy + "\x00" + d.Binding + "\x00" + d.Message
				if notEvaluated[key] == nil {
					notEvaluated[key] = &notEvaluatedNote{d: d, first: o}
				}
				notEvaluated[key].count++
				continue
			}
			field := "" // the first the object has, else the most specific (its parent's line)
			if len(d.Fields) > 0 {
				field = d.Fields[0]
			}
			for _, f := range d.Fields {
				if _, value, _ := resolve(o.Node, f); value != nil {
					field = f
					break
				}
			}
			line, value, elems := resolve(o.Node, field)
			w.at = elems
			w.fail(line, value, field, "%s", w.hideSecrets(oneLine(d.Message)))
			switch d.Action {
			case policysupport.Deny:
				results[i].Errors = append(results[i].Errors, w.errs...)
			case policysupport.Warn:
				w.errs[0].Msg = "warning: " + w.errs[0].Msg
				p.notes = append(p.notes, w.errs...)
			case policysupport.Audit:
				w.errs[0].Msg = "audit: " + w.errs[0].Msg
				p.notes = append(p.notes, w.errs...)
			}
		}
	})
	if err != nil {
		return err
	}
	for _, n := range notEvaluated {
		w := v.walkerOf(n.first)
		w.fail(n.first.Node, n.first.Node, "", "ValidatingAdmissionPolicy '%s'%s not evaluated for %d object(s) (this one the first): %s",
			n.d.Policy, withBinding(n.d.Binding), n.count, n.d.Message)
		p.notes = append(p.notes, w.errs...)
	}
	for _, u := range set.Unmatched() {
		p.notes = append(p.notes, Error{Object: "ValidatingAdmissionPolicyBinding", Msg: u})
	}
	return nil
}

type notEvaluatedNote struct {
	d     policysupport.Decision
	first Object
	count int
}

func withBinding(b string) string {
	if b == "" {
		return ""
	}
	return " with binding '" + b + "'"
}

// policyChecker returns the checker of policies, made the first time.
func (v *Validator) policyChecker() (policysupport.Checker, error) {
	if !v.policyCheckerMade {
		v.policyCheckerMade = true
		v.policyCheck, v.policyCheckErr = v.newPolicyChecker()
	}
	return v.policyCheck, v.policyCheckErr
}

// hideSecrets replaces, in a policy's message (which a messageExpression may build from the
// object), the Secret values of the object by hiddenValue.
func (w *walker) hideSecrets(msg string) string {
	if !w.secretWithin(w.root) {
		return msg
	}
	var values []string
	var collect func(n *yaml.Node)
	collect = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && n.Value != "" && w.secrets.Has(n) {
			values = append(values, n.Value)
			if d, err := base64.StdEncoding.DecodeString(n.Value); err == nil && len(d) > 0 {
				values = append(values, string(d))
			}
		}
		for i, c := range n.Content {
			if n.Kind != yaml.MappingNode || i%2 == 1 { // values, not keys
				collect(c)
			}
		}
	}
	collect(w.root)
	sort.Slice(values, func(i, j int) bool { return len(values[i]) > len(values[j]) })
	for _, s := range values {
		msg = strings.ReplaceAll(msg, s, hiddenValue)
	}
	return msg
}

// ParseNamespaceLabels parses --namespace-labels NS=KEY=VALUE,KEY=VALUE (NS= for none).
func ParseNamespaceLabels(s string) (string, map[string]string, error) {
	ns, rest, ok := strings.Cut(s, "=")
	if !ok || ns == "" {
		return "", nil, fmt.Errorf("%q: want NAMESPACE=KEY=VALUE,... (NAMESPACE= for a namespace without labels)", s)
	}
	labels := map[string]string{}
	if rest == "" {
		return ns, labels, nil
	}
	for _, kv := range strings.Split(rest, ",") {
		k, val, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return "", nil, fmt.Errorf("%q: label %q: want KEY=VALUE", s, kv)
		}
		labels[k] = val
	}
	return ns, labels, nil
}
