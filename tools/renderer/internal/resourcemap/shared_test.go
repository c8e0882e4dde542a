package resourcemap

import (
	"testing"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// sharedObject is a Deployment whose metadata/labels/cache and pod template
// labels/cache are one node, as kustomize's label transformer leaves them.
func sharedObject(t *testing.T) (*resource.Resource, *yaml.Node) {
	t.Helper()
	r, err := resource.NewFactory(&hasher.Hasher{}).FromBytes([]byte(
		"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\n" +
			"spec:\n  template:\n    metadata:\n      labels:\n        app: web\n"))
	if err != nil {
		t.Fatal(err)
	}
	v := yaml.NewScalarRNode("prod")
	for _, path := range [][]string{{"metadata", "labels"}, {"spec", "template", "metadata", "labels"}} {
		labels, err := r.Pipe(yaml.Lookup(path...))
		if err != nil || labels == nil {
			t.Fatalf("%v: %v", path, err)
		}
		if err := labels.PipeE(yaml.FieldSetter{Name: "cache", Value: v}); err != nil {
			t.Fatal(err)
		}
	}
	return r, v.YNode()
}

func templateCache(t *testing.T, r *resource.Resource) string {
	t.Helper()
	n, err := r.Pipe(yaml.Lookup("spec", "template", "metadata", "labels", "cache"))
	if err != nil || n == nil {
		t.Fatalf("no template label: %v", err)
	}
	return n.YNode().Value
}

// setMetadataCache sets metadata/labels/cache in place, as kustomize's
// FieldSetter does for an existing field.
func setMetadataCache(t *testing.T, r *resource.Resource, v string) {
	t.Helper()
	labels, _ := r.Pipe(yaml.Lookup("metadata", "labels"))
	if err := labels.PipeE(yaml.FieldSetter{Name: "cache", Value: yaml.NewScalarRNode(v)}); err != nil {
		t.Fatal(err)
	}
}

func TestDeepCopyKeepsSharedNodes(t *testing.T) {
	r, _ := sharedObject(t)
	m, err := FromResources([]*resource.Resource{r})
	if err != nil {
		t.Fatal(err)
	}
	c := m.DeepCopy().Resources()[0]
	setMetadataCache(t, c, "true")
	if got := templateCache(t, c); got != "true" {
		t.Errorf("copy: template label %q after setting the metadata label; want the shared node changed (true)", got)
	}
	if got := templateCache(t, r); got != "prod" {
		t.Errorf("original: template label %q; the copy must share nothing with it", got)
	}
}
