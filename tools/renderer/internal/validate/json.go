package validate

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// jsonOf writes a node as JSON as kyaml reads it (the types of jsonType), keeping the fields
// written twice: what kubectl sends the API server for it.
func jsonOf(n *yaml.Node) []byte {
	var b bytes.Buffer
	writeJSON(&b, n)
	return b.Bytes()
}

func writeJSON(b *bytes.Buffer, n *yaml.Node) {
	switch n.Kind {
	case yaml.DocumentNode:
		writeJSON(b, n.Content[0])
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(n.Content[i].Value)
			b.Write(k)
			b.WriteByte(':')
			writeJSON(b, n.Content[i+1])
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, c)
		}
		b.WriteByte(']')
	default:
		var v any = n.Value
		switch jsonType(n) {
		case "null":
			b.WriteString("null")
			return
		case "boolean":
			if t, err := strconv.ParseBool(n.Value); err == nil {
				v = t
			}
		case "integer":
			if i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
				v = i
			}
		case "number":
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
				v = f
			}
		}
		j, err := json.Marshal(v)
		if err != nil { // an infinity or NaN
			j, _ = json.Marshal(n.Value)
		}
		b.Write(j)
	}
}
