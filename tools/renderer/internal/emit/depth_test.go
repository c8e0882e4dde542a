package emit

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/printer"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// deepObject is an object nesting depth maps and lists (the root counted):
// spec holds depth-1 collections, of kinds in turn, around leaf. The nodes
// are built, not parsed: kyaml takes minutes to read mappings that deep.
func deepObject(t *testing.T, depth int, kinds []yaml.Kind, leaf *yaml.Node) *resource.Resource {
	t.Helper()
	r, err := resource.NewFactory(&hasher.Hasher{}).FromBytes([]byte("apiVersion: v1\nkind: Foo\nmetadata:\n  name: deep\nspec: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	n := leaf
	for i := depth - 2; i >= 0; i-- {
		switch kinds[i%len(kinds)] {
		case yaml.MappingNode:
			n = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: "a"}, n}}
		default:
			n = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{n}}
		}
	}
	root := r.RNode.YNode()
	root.Content[len(root.Content)-1] = n
	return r
}

// kustomize prints an object through JSON, which go-yaml reads back at most
// 10000 collections deep: deeper, its build fails ("yaml: exceeded max depth
// of 10000"), and so does krm's, naming the object; at the bound the output
// is kustomize's. (Only lists are printed at the bound: block mappings that
// deep print 100 MB, which go-yaml takes minutes to write.)
func TestMaxDepth(t *testing.T) {
	maps, lists, mixed := []yaml.Kind{yaml.MappingNode}, []yaml.Kind{yaml.SequenceNode}, []yaml.Kind{yaml.MappingNode, yaml.SequenceNode}
	one := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"}
	float := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: "1.5"} // takes kustomize's own path
	for _, leaf := range []*yaml.Node{one, float} {
		r := deepObject(t, yamlnode.MaxDepth, lists, leaf)
		want, err := r.AsYAML()
		if err != nil {
			t.Fatalf("AsYAML at the bound: %v", err)
		}
		if got, err := printer.Object(r); err != nil || string(got) != string(want) {
			t.Errorf("at the bound, leaf %s: Object = %d bytes, %v; want AsYAML's %d bytes", leaf.Value, len(got), err, len(want))
		}
	}
	for _, c := range []struct {
		name  string
		kinds []yaml.Kind
		leaf  *yaml.Node
	}{
		{"maps", maps, one},
		{"lists", lists, one},
		{"mixed", mixed, one},
		{"slow path", maps, float},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := resourcemap.FromResources([]*resource.Resource{deepObject(t, yamlnode.MaxDepth+1, c.kinds, c.leaf)})
			if err != nil {
				t.Fatal(err)
			}
			_, err = YAML(m, observe.Nop{})
			if err == nil || !strings.Contains(err.Error(), "Foo.v1.[noGrp]/deep.[noNs]: yaml: exceeded max depth of 10000") || len(err.Error()) > 400 {
				t.Errorf("past the bound: got %.400v, want a short error naming the object", err)
			}
			// With annotations (provenance's) to add.
			_, err = printer.WithAnnotations(m.Resources()[0], []observe.Annotation{{Key: "example.com/a", Value: "b"}}, printer.Entries{})
			if err == nil || !strings.HasPrefix(err.Error(), "yaml: exceeded max depth of 10000") || len(err.Error()) > 400 {
				t.Errorf("past the bound, annotated: got %.400v, want the depth error", err)
			}
		})
	}
}
