package yamlnode

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// JSON writes node n as JSON, a scalar typed by its resolved tag as go-yaml decodes it
// (JSONType), a key written twice kept twice. Linear in n: go-yaml's own decoding, which
// kyaml's MarshalJSON uses, compares each mapping's keys pairwise (27 s for a CRD of 60,000
// properties).
func JSON(n *yaml.Node) []byte {
	var b bytes.Buffer
	writeJSON(&b, n)
	return b.Bytes()
}

func writeJSON(b *bytes.Buffer, n *yaml.Node) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			b.WriteString("null")
			return
		}
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
		j, err := json.Marshal(scalar(n))
		if err != nil { // an infinity or NaN
			j, _ = json.Marshal(n.Value)
		}
		b.Write(j)
	}
}

// scalar is the value of a scalar node typed as JSON writes it.
func scalar(n *yaml.Node) any {
	switch JSONType(n) {
	case "null":
		return nil
	case "boolean":
		if t, err := strconv.ParseBool(n.Value); err == nil {
			return t
		}
	case "integer":
		plain := strings.ReplaceAll(n.Value, "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return i
		} else if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return u
		} else if f, err := strconv.ParseFloat(plain, 64); err == nil {
			return f
		}
	case "number":
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return f
		}
	}
	return n.Value
}

// Value is n as encoding/json decodes JSON(n) into an any (map[string]any, []any, float64,
// bool, string, nil; of a key written twice the last), without writing the text.
func Value(n *yaml.Node) any {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return Value(n.Content[0])
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = Value(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			l[i] = Value(c)
		}
		return l
	}
	switch v := scalar(n).(type) {
	case int64:
		return float64(v)
	case uint64:
		return float64(v)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return n.Value // as JSON writes it
		}
		return v
	default:
		return v
	}
}

// JSONType is the JSON type of n as the API server reads it: object, array, integer,
// number, boolean, null or string.
func JSONType(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "object"
	case yaml.SequenceNode:
		return "array"
	}
	switch n.ShortTag() {
	case "!!int":
		return "integer"
	case "!!float":
		return "number"
	case "!!bool":
		return "boolean"
	case "!!null":
		return "null"
	}
	return "string"
}

// DuplicateKey is the first key of a mapping in n (n included) that the mapping already
// has, nil when there is none: YAML allows a key once. Linear in n.
func DuplicateKey(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.MappingNode && len(n.Content) > 2 {
		seen := make(map[string]struct{}, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if _, dup := seen[k.Value]; dup {
				return k
			}
			seen[k.Value] = struct{}{}
		}
	}
	for _, c := range n.Content {
		if k := DuplicateKey(c); k != nil {
			return k
		}
	}
	return nil
}
