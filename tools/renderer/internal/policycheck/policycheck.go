// Package policycheck evaluates ValidatingAdmissionPolicies and their bindings
// (admissionregistration.k8s.io/v1) offline with the API server's own admission code
// (k8s.io/apiserver's policy/validating, policy/matching and policy/generic packages): the
// policy's matchConstraints (resource rules, excluded rules, namespace and object selectors),
// the binding's, matchConditions, variables, validations with message and messageExpression,
// params, failurePolicy and validationActions, within the server's CEL cost limits (per
// expression and per request). Namespaces are those among the inputs (or given their labels);
// params are objects among the inputs. What depends on the cluster (a namespace or param
// not given, the authorizer) is reported as not evaluated, never as admitted.
//
// Linking it costs size and start-up (docs/performance.md): only the full renderer imports
// it, for its init, which registers the checker in package policysupport.
package policycheck

import (
	"context"
	"fmt"
	"sort"
	"strings"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/policy/generic"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	listersv1 "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/policysupport"
)

func init() {
	policysupport.Register = func() (policysupport.Checker, error) { return Checker{}, nil }
}

// Checker is the policysupport.Checker of the API server's code.
type Checker struct{}

// hook is one policy with its bindings, as the server's policy source makes it
// (generic.PolicyHook) from what is among the inputs.
type hook struct {
	policy   *admissionv1.ValidatingAdmissionPolicy
	eval     validating.Validator
	bindings []*admissionv1.ValidatingAdmissionPolicyBinding
	// params is the informer of the paramKind's objects among the inputs (nil: no paramKind),
	// scope their scope; unknown says why the paramKind cannot be used offline.
	params  informers.GenericInformer
	scope   meta.RESTScope
	unknown string
	// cluster says why the policy depends on the cluster ("": it does not), nsObject whether
	// it reads namespaceObject.
	cluster  string
	nsObject bool
	// fields are the object fields its validations read, by index, the most specific first.
	fields [][]string
}

type set struct {
	hooks      []*hook
	matcher    generic.PolicyMatcher
	namespaces map[string]bool
	kinds      map[string]policysupport.Kind
	matched    map[*admissionv1.ValidatingAdmissionPolicyBinding]bool
	policies   map[string]bool // the names of the policies not refused
	objects    admission.ObjectInterfaces
}

// Load decodes, defaults and checks the policies and bindings as the server's create does,
// compiles the policies as its policy source does, and indexes the params and namespaces.
func (Checker) Load(in policysupport.Inputs) (policysupport.Set, []policysupport.Refusal, error) {
	s := &set{namespaces: map[string]bool{}, kinds: in.Kinds, matched: map[*admissionv1.ValidatingAdmissionPolicyBinding]bool{},
		objects: admission.NewObjectInterfacesFromScheme(runtime.NewScheme())}
	var refused []policysupport.Refusal
	byName := map[string]*hook{}
	for _, o := range in.Policies {
		p := &admissionv1.ValidatingAdmissionPolicy{}
		if err := utiljson.Unmarshal(o.JSON, p); err != nil {
			refused = append(refused, policysupport.Refusal{Index: o.Index, Message: err.Error()})
			continue
		}
		defaultPolicy(p)
		if errs := validatePolicy(p); len(errs) > 0 {
			for _, e := range errs {
				refused = append(refused, policysupport.Refusal{Index: o.Index, Field: e.Field, Message: e.ErrorBody()})
			}
			continue
		}
		h := &hook{policy: p, eval: compilePolicy(p)}
		h.cluster, h.nsObject, h.fields = inspect(p)
		byName[p.Name] = h // a later policy of the same name replaces it, as an apply would
	}
	for _, o := range in.Bindings {
		b := &admissionv1.ValidatingAdmissionPolicyBinding{}
		if err := utiljson.Unmarshal(o.JSON, b); err != nil {
			refused = append(refused, policysupport.Refusal{Binding: true, Index: o.Index, Message: err.Error()})
			continue
		}
		if b.Spec.MatchResources != nil {
			defaultMatchResources(b.Spec.MatchResources)
		}
		if h := byName[b.Spec.PolicyName]; h != nil {
			h.bindings = append(h.bindings, b)
		}
		s.matched[b] = false
	}
	s.policies = map[string]bool{}
	for name, h := range byName {
		s.policies[name] = true
		s.hooks = append(s.hooks, h)
		if pk := h.policy.Spec.ParamKind; pk != nil {
			h.params, h.scope, h.unknown = s.paramInformer(pk, in.Params)
		}
	}
	sort.Slice(s.hooks, func(i, j int) bool { return s.hooks[i].policy.Name < s.hooks[j].policy.Name })
	nsIndex := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for name, labels := range in.Namespaces {
		s.namespaces[name] = true
		if err := nsIndex.Add(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}); err != nil {
			return nil, nil, err
		}
	}
	s.matcher = generic.NewPolicyMatcher(matching.NewMatcher(listersv1.NewNamespaceLister(nsIndex), offlineClient{}))
	return s, refused, nil
}

