package nativecheck

import "k8s.io/apimachinery/pkg/util/validation/field"

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
