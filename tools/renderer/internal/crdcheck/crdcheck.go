// Package crdcheck checks CustomResourceDefinitions and their custom resources with the API
// server's own code (k8s.io/apiextensions-apiserver), in the order kube-apiserver runs it on
// create: the CRD's validation (its CEL rules compiled and their cost estimated within the
// server's limits); for a custom resource the decoding (metadata coerced, unknown fields
// pruned, defaults applied), the metadata, the OpenAPI value validations (bounds, patterns,
// formats, enums, sizes), the scale subresource's fields, embedded resources, list types
// (x-kubernetes-list-type set and map), then the x-kubernetes-validations rules with the
// server's per-call and per-object cost limits (pkg/registry/customresource's strategy.go
// and validator.go; pkg/apiserver's schema coercer).
//
// Linking it costs size and start-up (docs/architecture.md): only the full renderer imports
// it, for its init, which registers the checker in package crdsupport.
package crdcheck

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	celgo "github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/api/operation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/crdsupport"
)

func init() {
	crdsupport.Register = func(bool) (crdsupport.Checker, error) { return Checker{}, nil }
}

// Checker is the crdsupport.Checker of the API server's code.
type Checker struct{}

// Notes' texts.
const (
	TransitionNote         = "not checked offline: transition rule (needs the old object)"
	OptionalTransitionNote = "checked as on create only (oldSelf absent): transition rule (needs the old object)"
)

// CRD reads a CustomResourceDefinition as the server decodes one (defaults, conversion to the
// internal version), prepares it as its create does, and validates it.
func (Checker) CRD(data []byte) (crdsupport.CRD, []crdsupport.Error, error) {
	c := &crd{versions: map[string]*version{}}
	if err := utiljson.Unmarshal(data, &c.v1); err != nil {
		return nil, undecodable(err), nil
	}
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(&c.v1)
	var in apiextensions.CustomResourceDefinition
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&c.v1, &in, nil); err != nil {
		return nil, undecodable(err), nil
	}
	// rest.BeforeCreate and the CRD strategy's PrepareForCreate: cluster-scoped, a status of
	// the storage version only, generation 1.
	in.Namespace = ""
	in.Status = apiextensions.CustomResourceDefinitionStatus{}
	in.Generation = 1
	for _, v := range in.Spec.Versions {
		if v.Storage {
			in.Status.StoredVersions = []string{v.Name}
			break
		}
	}
	errs := crdvalidation.ValidateCustomResourceDefinition(context.Background(), &in)
	return c, crdErrors(errs, len(c.v1.Spec.Versions) > 0), nil
}

// undecodable is the error of an object the server cannot decode (it answers 400).
func undecodable(err error) []crdsupport.Error {
	return convert(field.ErrorList{field.Invalid(nil, field.OmitValueType{}, err.Error())})
}

// crdErrors converts the errors of a CRD's validation. The internal version holds the schema,
// subresources and columns the versions share at spec (spec.validation), and the server's
// paths say so: At is then where they are written, in the first version.
func crdErrors(errs field.ErrorList, hasVersions bool) []crdsupport.Error {
	out := convert(errs)
	for i, e := range out {
		for _, shared := range []struct{ internal, v1 string }{
			{"spec.validation", "spec.versions[0].schema"},
			{"spec.subresources", "spec.versions[0].subresources"},
			{"spec.additionalPrinterColumns", "spec.versions[0].additionalPrinterColumns"},
			{"spec.selectableFields", "spec.versions[0].selectableFields"},
		} {
			if hasVersions && (e.Field == shared.internal || strings.HasPrefix(e.Field, shared.internal+".") || strings.HasPrefix(e.Field, shared.internal+"[")) {
				out[i].At = shared.v1 + e.Field[len(shared.internal):]
			}
		}
	}
	return out
}

// convert turns the server's errors into crdsupport's, sorted by field (the object's last):
// the server's order follows map iteration, and krm's output is deterministic.
func convert(errs field.ErrorList) []crdsupport.Error {
	out := make([]crdsupport.Error, 0, len(errs))
	for _, e := range errs {
		f := e.Field
		if f == "<nil>" {
			f = ""
		}
		out = append(out, crdsupport.Error{Field: f, Type: string(e.Type), Kind: e.Type.String(), Body: e.ErrorBody()})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Field == "") != (b.Field == "") {
			return b.Field == ""
		}
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		return a.Body < b.Body
	})
	return out
}

// crd is one CustomResourceDefinition, as stored (v1, defaulted), and what checks the custom
// resources of each version, made when the first is checked.
type crd struct {
	v1       apiextensionsv1.CustomResourceDefinition
	versions map[string]*version
}

// version is what the custom resource strategy of one version holds (NewStrategy).
type version struct {
	structural *structuralschema.Structural // defaults pruned
	schema     validation.SchemaValidator
	cel        *cel.Validator // nil: no rules
	status     bool           // a status subresource: create drops status
	scale      *apiextensionsv1.CustomResourceSubresourceScale
	namespaced bool
	err        error // the schema is not structural: the CRD's validation says why
}