// defaultPolicy applies the server's defaults (k8s.io/kubernetes pkg/apis/admissionregistration/v1,
// defaults.go: not linkable, mirrored).
func defaultPolicy(p *admissionv1.ValidatingAdmissionPolicy) {
	if p.Spec.FailurePolicy == nil {
		f := admissionv1.Fail
		p.Spec.FailurePolicy = &f
	}
	if p.Spec.MatchConstraints != nil {
		defaultMatchResources(p.Spec.MatchConstraints)
	}
}

func defaultMatchResources(m *admissionv1.MatchResources) {
	if m.MatchPolicy == nil {
		e := admissionv1.Equivalent
		m.MatchPolicy = &e
	}
	if m.NamespaceSelector == nil {
		m.NamespaceSelector = &metav1.LabelSelector{}
	}
	if m.ObjectSelector == nil {
		m.ObjectSelector = &metav1.LabelSelector{}
	}
}

// kindOf returns the resource and scope of GROUP/VERSION, KIND: a CRD's among the inputs, a
// built-in kind's, else the guess of the resource and whether known.
func (s *set) kindOf(apiVersion, kind string) (policysupport.Kind, bool) {
	if k, ok := s.kinds[apiVersion+"/"+kind]; ok {
		return k, true
	}
	if k, ok := builtin[[2]string{apiVersion, kind}]; ok {
		return k, true
	}
	gv, _ := schema.ParseGroupVersion(apiVersion)
	plural, _ := meta.UnsafeGuessKindToResource(gv.WithKind(kind))
	return policysupport.Kind{Resource: plural.Resource, Namespaced: true}, false
}

// paramInformer is an informer of the params among the inputs of the paramKind pk.
func (s *set) paramInformer(pk *admissionv1.ParamKind, objs []policysupport.Object) (informers.GenericInformer, meta.RESTScope, string) {
	k, known := s.kindOf(pk.APIVersion, pk.Kind)
	if !known {
		return nil, nil, fmt.Sprintf("its paramKind %s %s has no CustomResourceDefinition among the inputs", pk.APIVersion, pk.Kind)
	}
	scope := meta.RESTScopeRoot
	if k.Namespaced {
		scope = meta.RESTScopeNamespace
	}
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, o := range objs {
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(o.JSON); err != nil || u.GetAPIVersion() != pk.APIVersion || u.GetKind() != pk.Kind {
			continue
		}
		if !k.Namespaced {
			u.SetNamespace("")
		} else if u.GetNamespace() == "" {
			u.SetNamespace(metav1.NamespaceDefault)
		}
		_ = idx.Add(u) // a later object of the same name replaces the earlier one
	}
	gv, _ := schema.ParseGroupVersion(pk.APIVersion)
	return &paramInformer{lister: cache.NewGenericLister(idx, gv.WithResource(k.Resource).GroupResource())}, scope, ""
}

// paramInformer is the informer of params the server's generic.CollectParams reads: only its
// lister and HasSynced are used.
type paramInformer struct{ lister cache.GenericLister }

func (p *paramInformer) Informer() cache.SharedIndexInformer { return synced{} }
func (p *paramInformer) Lister() cache.GenericLister         { return p.lister }

type synced struct{ cache.SharedIndexInformer }

func (synced) HasSynced() bool { return true }

// errNamespaceUnknown marks the lookup of a namespace that is not among the inputs: the
// server's namespace matcher asks its client when the lister has none.
type offlineClient struct{ kubernetes.Interface }
type offlineCore struct{ corev1client.CoreV1Interface }
type offlineNamespaces struct {
	corev1client.NamespaceInterface
}

