package nativecheck

import (
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// networkPolicy mirrors networking/validation.ValidateNetworkPolicyPort for the ports of
// each ingress and egress rule, and the pod selector.
func (c *checker) networkPolicy(obj map[string]any) {
	spec := mapping(obj["spec"])
	if spec == nil {
		return
	}
	fld := field.NewPath("spec")
	c.labelSelector(spec["podSelector"], fld.Child("podSelector"))
	for _, dir := range []string{"ingress", "egress"} {
		for i, rule := range list(spec[dir]) {
			for j, port := range list(mapping(rule)["ports"]) {
				c.networkPolicyPort(mapping(port), fld.Child(dir).Index(i).Child("ports").Index(j))
			}
		}
	}
}

func (c *checker) networkPolicyPort(port map[string]any, fld *field.Path) {
	if port == nil {
		return
	}
	end, hasEnd := integer(port["endPort"])
	switch p := port["port"].(type) {
	case float64:
		n, ok := integer(p)
		if !ok {
			return
		}
		for _, msg := range validation.IsValidPortNum(int(n)) {
			c.add(field.Invalid(fld.Child("port"), int32(n), msg))
		}
		if hasEnd {
			if end < n {
				c.add(field.Invalid(fld.Child("endPort"), int32(end), "must be greater than or equal to `port`"))
			}
			for _, msg := range validation.IsValidPortNum(int(end)) {
				c.add(field.Invalid(fld.Child("endPort"), int32(end), msg))
			}
		}
	case string:
		if hasEnd {
			c.add(field.Invalid(fld.Child("endPort"), int32(end), "may not be specified when `port` is non-numeric"))
		}
		for _, msg := range c.is(portName, p) {
			c.add(field.Invalid(fld.Child("port"), p, msg))
		}
	case nil:
		if hasEnd {
			c.add(field.Invalid(fld.Child("endPort"), int32(end), "may not be specified when `port` is not specified"))
		}
	}
}

// ingress mirrors networking/validation.ValidateIngressSpec's first rule.
func (c *checker) ingress(obj map[string]any) {
	spec := mapping(obj["spec"])
	if spec == nil {
		return
	}
	if _, ok := spec["defaultBackend"]; !ok && len(list(spec["rules"])) == 0 {
		c.add(field.Invalid(field.NewPath("spec"), jsonValue{list(spec["rules"])}, "either `defaultBackend` or `rules` must be specified"))
	}
}
