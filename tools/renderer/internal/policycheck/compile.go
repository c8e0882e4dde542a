package policycheck

import (
	"slices"
	"sort"
	"strings"
	"sync"

	celgo "github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// baseEnv is the server's CEL environment of admission policies (strict cost), made once:
// it is immutable and costly to build.
var baseEnv = sync.OnceValue(func() *environment.EnvSet {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
})

// statelessCompiler is the server's compiler of expressions without variables (its
// getStrictStatelessCELCompiler), made once: immutable.
var statelessCompiler = sync.OnceValue(func() plugincel.Compiler { return plugincel.NewCompiler(baseEnv()) })

// compilePolicy is the server's compilePolicy (policy/validating/plugin.go, unexported there),
// with the same compilers, declarations and environment.
func compilePolicy(policy *admissionv1.ValidatingAdmissionPolicy) validating.Validator {
	hasParam := policy.Spec.ParamKind != nil
	optionalVars := plugincel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: true}
	expressionOptionalVars := plugincel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: false}
	failurePolicy := policy.Spec.FailurePolicy
	filterCompiler, err := plugincel.NewCompositedCompiler(baseEnv())
	if err != nil {
		return validating.NewValidator(nil, nil, nil, nil, failurePolicy, err)
	}
	vars := make([]plugincel.NamedExpressionAccessor, len(policy.Spec.Variables))
	for i, v := range policy.Spec.Variables {
		vars[i] = &validating.Variable{Name: v.Name, Expression: v.Expression}
	}
	filterCompiler.CompileAndStoreVariables(vars, optionalVars, environment.StoredExpressions)
	var matcher matchconditions.Matcher
	if mc := policy.Spec.MatchConditions; len(mc) > 0 {
		acc := make([]plugincel.ExpressionAccessor, len(mc))
		for i := range mc {
			acc[i] = (*matchconditions.MatchCondition)(&mc[i])
		}
		matcher = matchconditions.NewMatcher(filterCompiler.CompileCondition(acc, optionalVars, environment.StoredExpressions), failurePolicy, "policy", "validate", policy.Name)
	}
	validations := make([]plugincel.ExpressionAccessor, len(policy.Spec.Validations))
	messages := make([]plugincel.ExpressionAccessor, len(policy.Spec.Validations))
	for i, v := range policy.Spec.Validations {
		validations[i] = &validating.ValidationCondition{Expression: v.Expression, Message: v.Message, Reason: v.Reason}
		if v.MessageExpression != "" {
			messages[i] = &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}
		}
	}
	audits := make([]plugincel.ExpressionAccessor, len(policy.Spec.AuditAnnotations))
	for i, a := range policy.Spec.AuditAnnotations {
		audits[i] = &validating.AuditAnnotationCondition{Key: a.Key, ValueExpression: a.ValueExpression}
	}
	return validating.NewValidator(
		filterCompiler.CompileCondition(validations, optionalVars, environment.StoredExpressions),
		matcher,
		filterCompiler.CompileCondition(audits, optionalVars, environment.StoredExpressions),
		filterCompiler.CompileCondition(messages, expressionOptionalVars, environment.StoredExpressions),
		failurePolicy, nil)
}

// validatePolicy is the part of the server's validation of a new policy (k8s.io/kubernetes
// pkg/apis/admissionregistration/validation, validateValidatingAdmissionPolicySpec: not
// linkable, mirrored) that its schema does not say: the CEL expressions must compile (new
// expressions' environment) and have the right type, with the variables composed.
func validatePolicy(p *admissionv1.ValidatingAdmissionPolicy) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	hasParams := p.Spec.ParamKind != nil
	// As the server's createCompiler: a composited one (stateful) only for variables.
	compiler := statelessCompiler()
	var composited *plugincel.CompositedCompiler
	if len(p.Spec.Variables) > 0 {
		var err error
		if composited, err = plugincel.NewCompositedCompiler(baseEnv()); err != nil {
			return field.ErrorList{field.InternalError(spec, err)}
		}
		compiler = composited
	}
	check := func(path *field.Path, acc plugincel.ExpressionAccessor, vars plugincel.OptionalVariableDeclarations) {
		if r := compiler.CompileCELExpression(acc, vars, environment.NewExpressions); r.Error != nil {
			errs = append(errs, celError(path, acc, r.Error))
		}
	}
	if p.Spec.MatchConstraints == nil {
		errs = append(errs, field.Required(spec.Child("matchConstraints"), ""))
	} else if len(p.Spec.MatchConstraints.ResourceRules) == 0 {
		errs = append(errs, field.Required(spec.Child("matchConstraints", "resourceRules"), ""))
	}
	for i, mc := range p.Spec.MatchConditions {
		path := spec.Child("matchConditions").Index(i).Child("expression")
		acc := &matchconditions.MatchCondition{Expression: mc.Expression}
		// The server checks match conditions with a compiler without variables.
		if r := statelessCompiler().CompileCELExpression(acc, plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}, environment.NewExpressions); r.Error != nil {
			errs = append(errs, celError(path, acc, r.Error))
		}
	}
	for i, v := range p.Spec.Variables {
		acc := &validating.Variable{Name: v.Name, Expression: v.Expression}
		if r := composited.CompileAndStoreVariable(acc, plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}, environment.NewExpressions); r.Error != nil {
			errs = append(errs, celError(spec.Child("variables").Index(i).Child("expression"), acc, r.Error))
		}
	}
	if len(p.Spec.Validations) == 0 && len(p.Spec.AuditAnnotations) == 0 {
		errs = append(errs, field.Required(spec.Child("validations"), "validations or auditAnnotations must contain at least one item"))
	}
	for i, v := range p.Spec.Validations {
		path := spec.Child("validations").Index(i)
		if strings.TrimSpace(v.Expression) == "" {
			errs = append(errs, field.Required(path.Child("expression"), "expression is not specified"))
		} else {
			check(path.Child("expression"), &validating.ValidationCondition{Expression: v.Expression}, plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true})
		}
		if strings.TrimSpace(v.MessageExpression) != "" {
			check(path.Child("messageExpression"), &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}, plugincel.OptionalVariableDeclarations{HasParams: hasParams})
		}
	}
	return errs
}

