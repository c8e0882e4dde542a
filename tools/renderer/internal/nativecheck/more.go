package nativecheck

import (
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

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

// claimSpec mirrors core/validation.ValidatePersistentVolumeClaimSpec's first rule.
func (c *checker) claimSpec(spec map[string]any, fld *field.Path) {
	if spec != nil && len(list(spec["accessModes"])) == 0 {
		c.add(field.Required(fld.Child("accessModes"), "at least 1 access mode is required"))
	}
}

func (c *checker) persistentVolumeClaim(obj map[string]any) {
	c.claimSpec(mapping(obj["spec"]), field.NewPath("spec"))
}

// persistentVolume mirrors core/validation.ValidatePersistentVolumeSpec's access modes.
func (c *checker) persistentVolume(obj map[string]any) {
	if spec := mapping(obj["spec"]); spec != nil && len(list(spec["accessModes"])) == 0 {
		c.add(field.Required(field.NewPath("spec", "accessModes"), ""))
	}
}

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

const rbacGroup = "rbac.authorization.k8s.io"

// roleBinding mirrors rbac/validation.ValidateRoleBinding (namespaced) and
// ValidateClusterRoleBinding: the roleRef and the subjects.
func (c *checker) roleBinding(obj map[string]any, namespaced bool) {
	ref := mapping(obj["roleRef"])
	kinds := []string{"ClusterRole"}
	if namespaced {
		kinds = []string{"Role", "ClusterRole"}
	}
	if ref != nil {
		p := field.NewPath("roleRef")
		if g := text(ref["apiGroup"]); g != "" && g != rbacGroup { // "": defaulted to rbac's
			c.add(field.NotSupported(p.Child("apiGroup"), g, []string{rbacGroup}))
		}
		if k := text(ref["kind"]); k != "Role" && k != "ClusterRole" || !namespaced && k != "ClusterRole" {
			c.add(field.NotSupported(p.Child("kind"), k, kinds))
		}
		if n := text(ref["name"]); n != "" {
			for _, msg := range pathSegment(n, false) {
				c.add(field.Invalid(p.Child("name"), n, msg))
			}
		}
	}
	for i, s := range list(obj["subjects"]) {
		c.subject(mapping(s), namespaced, field.NewPath("subjects").Index(i))
	}
}

// subject mirrors rbac/validation.ValidateRoleBindingSubject after the server's defaults
// (a User's or Group's apiGroup is rbac's).
func (c *checker) subject(s map[string]any, namespaced bool, fld *field.Path) {
	if s == nil {
		return
	}
	name, group := text(s["name"]), text(s["apiGroup"])
	switch kind := text(s["kind"]); kind {
	case "ServiceAccount":
		if name != "" {
			for _, msg := range subdomain(name, false) {
				c.add(field.Invalid(fld.Child("name"), name, msg))
			}
		}
		if group != "" {
			c.add(field.NotSupported(fld.Child("apiGroup"), group, []string{""}))
		}
		if !namespaced && text(s["namespace"]) == "" {
			c.add(field.Required(fld.Child("namespace"), ""))
		}
	case "User", "Group":
		if group != "" && group != rbacGroup {
			c.add(field.NotSupported(fld.Child("apiGroup"), group, []string{rbacGroup}))
		}
	case "":
	default:
		c.add(field.NotSupported(fld.Child("kind"), kind, []string{"ServiceAccount", "User", "Group"}))
	}
}

// probes mirrors core/validation's probe handlers' ports (ValidatePortNumOrName of
// httpGet and tcpSocket).
func (c *checker) probes(ctr map[string]any, fld *field.Path) {
	for _, probe := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		pr := mapping(ctr[probe])
		for _, h := range []string{"httpGet", "tcpSocket"} {
			if hd := mapping(pr[h]); hd != nil {
				c.portNumOrName(hd["port"], fld.Child(probe, h, "port"))
			}
		}
	}
}

// portNumOrName mirrors core/validation.ValidatePortNumOrName.
func (c *checker) portNumOrName(v any, fld *field.Path) {
	switch t := v.(type) {
	case float64:
		if n, ok := integer(t); ok {
			for _, msg := range validation.IsValidPortNum(int(n)) {
				c.add(field.Invalid(fld, int(n), msg))
			}
		}
	case string:
		for _, msg := range c.is(portName, t) {
			c.add(field.Invalid(fld, t, msg))
		}
	}
}
