package nativecheck

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// workload mirrors apps/validation's ValidateDeploymentSpec, ValidateReplicaSetSpec,
// ValidateStatefulSetSpec and ValidateDaemonSetSpec: the selector, its match of the
// template's labels, the template, and its restartPolicy (Always, the default).
func (c *checker) workload(obj map[string]any, what string) {
	spec := mapping(obj["spec"])
	if spec == nil {
		return
	}
	fld := field.NewPath("spec")
	tmpl := mapping(spec["template"])
	tmplLabels := stringMap(mapping(tmpl["metadata"])["labels"])
	sel := c.labelSelector(spec["selector"], fld.Child("selector"))
	if sel != nil && sel.empty() {
		c.add(field.Invalid(fld.Child("selector"), jsonValue{sel.raw}, "empty selector is invalid for "+what))
	}
	if sel != nil && sel.valid && !sel.empty() && tmpl != nil && !sel.matches(tmplLabels) {
		c.add(field.Invalid(fld.Child("template", "metadata", "labels"), tmplLabels, "`selector` does not match template `labels`"))
	}
	if tmpl == nil {
		return
	}
	var claims []string
	if what == "statefulset" {
		// ValidateStatefulSetSpec: the claim templates are volumes of the pods
		// (volumesToAddForTemplates); serviceName a DNS label.
		for i, t := range list(spec["volumeClaimTemplates"]) {
			if n := text(mapping(mapping(t)["metadata"])["name"]); n != "" {
				claims = append(claims, n)
			}
			// ValidatePersistentVolumeClaimTemplate
			c.claimSpec(mapping(mapping(t)["spec"]), fld.Child("volumeClaimTemplates").Index(i).Child("spec"))
		}
		if s := text(spec["serviceName"]); s != "" {
			c.dns1123Label(s, fld.Child("serviceName"))
		}
	}
	c.podTemplateWith(tmpl, fld.Child("template"), claims)
	if what == "deployment" && obj["kind"] == "Deployment" {
		c.deploymentStrategy(mapping(spec["strategy"]), fld.Child("strategy"))
	}
	if rp := text(mapping(tmpl["spec"])["restartPolicy"]); rp != "" && rp != "Always" {
		c.add(field.NotSupported(fld.Child("template", "spec", "restartPolicy"), rp, []string{"Always"}))
	}
}

// replicationController mirrors core/validation.ValidatePodTemplateSpecForRC: a selector
// (a map; the server defaults it to the template's labels) that matches the template's
// labels.
func (c *checker) replicationController(obj map[string]any) {
	spec := mapping(obj["spec"])
	tmpl := mapping(spec["template"])
	if tmpl == nil {
		return
	}
	fld := field.NewPath("spec")
	sel := stringMap(spec["selector"])
	labels := stringMap(mapping(tmpl["metadata"])["labels"])
	if len(sel) > 0 { // ValidateNonEmptySelector checks no label syntax
		s := &selector{match: sel}
		if !s.matches(labels) {
			c.add(field.Invalid(fld.Child("template", "metadata", "labels"), labels, "`selector` does not match template `labels`"))
		}
	}
	c.podTemplate(tmpl, fld.Child("template"))
	if rp := text(mapping(tmpl["spec"])["restartPolicy"]); rp != "" && rp != "Always" {
		c.add(field.NotSupported(fld.Child("template", "spec", "restartPolicy"), rp, []string{"Always"}))
	}
}

// job mirrors batch/validation.ValidateJob on create: the template and its restartPolicy
// (OnFailure or Never; the default Always is refused), and a manual selector's match.
func (c *checker) job(obj map[string]any) {
	spec := mapping(obj["spec"])
	if spec == nil {
		return
	}
	fld := field.NewPath("spec")
	if manual, _ := spec["manualSelector"].(bool); manual {
		// Else the server writes the selector and the labels it selects.
		sel := c.labelSelector(spec["selector"], fld.Child("selector"))
		tmplLabels := stringMap(mapping(mapping(spec["template"])["metadata"])["labels"])
		if sel != nil && sel.valid && !sel.matches(tmplLabels) {
			c.add(field.Invalid(fld.Child("template", "metadata", "labels"), tmplLabels, "`selector` does not match template `labels`"))
		}
	}
	c.jobSpec(spec, fld)
}