func (c *crd) version(name string) *version {
	if v, ok := c.versions[name]; ok {
		return v
	}
	v := c.build(name)
	c.versions[name] = v
	return v
}

// build makes the checks of a version as customresource_handler.go's crdInfo does (nil: the
// version has no schema, nothing to check).
func (c *crd) build(name string) *version {
	val, err := apihelpers.GetSchemaForVersion(&c.v1, name)
	if err != nil {
		return &version{err: err}
	}
	if val == nil || val.OpenAPIV3Schema == nil {
		return nil
	}
	internal := &apiextensions.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
		return &version{err: err}
	}
	s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return &version{err: err}
	}
	s = s.DeepCopy()
	if err := defaulting.PruneDefaults(s); err != nil {
		return &version{err: err}
	}
	sv, _, err := validation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return &version{err: err}
	}
	v := &version{structural: s, schema: sv, namespaced: c.v1.Spec.Scope == apiextensionsv1.NamespaceScoped,
		cel: cel.NewValidator(s, true, celconfig.PerCallLimit)}
	if sub, _ := apihelpers.GetSubresourcesForVersion(&c.v1, name); sub != nil {
		v.status = sub.Status != nil
		v.scale = sub.Scale
	}
	return v
}

// Validate checks a custom resource as a create request of it is checked.
func (c *crd) Validate(data []byte) []crdsupport.Error {
	var u map[string]any
	if err := utiljson.Unmarshal(data, &u); err != nil {
		return undecodable(err)
	}
	apiVersion, _ := u["apiVersion"].(string)
	v := c.version(apiVersion[strings.LastIndex(apiVersion, "/")+1:])
	if v == nil {
		return nil
	}
	if v.err != nil {
		return convert(field.ErrorList{field.InternalError(nil, fmt.Errorf("the schema of the CustomResourceDefinition %s: %w", c.v1.Name, v.err))})
	}
	if e := decode(u, v.structural); e != nil {
		return convert(field.ErrorList{e})
	}
	prepare(u, v)
	return convert(v.validate(u))
}

// decode does to a decoded custom resource what the server's decoder does next
// (unstructuredSchemaCoercer.apply, then the defaulter): metadata coerced to ObjectMeta,
// unknown fields pruned (reported by the caller), nulls without defaults dropped, defaults set.
func decode(u map[string]any, s *structuralschema.Structural) *field.Error {
	kind, apiVersion := u["kind"], u["apiVersion"]
	meta, found, _, err := objectmeta.GetObjectMetaWithOptions(u, objectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		return field.Invalid(field.NewPath("metadata"), field.OmitValueType{}, err.Error())
	}
	pruning.PruneWithOptions(u, s, true, structuralschema.UnknownFieldPathOptions{})
	defaulting.PruneNonNullableNullsWithoutDefaults(u, s)
	if e, _ := objectmeta.CoerceWithOptions(nil, u, s, false, objectmeta.CoerceOptions{ReturnUnknownFieldPaths: true}); e != nil {
		return e
	}
	u["kind"], u["apiVersion"] = kind, apiVersion
	if found {
		if err := objectmeta.SetObjectMeta(u, meta); err != nil {
			return field.Invalid(field.NewPath("metadata"), field.OmitValueType{}, err.Error())
		}
	}
	defaulting.Default(u, s)
	return nil
}

// generatedSuffix stands for the five random characters the server appends to generateName
// (names.SimpleNameGenerator), fixed so that the output stays deterministic.
const generatedSuffix = "xxxxx"

// prepare does what a create does before validation (rest.BeforeCreate, PrepareForCreate): the
// request's namespace (default) or none, a name from generateName, no status when the status
// subresource is on, generation 1.
func prepare(u map[string]any, v *version) {
	obj := &unstructured.Unstructured{Object: u}
	if _, ok := u["metadata"].(map[string]any); !ok {
		return // getObjectMeta reports it
	}
	switch {
	case !v.namespaced:
		obj.SetNamespace("")
	case obj.GetNamespace() == "":
		obj.SetNamespace(metav1.NamespaceDefault)
	}
	if g := obj.GetGenerateName(); g != "" && obj.GetName() == "" {
		if len(g) > 58 {
			g = g[:58]
		}
		obj.SetName(g + generatedSuffix)
	}
	if v.status {
		delete(u, "status")
	}
	obj.SetGeneration(1)
}

