package fieldspec

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/kustomize/api/ifc"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/yaml"
)

// OpenAPI extensions a `crds:` definition uses to mark fields that hold
// annotations, label selectors, identities and references to other objects.
const (
	xAnnotation    = "x-kubernetes-annotation"
	xLabelSelector = "x-kubernetes-label-selector"
	xIdentity      = "x-kubernetes-identity"
	xRefVersion    = "x-kubernetes-object-ref-api-version"
	xRefKind       = "x-kubernetes-object-ref-kind"
	xRefNameKey    = "x-kubernetes-object-ref-name-key"
)

type definition struct {
	Schema       spec.Schema
	Dependencies []string
}

type definitions map[string]definition

// LoadCRDs derives field specs from the OpenAPI definition files a
// kustomization lists under `crds`.
func LoadCRDs(ldr ifc.Loader, paths []string) (*Config, error) {
	out := &Config{}
	for _, p := range paths {
		content, err := ldr.Load(p)
		if err != nil {
			return nil, err
		}
		var defs definitions
		if len(content) > 0 && content[0] == '{' {
			err = json.Unmarshal(content, &defs)
		} else {
			err = yaml.Unmarshal(content, &defs)
		}
		if err != nil {
			return nil, fmt.Errorf("unable to parse open API definition from '%s': %w", p, err)
		}
		c, err := configFromDefinitions(defs)
		if err != nil {
			return nil, err
		}
		if out, err = out.Merge(c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func configFromDefinitions(defs definitions) (*Config, error) {
	out := &Config{}
	for name, d := range defs {
		props := d.Schema.SchemaProps.Properties
		_, k := props["kind"]
		_, a := props["apiVersion"]
		_, m := props["metadata"]
		if !k || !a || !m {
			continue
		}
		parts := strings.Split(name, ".")
		c := &Config{}
		if err := c.addDefinition(resid.Gvk{Kind: parts[len(parts)-1]}, defs, name, nil); err != nil {
			return nil, err
		}
		var err error
		if out, err = out.Merge(c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (c *Config) addDefinition(gvk resid.Gvk, defs definitions, typeName string, path []string) error {
	d, ok := defs[typeName]
	if !ok {
		return nil
	}
	fs := func(p ...string) types.FieldSpec {
		return types.FieldSpec{Gvk: gvk, Path: strings.Join(append(append([]string{}, path...), p...), "/")}
	}
	var err error
	for prop, schema := range d.Schema.SchemaProps.Properties {
		if _, ok := schema.Extensions.GetString(xAnnotation); ok {
			if c.CommonAnnotations, err = c.CommonAnnotations.MergeOne(fs(prop)); err != nil {
				return err
			}
		}
		if _, ok := schema.Extensions.GetString(xLabelSelector); ok {
			if c.CommonLabels, err = c.CommonLabels.MergeOne(fs(prop)); err != nil {
				return err
			}
		}
		if _, ok := schema.Extensions.GetString(xIdentity); ok {
			if c.NamePrefix, err = c.NamePrefix.MergeOne(fs(prop)); err != nil {
				return err
			}
		}
		if version, ok := schema.Extensions.GetString(xRefVersion); ok {
			if kind, ok := schema.Extensions.GetString(xRefKind); ok {
				key, ok := schema.Extensions.GetString(xRefNameKey)
				if !ok {
					key = "name"
				}
				ref := NameBackReference{Gvk: resid.Gvk{Kind: kind, Version: version}, Referrers: types.FsSlice{fs(prop, key)}}
				if c.NameReference, err = c.NameReference.mergeOne(ref); err != nil {
					return err
				}
			}
		}
		if schema.Ref.GetURL() != nil {
			if err := c.addDefinition(gvk, defs, schema.Ref.String(), append(append([]string{}, path...), prop)); err != nil {
				return err
			}
		}
	}
	return nil
}
