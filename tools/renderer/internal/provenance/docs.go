package provenance

import (
	"strings"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
)

// place maps the resources read from one file to their documents. It
// returns nil when the mapping is not certain.
func place(res []*resource.Resource, docs []provmanifest.Document) []*provmanifest.Document {
	out := make([]*provmanifest.Document, 0, len(res))
	for i := range docs {
		for j := 0; j < docs[i].Items; j++ {
			out = append(out, &docs[i])
		}
	}
	if len(out) != len(res) {
		return nil
	}
	for i, r := range res {
		d := out[i]
		if d.Items == 1 && !strings.HasSuffix(d.Kind, "List") && d.Kind != "" && d.Kind != r.GetKind() {
			return nil
		}
	}
	return out
}

func sha(b []byte) string { return provmanifest.Sha256(b) }

func shaString(s string) string { return sha([]byte(s)) }

// isSecret reports whether r is a core Secret, whose data provenance never
// hashes.
func isSecret(r *resource.Resource) bool {
	return r.GetKind() == "Secret" && r.GetGvk().Group == ""
}

// redactedSha hashes r with every value under data and stringData
// blanked, so that nothing secret enters the hash.
func redactedSha(r *resource.Resource) string {
	n := r.RNode.Copy()
	for _, f := range []string{"data", "stringData"} {
		m := n.Field(f)
		if m == nil || m.Value == nil {
			continue
		}
		v := m.Value.YNode()
		if v.Kind != yaml.MappingNode {
			*v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str"}
			continue
		}
		for i := 1; i < len(v.Content); i += 2 {
			v.Content[i] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str"}
		}
	}
	s, err := n.String()
	if err != nil {
		return ""
	}
	return shaString(s)
}

// nodeSha hashes one resource as parsed (used for items of List documents).
func nodeSha(r *resource.Resource) string {
	if isSecret(r) {
		return redactedSha(r)
	}
	s, err := r.RNode.String()
	if err != nil {
		return ""
	}
	return shaString(s)
}