func (offlineClient) CoreV1() corev1client.CoreV1Interface      { return offlineCore{} }
func (offlineCore) Namespaces() corev1client.NamespaceInterface { return offlineNamespaces{} }
func (offlineNamespaces) Get(_ context.Context, name string, _ metav1.GetOptions) (*corev1.Namespace, error) {
	return nil, apierrors.NewNotFound(corev1.Resource("namespaces"), name)
}

// isUnknownNamespace reports whether err is the server's matcher meeting a namespace that
// is not among the inputs.
func isUnknownNamespace(err error) bool {
	var st apierrors.APIStatus
	if !apierrors.IsNotFound(err) {
		return false
	}
	if e, ok := err.(apierrors.APIStatus); ok {
		st = e
	}
	return st != nil && st.Status().Details != nil && st.Status().Details.Kind == "namespaces"
}

// Evaluate runs the policies on the create of one object, as the server's validating
// dispatcher does (dispatcher.go's Dispatch, which stops at the first denial: this loop keeps
// every decision, with the same messages).
func (s *set) Evaluate(data []byte) []policysupport.Decision {
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(data); err != nil {
		return nil // not an object: its validation says so
	}
	gvk := obj.GroupVersionKind()
	k, _ := s.kindOf(obj.GetAPIVersion(), obj.GetKind())
	ns := ""
	if k.Namespaced {
		if ns = obj.GetNamespace(); ns == "" {
			ns = metav1.NamespaceDefault
		}
		obj.SetNamespace(ns)
	}
	gvr := gvk.GroupVersion().WithResource(k.Resource)
	attr := admission.NewAttributesRecord(obj, nil, gvk, ns, obj.GetName(), gvr, "", admission.Create,
		&metav1.CreateOptions{}, false, &user.DefaultInfo{})
	var out []policysupport.Decision
	ctx := context.Background()
	for _, h := range s.hooks {
		p := h.policy
		deny := func(b *admissionv1.ValidatingAdmissionPolicyBinding, err error) {
			if *p.Spec.FailurePolicy == admissionv1.Ignore {
				return
			}
			d := policysupport.Decision{Policy: p.Name, Action: policysupport.Deny,
				Message: fmt.Sprintf("ValidatingAdmissionPolicy '%s' denied request: failed to configure policy: %v", p.Name, err)}
			if b != nil {
				d.Binding = b.Name
				d.Message = fmt.Sprintf("ValidatingAdmissionPolicy '%s' with binding '%s' denied request: failed to configure binding: %v", p.Name, b.Name, err)
			}
			out = append(out, d)
		}
		notEvaluated := func(b string, why string) {
			out = append(out, policysupport.Decision{Policy: p.Name, Binding: b, Action: policysupport.NotEvaluated, Message: why})
		}
		matches, matchResource, matchKind, err := s.matcher.DefinitionMatches(attr, s.objects, validating.NewValidatingAdmissionPolicyAccessor(p))
		if isUnknownNamespace(err) {
			notEvaluated("", s.namespaceWhy(ns, "its matchConstraints.namespaceSelector"))
			continue
		}
		if err != nil {
			deny(nil, err)
			continue
		}
		if !matches {
			continue
		}
		for _, b := range h.bindings {
			matches, err := s.matcher.BindingMatches(attr, s.objects, validating.NewValidatingAdmissionPolicyBindingAccessor(b))
			if isUnknownNamespace(err) {
				s.matched[b] = true
				notEvaluated(b.Name, s.namespaceWhy(ns, "the binding's matchResources.namespaceSelector"))
				continue
			}
			if err != nil {
				s.matched[b] = true
				deny(b, err)
				continue
			}
			if !matches {
				continue
			}
			s.matched[b] = true
			if h.cluster != "" {
				notEvaluated(b.Name, h.cluster)
				continue
			}
			if h.unknown != "" && b.Spec.ParamRef != nil {
				notEvaluated(b.Name, h.unknown)
				continue
			}
			params, err := generic.CollectParams(p.Spec.ParamKind, h.params, h.scope, b.Spec.ParamRef, ns, nil, nil)
			if p.Spec.ParamKind != nil && b.Spec.ParamRef != nil && (len(params) == 0 || err != nil && strings.Contains(err.Error(), "no params found")) {
				// Not among the inputs; the cluster may have them.
				notEvaluated(b.Name, "its params ("+paramRefText(p.Spec.ParamKind, b.Spec.ParamRef, ns, h.scope)+") are not among the inputs")
				continue
			}
			if err != nil {
				deny(b, err)
				continue
			}
			var namespace *corev1.Namespace
			if ns != "" && gvk != corev1.SchemeGroupVersion.WithKind("Namespace") {
				if namespace, err = s.matcher.GetNamespace(ctx, ns); err != nil {
					if h.nsObject {
						notEvaluated(b.Name, s.namespaceWhy(ns, "its expressions' namespaceObject"))
						continue
					}
					namespace = nil
				}
			}
			va, err := admission.NewVersionedAttributes(attr, matchKind, s.objects)
			if err != nil {
				deny(b, fmt.Errorf("failed to convert object version: %w", err))
				continue
			}
			for _, param := range params {
				res := h.eval.Validate(ctx, matchResource, va, param, namespace, celconfig.RuntimeCELCostBudget, nil)
				out = append(out, decisions(h, b, res)...)
			}
		}
	}
	return out
}

