package validate

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Schema is the part of an OpenAPI v3 (structural) schema that Validate checks.
type Schema struct {
	// Types are the JSON types a value may have ("object", "array", "string", "integer",
	// "number", "boolean"); none: any.
	Types  []string
	Format string
	// Properties are the known fields of an object; Additional the schema of the others.
	Properties map[string]*Schema
	Additional *Schema
	// AnyFields: fields no schema names are kept (x-kubernetes-preserve-unknown-fields, or a
	// built-in object type that holds raw JSON, like RawExtension).
	AnyFields bool
	Items     *Schema
	Required  []string
	Enum      []string // the values, as scalars print
	Nullable  bool
	// Embedded: x-kubernetes-embedded-resource, an object with apiVersion, kind and metadata.
	Embedded bool
	// ListType and MapKeys: x-kubernetes-list-type and x-kubernetes-list-map-keys, checked
	// when CheckLists (schemas from CRDs: the API server checks them there).
	ListType   string
	MapKeys    []string
	CheckLists bool

	ref string // a $ref to resolve
}

// converter turns OpenAPI maps (as encoding/json decodes them) into Schemas.
type converter struct {
	builtin bool               // Kubernetes' own document: Go types decode the objects
	refs    map[string]*Schema // components by name, for $ref
	pending []*Schema          // schemas whose ref is to be resolved
	// interned, when set, holds one Schema of each content: CRDs repeat subtrees (a pod
	// template in every job kind and version), and kubeflow's 73 CRDs convert to 47,782
	// Schemas of which 1,139 differ. Only for Schemas nothing changes once converted.
	interned map[string]*Schema
}

// convert converts one schema map. Built-in documents reference components with $ref
// (alone or as the one element of allOf); CRD schemas have none.
func (c *converter) convert(m map[string]any) (*Schema, error) {
	if m == nil {
		return &Schema{AnyFields: true}, nil
	}
	if ref := refOf(m); ref != "" {
		s := &Schema{ref: ref}
		c.pending = append(c.pending, s)
		return s, nil
	}
	s := &Schema{}
	if t, ok := m["type"].(string); ok {
		s.Types = []string{t}
	}
	if one, ok := m["oneOf"].([]any); ok && len(s.Types) == 0 {
		for _, o := range one {
			if om, ok := o.(map[string]any); ok {
				if t, ok := om["type"].(string); ok {
					s.Types = append(s.Types, t)
				}
			}
		}
	}
	s.Format, _ = m["format"].(string)
	if b, _ := m["x-kubernetes-int-or-string"].(bool); b || s.Format == "int-or-string" {
		s.Types = []string{"integer", "string"}
		s.Format = ""
	}
	s.Nullable, _ = m["nullable"].(bool)
	s.AnyFields, _ = m["x-kubernetes-preserve-unknown-fields"].(bool)
	s.Embedded, _ = m["x-kubernetes-embedded-resource"].(bool)
	s.ListType, _ = m["x-kubernetes-list-type"].(string)
	s.CheckLists = !c.builtin
	for _, k := range asSlice(m["x-kubernetes-list-map-keys"]) {
		if k, ok := k.(string); ok {
			s.MapKeys = append(s.MapKeys, k)
		}
	}
	for _, r := range asSlice(m["required"]) {
		if r, ok := r.(string); ok {
			s.Required = append(s.Required, r)
		}
	}
	for _, e := range asSlice(m["enum"]) {
		s.Enum = append(s.Enum, fmt.Sprint(e))
	}
	if props, ok := m["properties"].(map[string]any); ok {
		s.Properties = map[string]*Schema{}
		for name, p := range props {
			pm, _ := p.(map[string]any)
			ps, err := c.convert(pm)
			if err != nil {
				return nil, err
			}
			s.Properties[name] = ps
		}
	}
	switch ap := m["additionalProperties"].(type) {
	case bool:
		s.AnyFields = s.AnyFields || ap
	case map[string]any:
		as, err := c.convert(ap)
		if err != nil {
			return nil, err
		}
		s.Additional = as
	}
	if items, ok := m["items"].(map[string]any); ok {
		is, err := c.convert(items)
		if err != nil {
			return nil, err
		}
		s.Items = is
	}
	// A built-in object type without fields holds any JSON (runtime.RawExtension,
	// FieldsV1), and so does a schema of no type (apiextensions' JSON).
	if c.builtin && s.Properties == nil && s.Additional == nil && (len(s.Types) == 0 || s.Types[0] == "object") {
		s.AnyFields = true
	}
	if c.interned != nil {
		k := s.key()
		if u, ok := c.interned[k]; ok {
			return u, nil
		}
		c.interned[k] = s
	}
	return s, nil
}

// key is the content of a Schema whose subschemas are interned: equal keys, equal Schemas.
func (s *Schema) key() string {
	var b strings.Builder
	list := func(vs []string) {
		b.WriteString(strconv.Itoa(len(vs)))
		for _, v := range vs {
			b.WriteString(strconv.Quote(v))
		}
		b.WriteByte(';')
	}
	list(s.Types)
	list(s.Required)
	list(s.Enum)
	list(s.MapKeys)
	list([]string{s.Format, s.ListType, s.ref})
	for _, f := range []bool{s.AnyFields, s.Nullable, s.Embedded, s.CheckLists, s.Properties != nil} {
		b.WriteString(strconv.FormatBool(f))
	}
	fmt.Fprintf(&b, ";%p;%p;", s.Additional, s.Items)
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "%q:%p,", n, s.Properties[n])
	}
	return b.String()
}

// resolve links every $ref to its component.
func (c *converter) resolve() error {
	for _, s := range c.pending {
		target := s
		for hops := 0; target.ref != ""; hops++ {
			next, ok := c.refs[strings.TrimPrefix(target.ref, "#/components/schemas/")]
			if !ok || hops > 100 {
				return fmt.Errorf("$ref %q: no such schema", target.ref)
			}
			target = next
		}
		*s = *target
	}
	c.pending = nil
	return nil
}

// refOf returns the $ref of a schema that is only a reference: {$ref} or {allOf: [{$ref}]}.
func refOf(m map[string]any) string {
	if r, ok := m["$ref"].(string); ok {
		return r
	}
	if all := asSlice(m["allOf"]); len(all) == 1 {
		if am, ok := all[0].(map[string]any); ok {
			r, _ := am["$ref"].(string)
			return r
		}
	}
	return ""
}

func asSlice(v any) []any { s, _ := v.([]any); return s }