// celError is the server's convertCELErrorToValidationError.
func celError(path *field.Path, acc plugincel.ExpressionAccessor, err error) *field.Error {
	if e, ok := err.(*apiservercel.Error); ok {
		switch e.Type {
		case apiservercel.ErrorTypeRequired:
			return field.Required(path, e.Detail)
		case apiservercel.ErrorTypeInvalid:
			return field.Invalid(path, acc.GetExpression(), e.Detail)
		}
	}
	return field.InternalError(path, err)
}

// inspect reads what the policy's expressions need: why it depends on the cluster ("":
// it does not; the authorizer is the cluster's), whether it reads namespaceObject, and the
// fields of the object each validation reads (spec.replicas for "object.spec.replicas <= 5";
// through variables too), the most specific first, for the error's source line.
func inspect(p *admissionv1.ValidatingAdmissionPolicy) (cluster string, nsObject bool, fields [][]string) {
	vars := map[string][]string{}
	var all []string
	for _, v := range p.Spec.Variables {
		vars[v.Name] = objectFields(v.Expression, vars)
		all = append(all, v.Expression)
	}
	for _, mc := range p.Spec.MatchConditions {
		all = append(all, mc.Expression)
	}
	for _, v := range p.Spec.Validations {
		fields = append(fields, objectFields(v.Expression, vars))
		all = append(all, v.Expression, v.MessageExpression)
	}
	for _, e := range all {
		if idents(e)["authorizer"] {
			cluster = "its expressions call the authorizer, which is the cluster's"
		}
		if idents(e)["namespaceObject"] {
			nsObject = true
		}
	}
	return cluster, nsObject, fields
}

// parse parses a CEL expression (nil: it does not parse; its compile error says so).
func parse(expr string) celast.Expr {
	env, err := celgo.NewEnv()
	if err != nil {
		return nil
	}
	a, iss := env.Parse(expr)
	if iss != nil && iss.Err() != nil {
		return nil
	}
	return a.NativeRep().Expr()
}

// idents returns the identifiers an expression names.
func idents(expr string) map[string]bool {
	out := map[string]bool{}
	walk(parse(expr), func(e celast.Expr) bool {
		if e.Kind() == celast.IdentKind {
			out[e.AsIdent()] = true
		}
		return true
	})
	return out
}

// objectFields returns the paths of the select chains on object in expr
// (object.spec.replicas: spec.replicas), and the fields of the variables it reads (vars), the
// longest first, each once.
func objectFields(expr string, vars map[string][]string) []string {
	var found []string
	walk(parse(expr), func(e celast.Expr) bool {
		if e.Kind() != celast.SelectKind {
			return true
		}
		var path []string
		cur := e
		for cur.Kind() == celast.SelectKind {
			path = append([]string{cur.AsSelect().FieldName()}, path...)
			cur = cur.AsSelect().Operand()
		}
		if cur.Kind() != celast.IdentKind {
			return true
		}
		switch cur.AsIdent() {
		case "object":
			found = append(found, strings.Join(path, "."))
		case "variables":
			found = append(found, vars[path[0]]...)
		}
		return false // the chain's inner selects are its prefixes
	})
	sort.SliceStable(found, func(i, j int) bool { return strings.Count(found[i], ".") > strings.Count(found[j], ".") })
	return slices.Compact(found)
}

// walk visits e and its subexpressions, pre-order, while visit returns true for a node.
func walk(e celast.Expr, visit func(celast.Expr) bool) {
	if e == nil || !visit(e) {
		return
	}
	switch e.Kind() {
	case celast.SelectKind:
		walk(e.AsSelect().Operand(), visit)
	case celast.CallKind:
		c := e.AsCall()
		if c.IsMemberFunction() {
			walk(c.Target(), visit)
		}
		for _, a := range c.Args() {
			walk(a, visit)
		}
	case celast.ListKind:
		for _, x := range e.AsList().Elements() {
			walk(x, visit)
		}
	case celast.MapKind:
		for _, x := range e.AsMap().Entries() {
			walk(x.AsMapEntry().Key(), visit)
			walk(x.AsMapEntry().Value(), visit)
		}
	case celast.StructKind:
		for _, x := range e.AsStruct().Fields() {
			walk(x.AsStructField().Value(), visit)
		}
	case celast.ComprehensionKind:
		c := e.AsComprehension()
		walk(c.IterRange(), visit)
		walk(c.AccuInit(), visit)
		walk(c.LoopCondition(), visit)
		walk(c.LoopStep(), visit)
		walk(c.Result(), visit)
	}
}