// decisions are the outcomes of one evaluation, per validationAction of the binding, in the
// server's words.
func decisions(h *hook, b *admissionv1.ValidatingAdmissionPolicyBinding, res validating.ValidateResult) []policysupport.Decision {
	var out []policysupport.Decision
	p := h.policy
	for i, d := range res.Decisions {
		if d.Action != validating.ActionDeny {
			continue
		}
		var fields []string
		if len(res.Decisions) == len(h.fields) {
			fields = h.fields[i]
		}
		for _, a := range b.Spec.ValidationActions {
			dec := policysupport.Decision{Policy: p.Name, Binding: b.Name, Fields: fields}
			switch a {
			case admissionv1.Deny:
				dec.Action = policysupport.Deny
				dec.Message = fmt.Sprintf("ValidatingAdmissionPolicy '%s' with binding '%s' denied request: %s", p.Name, b.Name, d.Message)
			case admissionv1.Warn:
				dec.Action = policysupport.Warn
				dec.Message = fmt.Sprintf("Validation failed for ValidatingAdmissionPolicy '%s' with binding '%s': %s", p.Name, b.Name, d.Message)
			case admissionv1.Audit:
				dec.Action = policysupport.Audit
				dec.Message = fmt.Sprintf("ValidatingAdmissionPolicy '%s' with binding '%s' failed (validationActions Audit: recorded in the audit log, admitted): %s", p.Name, b.Name, d.Message)
			default:
				continue
			}
			out = append(out, dec)
		}
	}
	for _, a := range res.AuditAnnotations {
		if a.Action == validating.AuditAnnotationActionError {
			out = append(out, policysupport.Decision{Policy: p.Name, Binding: b.Name, Action: policysupport.Deny,
				Message: fmt.Sprintf("ValidatingAdmissionPolicy '%s' with binding '%s' denied request: %s", p.Name, b.Name, a.Error)})
		}
	}
	return out
}

// namespaceWhy says why a namespace's labels are needed and how to give them.
func (s *set) namespaceWhy(ns, what string) string {
	return fmt.Sprintf("%s needs the labels of the Namespace %s, which is not among the inputs (give them with --namespace-labels %s=KEY=VALUE,...)", what, ns, ns)
}

// paramRefText names the params a binding refers to.
func paramRefText(pk *admissionv1.ParamKind, ref *admissionv1.ParamRef, ns string, scope meta.RESTScope) string {
	where := ""
	if scope != nil && scope.Name() == meta.RESTScopeNameNamespace {
		if ref.Namespace != "" {
			ns = ref.Namespace
		}
		where = ns + "/"
	}
	if ref.Name != "" {
		return pk.Kind + " " + where + ref.Name
	}
	sel, _ := metav1.LabelSelectorAsSelector(ref.Selector)
	return fmt.Sprintf("%s %sselected by %q", pk.Kind, where, sel.String())
}

// Unmatched returns the bindings that matched no object.
func (s *set) Unmatched() []string {
	var out []string
	for b, m := range s.matched {
		switch {
		case !s.policies[b.Spec.PolicyName]:
			out = append(out, fmt.Sprintf("binding '%s' names the ValidatingAdmissionPolicy '%s', which is neither among the inputs nor in --policy (or is refused): not evaluated", b.Name, b.Spec.PolicyName))
		case !m:
			out = append(out, fmt.Sprintf("binding '%s' of ValidatingAdmissionPolicy '%s' matched no object", b.Name, b.Spec.PolicyName))
		}
	}
	sort.Strings(out)
	return out
}
