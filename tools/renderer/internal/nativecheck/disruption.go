package nativecheck

import "k8s.io/apimachinery/pkg/util/validation/field"

// podDisruptionBudget mirrors policy/validation.ValidatePodDisruptionBudgetSpec's bounds
// and selector.
func (c *checker) podDisruptionBudget(obj map[string]any) {
	spec := mapping(obj["spec"])
	if spec == nil {
		return
	}
	fld := field.NewPath("spec")
	for _, f := range []string{"minAvailable", "maxUnavailable"} {
		c.positiveIntOrPercent(spec[f], fld.Child(f))
		c.notMoreThan100Percent(spec[f], fld.Child(f))
	}
	c.labelSelector(spec["selector"], fld.Child("selector"))
}
