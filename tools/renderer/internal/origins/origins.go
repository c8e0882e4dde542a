// Package origins rewrites kustomize's origin and transformation annotations
// (buildMetadata: originAnnotations, transformerAnnotations) of a base
// rendered on its own, so that they read as if the base had been rendered
// inside its parent, without disturbing the rest of the object.
//
// kustomize's own setters (Resource.SetOrigin, AddTransformation) rebuild
// metadata.annotations from scratch. That cuts the YAML nodes kustomize's
// label and annotation transformers share between fields (a later patch of
// one field then no longer changes the other), which kustomize, rendering
// the base inside its parent, never does; and adding the transformations
// back one by one re-reads and re-writes the whole list each time.
package origins

import (
	"path/filepath"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The annotation keys (kustomize's internal utils.OriginAnnotationKey and
// utils.TransformerAnnotationKey).
const (
	OriginKey          = "config.kubernetes.io/origin"
	TransformationsKey = "alpha.config.kubernetes.io/transformations"
)

// SetOrigin records o as r's origin.
func SetOrigin(r *resource.Resource, o *resource.Origin) error {
	s, err := o.String()
	if err != nil {
		return err
	}
	return setAnnotation(r, OriginKey, s)
}

// Rebase prefixes the paths r's origin and transformations record with
// dir: a base rendered on its own records them relative to itself, while
// kustomize records them relative to the top kustomization.
func Rebase(r *resource.Resource, dir string) error {
	if dir == "" || dir == "." {
		return nil
	}
	o, err := r.GetOrigin()
	if err != nil {
		return err
	}
	if o != nil {
		rebase(o, dir)
		if err := SetOrigin(r, o); err != nil {
			return err
		}
	}
	ts, err := r.GetTransformations()
	if err != nil || len(ts) == 0 {
		return err
	}
	for _, t := range ts {
		rebase(t, dir)
	}
	s, err := ts.String()
	if err != nil {
		return err
	}
	return setAnnotation(r, TransformationsKey, s)
}

func rebase(o *resource.Origin, dir string) {
	if o.Path != "" {
		o.Path = filepath.Join(dir, o.Path)
	}
	if o.ConfiguredIn != "" {
		o.ConfiguredIn = filepath.Join(dir, o.ConfiguredIn)
	}
}

// setAnnotation sets key to value in r's metadata.annotations, creating the
// mapping if there is none, and replacing only the value node of key.
func setAnnotation(r *resource.Resource, key, value string) error {
	annos, err := annotationsInPlace(r)
	if err != nil {
		return err
	}
	if annos == nil {
		// A deleted object, or annotations that are null or not a mapping:
		// kustomize's setter copes, rebuilding them.
		m := r.GetAnnotations()
		m[key] = value
		return r.SetAnnotations(m)
	}
	v := yaml.NewStringRNode(value).YNode()
	content := annos.YNode().Content
	for i := 0; i+1 < len(content); i += 2 {
		if content[i].Value == key {
			content[i+1] = v
			return nil
		}
	}
	annos.YNode().Content = append(content, yaml.NewStringRNode(key).YNode(), v)
	return nil
}

// annotationsInPlace is r's annotations mapping, created when r has no
// annotations field, or nil when r cannot be edited in place.
func annotationsInPlace(r *resource.Resource) (*yaml.RNode, error) {
	if r.YNode() == nil || r.YNode().Kind != yaml.MappingNode {
		return nil, nil
	}
	if meta := r.Field(yaml.MetadataField); meta != nil {
		if f := meta.Value.Field(yaml.AnnotationsField); f != nil {
			if f.Value.YNode().Kind != yaml.MappingNode {
				return nil, nil
			}
			return f.Value, nil
		}
	}
	return r.Pipe(yaml.LookupCreate(yaml.MappingNode, yaml.MetadataField, yaml.AnnotationsField))
}