// validate is customResourceStrategy.Validate (with customResourceValidator.Validate) on create.
func (v *version) validate(u map[string]any) field.ErrorList {
	ctx := context.Background()
	var errs field.ErrorList
	if meta, merrs := objectMeta(u); len(merrs) > 0 {
		errs = append(errs, merrs...)
	} else {
		errs = append(errs, metavalidation.ValidateObjectMetaDeclaratively(ctx, operation.Create, meta, nil, v.namespaced,
			metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"), utilfeature.DefaultFeatureGate.Enabled(features.DeclarativeValidationBeta))...)
	}
	errs = append(errs, validation.ValidateCustomResource(nil, u, v.schema)...)
	errs = append(errs, v.validateScale(u)...)
	errs = append(errs, objectmeta.Validate(ctx, nil, u, v.structural, false)...)
	errs = append(errs, listtype.ValidateListSetsAndMaps(nil, v.structural, u)...)
	if v.cel != nil {
		if blocking := blockingErr(errs); blocking != nil {
			errs = append(errs, blocking)
		} else {
			cerrs, _ := v.cel.Validate(ctx, nil, v.structural, u, nil, celconfig.RuntimeCELCostBudget)
			errs = append(errs, cerrs...)
		}
	}
	return errs
}

// objectMeta is validator.go's getObjectMeta.
func objectMeta(u map[string]any) (*metav1.ObjectMeta, field.ErrorList) {
	raw := u["metadata"]
	if raw == nil {
		return &metav1.ObjectMeta{}, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, fmt.Sprintf("expected map[string]interface{}, got %T", raw))}
	}
	meta := &metav1.ObjectMeta{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, meta); err != nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, err.Error())}
	}
	return meta, nil
}

// validateScale is validator.go's ValidateScaleSpec and ValidateScaleStatus.
func (v *version) validateScale(u map[string]any) field.ErrorList {
	if v.scale == nil {
		return nil
	}
	var errs field.ErrorList
	replicas := func(path string) {
		n, _, err := unstructured.NestedInt64(u, strings.Split(strings.TrimPrefix(path, "."), ".")...)
		switch {
		case err != nil:
			errs = append(errs, field.Invalid(field.NewPath(path), n, err.Error()))
		case n < 0:
			errs = append(errs, field.Invalid(field.NewPath(path), n, "should be a non-negative integer"))
		case n > math.MaxInt32:
			errs = append(errs, field.Invalid(field.NewPath(path), n, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32)))
		}
	}
	replicas(v.scale.SpecReplicasPath)
	replicas(v.scale.StatusReplicasPath)
	if p := v.scale.LabelSelectorPath; p != nil {
		s, _, err := unstructured.NestedString(u, strings.Split(strings.TrimPrefix(*p, "."), ".")...)
		if err != nil {
			errs = append(errs, field.Invalid(field.NewPath(*p), s, err.Error()))
		}
	}
	return errs
}

// blockingErr is strategy.go's hasBlockingErr: after these errors the server does not run the
// CEL rules.
func blockingErr(errs field.ErrorList) *field.Error {
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		}
	}
	return nil
}

// Unchecked returns the transition rules (those naming oldSelf) of a version: on create the
// server skips them, or evaluates them with no oldSelf when optionalOldSelf is set.
func (c *crd) Unchecked(name string) []crdsupport.Note {
	for i, ver := range c.v1.Spec.Versions {
		if ver.Name != name || ver.Schema == nil || ver.Schema.OpenAPIV3Schema == nil {
			continue
		}
		var notes []crdsupport.Note
		transitionRules(ver.Schema.OpenAPIV3Schema, fmt.Sprintf("spec.versions[%d].schema.openAPIV3Schema", i), &notes)
		return notes
	}
	return nil
}

// transitionRules appends the transition rules of s, at path, and of its subschemas.
func transitionRules(s *apiextensionsv1.JSONSchemaProps, path string, notes *[]crdsupport.Note) {
	if s == nil {
		return
	}
	for i, r := range s.XValidations {
		if !usesOldSelf(r.Rule) {
			continue
		}
		text := TransitionNote
		if r.OptionalOldSelf != nil && *r.OptionalOldSelf {
			text = OptionalTransitionNote
		}
		*notes = append(*notes, crdsupport.Note{Field: fmt.Sprintf("%s.x-kubernetes-validations[%d]", path, i), Rule: r.Rule, Text: text})
	}
	for _, n := range slices.Sorted(maps.Keys(s.Properties)) {
		p := s.Properties[n]
		transitionRules(&p, path+".properties["+n+"]", notes)
	}
	if s.Items != nil {
		transitionRules(s.Items.Schema, path+".items", notes)
	}
	if s.AdditionalProperties != nil {
		transitionRules(s.AdditionalProperties.Schema, path+".additionalProperties", notes)
	}
	for i := range s.AllOf {
		transitionRules(&s.AllOf[i], fmt.Sprintf("%s.allOf[%d]", path, i), notes)
	}
}

// usesOldSelf reports whether a rule names the variable oldSelf (cel.OldScopedVarName), as
// the server's compiler finds it; a rule that does not parse is the CRD's validation's error.
func usesOldSelf(rule string) bool {
	if !strings.Contains(rule, cel.OldScopedVarName) {
		return false
	}
	env, err := celgo.NewEnv()
	if err != nil {
		return true
	}
	parsed, iss := env.Parse(rule)
	if iss.Err() != nil {
		return true
	}
	found := false
	celast.PreOrderVisit(parsed.NativeRep().Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		if e.Kind() == celast.IdentKind && e.AsIdent() == cel.OldScopedVarName {
			found = true
		}
	}))
	return found
}
