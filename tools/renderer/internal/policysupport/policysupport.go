// Package policysupport is where a krm built with the API server's admission code for
// ValidatingAdmissionPolicies (package policycheck: k8s.io/apiserver's CEL admission plugin)
// registers it, so that package validate does not link that code itself (as crdsupport does
// for CustomResourceDefinitions). The full renderer (krm_helm) links policycheck; the default
// build registers a checker that runs krm_helm instead (package handoff); the lean renderer
// (krm_nohelm) has none, and validate says so.
//
// It imports nothing of Kubernetes: the lean renderer links this package.
package policysupport

// Object is one object as JSON, with its number in the caller's list (for Refusal).
type Object struct {
	JSON  []byte
	Index int
}

// Kind is what the server's discovery says of a kind: its resource (plural) and scope.
type Kind struct {
	Resource   string
	Namespaced bool
}

// Inputs are the policies and what they are evaluated with.
type Inputs struct {
	// Policies and Bindings are the ValidatingAdmissionPolicies and their bindings
	// (admissionregistration.k8s.io/v1), in the order they were read.
	Policies, Bindings []Object
	// Params are the objects that may be the policies' params (of a kind some paramKind names).
	Params []Object
	// Namespaces are the namespaces whose labels are known (among the inputs or given with
	// --namespace-labels): name → labels. A namespaceSelector meets no other.
	Namespaces map[string]map[string]string
	// Kinds are the custom resources' kinds (GROUP/VERSION/KIND, "" group for the core) of
	// the CRDs among the inputs; the built-in kinds are the checker's.
	Kinds map[string]Kind
}

// Refusal is a policy or binding the API server refuses on create (a CEL expression that
// does not compile); it is never evaluated.
type Refusal struct {
	Binding bool // Inputs.Bindings' (else Policies')
	Index   int  // the Object's Index
	Field   string
	Message string // as the server writes it after the field
}

// Actions of a Decision.
const (
	Deny         = "Deny"         // the server refuses the create
	Warn         = "Warn"         // the server admits it with a warning
	Audit        = "Audit"        // the server admits it and records the failure in the audit log
	NotEvaluated = "NotEvaluated" // the outcome depends on what is not among the inputs
)

// Decision is the outcome of one policy and binding for an object, when it is not admitted
// silently.
type Decision struct {
	Policy, Binding string
	Action          string
	// Message is the server's: for Deny its message after "is forbidden: " (ValidatingAdmissionPolicy
	// 'p' with binding 'b' denied request: ...), for Warn its warning, for NotEvaluated why.
	Message string
	// Fields are the fields of the object the failed validation's expression reads, the most
	// specific first (spec.template.spec.containers before kind); the caller names the first
	// the object has.
	Fields []string
}

// Set is a compiled set of policies.
type Set interface {
	// Evaluate returns the decisions of the policies on creating the object (JSON).
	Evaluate(object []byte) []Decision
	// Unmatched says, a line each, sorted, which bindings matched no object evaluated so far,
	// and which name a policy that is not loaded.
	Unmatched() []string
}

// Checker compiles policies with the API server's code.
type Checker interface {
	// Load compiles the policies and bindings; err: the checker failed (the default build
	// could not hand the command to krm_helm).
	Load(in Inputs) (Set, []Refusal, error)
}

// Register is set when a checker is linked in: by package policycheck (krm_helm), or by
// package handoff (the default build).
var Register func() (Checker, error)

// New returns the checker of this krm: nil in a krm built without one (krm_nohelm).
func New() (Checker, error) {
	if Register == nil {
		return nil, nil
	}
	return Register()
}