// jobSpec mirrors batch/validation.validateJobSpec's template and restartPolicy checks.
func (c *checker) jobSpec(spec map[string]any, fld *field.Path) {
	tmpl := mapping(spec["template"])
	if tmpl == nil {
		return
	}
	c.podTemplate(tmpl, fld.Child("template"))
	switch rp := text(mapping(tmpl["spec"])["restartPolicy"]); rp {
	case "", "Always":
		c.add(field.Required(fld.Child("template", "spec", "restartPolicy"), fmt.Sprintf("valid values: %q, %q", "OnFailure", "Never")))
	case "OnFailure", "Never":
	default:
		c.add(field.NotSupported(fld.Child("template", "spec", "restartPolicy"), rp, []string{"OnFailure", "Never"}))
	}
}

// cronJob mirrors batch/validation.ValidateCronJobCreate: a name of at most 52 characters
// (the controller appends 11), and the job template's spec.
func (c *checker) cronJob(obj map[string]any) {
	if n := text(mapping(obj["metadata"])["name"]); len(n) > 63-11 {
		c.add(field.Invalid(field.NewPath("metadata", "name"), n, "must be no more than 52 characters"))
	}
	fld := field.NewPath("spec", "jobTemplate", "spec")
	if spec := mapping(mapping(mapping(obj["spec"])["jobTemplate"])["spec"]); spec != nil {
		c.jobSpec(spec, fld)
	}
}

// positiveIntOrPercent mirrors apps/validation.ValidatePositiveIntOrPercent (the value
// printed as the server prints an IntOrString).
func (c *checker) positiveIntOrPercent(v any, fld *field.Path) {
	switch t := v.(type) {
	case string:
		for _, msg := range validation.IsValidPercent(t) {
			c.add(field.Invalid(fld, jsonValue{t}, msg))
		}
	case float64:
		if n, ok := integer(t); ok && n < 0 {
			c.add(field.Invalid(fld, n, "must be greater than or equal to 0"))
		}
	}
}

// notMoreThan100Percent mirrors apps/validation.IsNotMoreThan100Percent.
func (c *checker) notMoreThan100Percent(v any, fld *field.Path) {
	t, ok := v.(string)
	if !ok || len(validation.IsValidPercent(t)) > 0 {
		return
	}
	if n, err := strconv.Atoi(strings.TrimSuffix(t, "%")); err == nil && n > 100 {
		c.add(field.Invalid(fld, jsonValue{t}, "must not be greater than 100%"))
	}
}

// intOrPercentZero reports whether v is 0 or "0%" (apps/validation.getIntOrPercentValue).
func intOrPercentZero(v any) bool {
	switch t := v.(type) {
	case string:
		return strings.TrimSuffix(t, "%") == "0"
	case float64:
		return t == 0
	}
	return false
}

// deploymentStrategy mirrors apps/validation.ValidateRollingUpdateDeployment (both bounds
// default to 25%).
func (c *checker) deploymentStrategy(strategy map[string]any, fld *field.Path) {
	ru := mapping(strategy["rollingUpdate"])
	if ru == nil {
		return
	}
	p := fld.Child("rollingUpdate")
	mu, ms := ru["maxUnavailable"], ru["maxSurge"]
	c.positiveIntOrPercent(mu, p.Child("maxUnavailable"))
	c.positiveIntOrPercent(ms, p.Child("maxSurge"))
	if intOrPercentZero(mu) && intOrPercentZero(ms) {
		c.add(field.Invalid(p.Child("maxUnavailable"), jsonValue{mu}, "may not be 0 when `maxSurge` is 0"))
	}
	c.notMoreThan100Percent(mu, p.Child("maxUnavailable"))
}
