package origins

import (
	"fmt"
	"testing"

	"sigs.k8s.io/kustomize/api/provider"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

var factory = provider.NewDefaultDepProvider().GetResourceFactory()

func newResource(t *testing.T, src string) *resource.Resource {
	t.Helper()
	r, err := factory.FromBytes([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    metadata:
      name: pod
`

func origin(i int) *resource.Origin {
	return &resource.Origin{
		ConfiguredIn: fmt.Sprintf("dir%d/kustomization.yaml", i),
		ConfiguredBy: yaml.ResourceIdentifier{TypeMeta: yaml.TypeMeta{APIVersion: "builtin", Kind: "LabelTransformer"}},
	}
}

// Rebase writes the annotations kustomize's setters would write.
func TestRebaseAsKustomize(t *testing.T) {
	ours, theirs := newResource(t, deployment), newResource(t, deployment)
	for _, r := range []*resource.Resource{ours, theirs} {
		if err := r.SetOrigin(&resource.Origin{Path: "base/deploy.yaml"}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 5; i++ {
			if err := r.AddTransformation(origin(i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := Rebase(ours, "../up"); err != nil {
		t.Fatal(err)
	}
	ts, err := theirs.GetTransformations()
	if err != nil {
		t.Fatal(err)
	}
	if err := theirs.ClearTransformations(); err != nil {
		t.Fatal(err)
	}
	for _, o := range ts {
		rebase(o, "../up")
		if err := theirs.AddTransformation(o); err != nil {
			t.Fatal(err)
		}
	}
	if err := theirs.SetOrigin(&resource.Origin{Path: "../up/base/deploy.yaml"}); err != nil {
		t.Fatal(err)
	}
	got, want := ours.GetAnnotations(), theirs.GetAnnotations()
	if len(got) != 2 || got[OriginKey] != want[OriginKey] || got[TransformationsKey] != want[TransformationsKey] {
		t.Errorf("annotations differ:\nours      %q\nkustomize %q", got, want)
	}
}

// A value node shared by two fields (as kustomize's label and annotation
// transformers leave it) stays shared.
func TestKeepsSharedNodes(t *testing.T) {
	r := newResource(t, deployment)
	if err := r.SetOrigin(&resource.Origin{Path: "deploy.yaml"}); err != nil {
		t.Fatal(err)
	}
	if err := r.AddTransformation(origin(1)); err != nil {
		t.Fatal(err)
	}
	shared := yaml.NewStringRNode("v1")
	for _, path := range [][]string{{"metadata", "annotations"}, {"spec", "template", "metadata", "annotations"}} {
		m, err := r.Pipe(yaml.LookupCreate(yaml.MappingNode, path...))
		if err != nil {
			t.Fatal(err)
		}
		if err := m.PipeE(yaml.FieldSetter{Name: "team", Value: shared}); err != nil {
			t.Fatal(err)
		}
	}
	if err := Rebase(r, "base"); err != nil {
		t.Fatal(err)
	}
	// What a later patch does to one of the fields.
	top, err := r.Pipe(yaml.Lookup("metadata", "annotations", "team"))
	if err != nil {
		t.Fatal(err)
	}
	top.YNode().Value = "v2"
	inner, err := r.Pipe(yaml.Lookup("spec", "template", "metadata", "annotations", "team"))
	if err != nil {
		t.Fatal(err)
	}
	if v := yaml.GetValue(inner); v != "v2" {
		t.Errorf("template annotation = %q, want v2 (the node is no longer shared)", v)
	}
}

func TestNullAnnotations(t *testing.T) {
	r := newResource(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations: null\n")
	if err := SetOrigin(r, &resource.Origin{Path: "c.yaml"}); err != nil {
		t.Fatal(err)
	}
	if got := r.GetAnnotations()[OriginKey]; got != "path: c.yaml\n" {
		t.Errorf("origin = %q", got)
	}
}
