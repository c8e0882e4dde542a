// Package stamp puts Bazel's workspace status (--stamp) into rendered
// manifests: a `{STABLE_...}` or `{BUILD_...}` placeholder in a label or
// annotation value or an `image` field becomes the status value of that key.
// It runs as its own action after the render, so everything before it stays
// deterministic and cacheable.
package stamp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"
)

// ParseStatus reads workspace status files (`KEY VALUE` lines, as Bazel's
// stable-status.txt and volatile-status.txt hold them) into one map; a key
// of a later file wins.
func ParseStatus(files ...[]byte) map[string]string {
	status := map[string]string{}
	for _, f := range files {
		for _, line := range strings.Split(string(f), "\n") {
			line = strings.TrimRight(line, "\r")
			if line == "" {
				continue
			}
			k, v, _ := strings.Cut(line, " ")
			status[k] = v
		}
	}
	return status
}

// placeholder is a status key in braces; only these prefixes are Bazel's.
var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{((?:STABLE|BUILD)_[A-Z0-9_]+)\}`) })

// Manifests returns the YAML stream manifests (as krm prints it) with the
// placeholders replaced. Objects without placeholders keep their bytes; an
// object with some is printed again as kustomize prints objects, so the
// result is what krm build prints had the values been written in the sources.
func Manifests(manifests []byte, status map[string]string) ([]byte, error) {
	if !placeholder().Match(manifests) {
		return manifests, nil
	}
	docs := splitDocs(manifests)
	var out bytes.Buffer
	for i, doc := range docs {
		if i > 0 {
			out.WriteString("---\n")
		}
		if !placeholder().Match(doc) {
			out.Write(doc)
			continue
		}
		stamped, err := stampDoc(doc, status)
		if err != nil {
			return nil, err
		}
		out.Write(stamped)
	}
	return out.Bytes(), nil
}

// splitDocs splits a stream at its `---` lines.
func splitDocs(b []byte) [][]byte {
	var docs [][]byte
	start := 0
	for i := 0; i < len(b); {
		end := bytes.IndexByte(b[i:], '\n')
		if end < 0 {
			break
		}
		line := b[i : i+end]
		if string(line) == "---" {
			docs = append(docs, b[start:i])
			start = i + end + 1
		}
		i += end + 1
	}
	return append(docs, b[start:])
}

func stampDoc(doc []byte, status map[string]string) ([]byte, error) {
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var obj interface{}
	if err := d.Decode(&obj); err != nil {
		return nil, err
	}
	s := &stamper{status: status}
	s.walk(obj, nil, false)
	if s.err != nil {
		return nil, fmt.Errorf("%s: %w", objectID(obj), s.err)
	}
	if !s.changed {
		return doc, nil
	}
	j, err = json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return yaml.JSONToYAML(j)
}

type stamper struct {
	status  map[string]string
	changed bool
	err     error
}

// walk visits v at path; labels says v is a metadata.labels or
// metadata.annotations map, whose values may hold placeholders.
func (s *stamper) walk(v interface{}, path []string, labels bool) {
	switch x := v.(type) {
	case map[string]interface{}:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // the first error is the same on every run
		for _, k := range keys {
			p := append(path[:len(path):len(path)], k)
			if str, ok := x[k].(string); ok && (labels || k == "image") {
				x[k] = s.replace(str, p)
				continue
			}
			inMeta := len(path) > 0 && path[len(path)-1] == "metadata"
			s.walk(x[k], p, inMeta && (k == "labels" || k == "annotations"))
		}
	case []interface{}:
		for i, c := range x {
			s.walk(c, append(path[:len(path):len(path)], fmt.Sprintf("[%d]", i)), false)
		}
	}
}

func (s *stamper) replace(v string, path []string) string {
	return placeholder().ReplaceAllStringFunc(v, func(m string) string {
		key := m[1 : len(m)-1]
		val, ok := s.status[key]
		if !ok {
			if s.err == nil {
				s.err = fmt.Errorf("%s: %s is not a key of the workspace status (it has %s): "+
					"print it from the --workspace_status_command script", fieldPath(path), m, keysOf(s.status))
			}
			return m
		}
		s.changed = true
		return val
	})
}

func fieldPath(path []string) string {
	var b strings.Builder
	for _, p := range path {
		if !strings.HasPrefix(p, "[") && b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

func keysOf(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return "no keys"
	}
	return strings.Join(keys, ", ")
}

func objectID(obj interface{}) string {
	m, _ := obj.(map[string]interface{})
	kind, _ := m["kind"].(string)
	meta, _ := m["metadata"].(map[string]interface{})
	name, _ := meta["name"].(string)
	if ns, _ := meta["namespace"].(string); ns != "" {
		return kind + "/" + ns + "/" + name
	}
	return kind + "/" + name
}
