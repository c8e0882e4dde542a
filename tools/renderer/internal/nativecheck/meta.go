package nativecheck

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// nameFunc is apimachinery's ValidateNameFunc: the messages of a name, or of a generateName
// prefix.
type nameFunc func(name string, prefix bool) []string

// subdomain mirrors apimachinery's api/validation.NameIsDNSSubdomain.
func subdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return validation.IsDNS1123Subdomain(name)
}

// label mirrors api/validation.NameIsDNSLabel.
func label(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return validation.IsDNS1123Label(name)
}

// pathSegment mirrors api/validation/path.ValidatePathSegmentName (rbac's ValidateRBACName).
func pathSegment(name string, prefix bool) []string {
	return path.ValidatePathSegmentName(name, prefix)
}

// maskTrailingDash mirrors api/validation's: a prefix may end with a dash.
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

// totalAnnotationSizeLimit mirrors api/validation.TotalAnnotationSizeLimitB.
const totalAnnotationSizeLimit = 256 * (1 << 10)

// objectMeta mirrors api/validation.ValidateObjectMetaAccessor on create: generateName and
// name by the kind's function, labels and annotations. A missing name is the schema check's;
// the namespace is the request's (the server sets or clears it).
func (c *checker) objectMeta(meta map[string]any, nameFn nameFunc, fld *field.Path) {
	if meta == nil {
		return
	}
	if g := text(meta["generateName"]); g != "" {
		for _, msg := range nameFn(g, true) {
			c.add(field.Invalid(fld.Child("generateName"), g, msg))
		}
	}
	if n := text(meta["name"]); n != "" {
		for _, msg := range nameFn(n, false) {
			c.add(field.Invalid(fld.Child("name"), n, msg))
		}
	}
	c.labels(stringMap(meta["labels"]), fld.Child("labels"))
	c.annotations(stringMap(meta["annotations"]), fld.Child("annotations"))
}

// labels mirrors meta/v1/validation.ValidateLabels: key and value errors both at fld.
func (c *checker) labels(labels map[string]string, fld *field.Path) {
	for _, k := range sortedKeys(labels) {
		c.labelKey(k, fld)
		for _, msg := range c.is(labelValue, labels[k]) {
			c.add(field.Invalid(fld, labels[k], msg))
		}
	}
}

// labelKey mirrors meta/v1/validation.ValidateLabelName.
func (c *checker) labelKey(k string, fld *field.Path) {
	for _, msg := range c.is(qualifiedName, k) {
		c.add(field.Invalid(fld, k, msg))
	}
}

// annotations mirrors api/validation.ValidateAnnotations: keys are qualified names in any
// case, keys and values together at most 256 KiB.
func (c *checker) annotations(annotations map[string]string, fld *field.Path) {
	size := 0
	for _, k := range sortedKeys(annotations) {
		for _, msg := range c.is(qualifiedName, strings.ToLower(k)) {
			c.add(field.Invalid(fld, k, msg))
		}
		size += len(k) + len(annotations[k])
	}
	if size > totalAnnotationSizeLimit {
		c.add(field.TooLong(fld, "", totalAnnotationSizeLimit))
	}
}

// selector is a label selector as metav1.LabelSelectorAsSelector reads it.
type selector struct {
	raw   map[string]any
	match map[string]string
	exprs []requirement
	valid bool // LabelSelectorAsSelector would not fail
}

type requirement struct {
	key, op string
	values  []string
}

// labelSelector mirrors meta/v1/validation.ValidateLabelSelector (strict label values), and
// reads the selector; nil when absent.
func (c *checker) labelSelector(v any, fld *field.Path) *selector {
	raw := mapping(v)
	if raw == nil {
		return nil
	}
	s := &selector{raw: raw, match: stringMap(raw["matchLabels"]), valid: true}
	c.labels(s.match, fld.Child("matchLabels"))
	for i, e := range list(raw["matchExpressions"]) {
		e := mapping(e)
		p := fld.Child("matchExpressions").Index(i)
		r := requirement{key: text(e["key"]), op: text(e["operator"])}
		for _, val := range list(e["values"]) {
			r.values = append(r.values, text(val))
		}
		switch r.op {
		case "In", "NotIn":
			if len(r.values) == 0 {
				c.add(field.Required(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
				s.valid = false
			}
		case "Exists", "DoesNotExist":
			if len(r.values) > 0 {
				c.add(field.Forbidden(p.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
				s.valid = false
			}
		default:
			c.add(field.Invalid(p.Child("operator"), r.op, "not a valid selector operator"))
			s.valid = false
		}
		for _, msg := range c.is(qualifiedName, r.key) {
			c.add(field.Invalid(p.Child("key"), r.key, msg))
			s.valid = false
		}
		for j, val := range r.values {
			for _, msg := range c.is(labelValue, val) {
				c.add(field.Invalid(p.Child("values").Index(j), val, msg))
				s.valid = false
			}
		}
		s.exprs = append(s.exprs, r)
	}
	for k, val := range s.match {
		if len(c.is(qualifiedName, k)) > 0 || len(c.is(labelValue, val)) > 0 {
			s.valid = false
		}
	}
	return s
}

// empty reports whether the selector selects everything (labels.Selector.Empty).
func (s *selector) empty() bool { return len(s.match)+len(s.exprs) == 0 }

// matches mirrors labels.Selector.Matches of the selector LabelSelectorAsSelector makes.
func (s *selector) matches(labels map[string]string) bool {
	for k, v := range s.match {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, r := range s.exprs {
		got, ok := labels[r.key]
		in := false
		for _, v := range r.values {
			if ok && got == v {
				in = true
			}
		}
		switch r.op {
		case "In":
			if !in {
				return false
			}
		case "NotIn":
			if in {
				return false
			}
		case "Exists":
			if !ok {
				return false
			}
		case "DoesNotExist":
			if ok {
				return false
			}
		}
	}
	return true
}
