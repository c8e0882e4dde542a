// Package crdsupport is where a krm built with the API server's code for custom resources
// (package crdcheck: k8s.io/apiextensions-apiserver's value validation and CEL) registers it,
// so that package validate does not link that code itself: its packages' initialisation and
// size would double the lean builds' start-up (docs/architecture.md). The full renderer
// (krm_helm) links crdcheck; the default build registers a checker that runs krm_helm instead
// (package handoff); the lean renderer (krm_nohelm) has none, and validate says so.
//
// It imports nothing of Kubernetes: the lean renderer links this package.
package crdsupport

// Error is one error of the API server's validation, as the server writes it.
type Error struct {
	// Field is the path of the field (spec.rules[0].matches[0].path.value), "" for the object.
	Field string
	// Type is the cause's reason (FieldValueInvalid, FieldValueForbidden, ...), Kind its words
	// ("Invalid value") and Body the message after the field ("Invalid value: 11: spec.size in
	// body should be less than or equal to 10"; for a CEL rule its message, or its
	// messageExpression's value).
	Type, Kind, Body string
	// At is where Field is written in the object when the server names it otherwise (a CRD's
	// spec.validation stands for the schema its versions share, written in each); "": Field.
	At string
}

// Note is one rule of a CustomResourceDefinition that krm cannot check as the API server
// would (a transition rule needs the old object).
type Note struct {
	// Field is where the rule is in the CRD, as the server writes it:
	// spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].
	Field string
	Rule  string // the rule's expression
	Text  string // why it is not (fully) checked
}

// Checker checks CustomResourceDefinitions and custom resources with the API server's code.
type Checker interface {
	// CRD reads a CustomResourceDefinition (apiextensions.k8s.io/v1, as JSON) and returns the
	// errors the server's validation gives when it is created (it refuses the CRD when there
	// are any: a CEL rule that does not compile or exceeds the cost limits, one it cannot
	// decode, ...) and what the server checks its custom resources with (nil: none). err: the
	// checker failed (the default build could not hand the command to krm_helm).
	CRD(json []byte) (CRD, []Error, error)
}

// CRD is what the API server checks the custom resources of one CustomResourceDefinition with.
type CRD interface {
	// Validate checks a custom resource (as JSON) as the server's create does: defaulting,
	// metadata, value validations, list types, embedded resources, then the CEL rules within
	// the server's cost limits. Unknown fields are pruned first, as the server does: the
	// caller reports them.
	Validate(json []byte) []Error
	// Unchecked returns the rules of a version that cannot be checked offline, each once.
	Unchecked(version string) []Note
}

// Register is set when a checker is linked in: by package crdcheck (krm_helm), or by package
// handoff (the default build). replayable: the inputs can be read a second time (files, not a
// pipe), so handing the command to another process later loses nothing.
var Register func(replayable bool) (Checker, error)

// New returns the checker of this krm: nil in a krm built without one (krm_nohelm).
func New(replayable bool) (Checker, error) {
	if Register == nil {
		return nil, nil
	}
	return Register(replayable)
}
