// Command kubeconform writes the schemas krm validate uses (the pinned OpenAPI v3 documents of
// one Kubernetes version, and the CustomResourceDefinitions in the files given) as the JSON
// Schema (draft 4) files kubeconform reads, so that dev/scripts/bench-validate.sh can run both tools
// on the same schemas:
//
//	go run ./tools/renderer/dev/kubeconform -out DIR [-kubernetes-version v1.37] [CRD FILES...]
//	kubeconform -strict -schema-location 'DIR/{{ .Group }}/{{ .ResourceAPIVersion }}/{{ .ResourceKind }}.json' ...
//
// One file per kind and version, DIR/GROUP/VERSION/KIND.json (the core group as "v1", which is
// what kubeconform's {{ .Group }} is for apiVersion v1), holding the kind's schema and, under
// "definitions", every schema it refers to. It is strict the way kubeconform's published
// "-strict" schemas are: an object schema that lists properties gets additionalProperties
// false, unless x-kubernetes-preserve-unknown-fields says otherwise. x-kubernetes-int-or-string
// becomes a oneOf of integer and string, every type also takes null (the API server drops null
// fields before validating), and an embedded resource accepts apiVersion, kind and metadata. The same inputs write the same bytes.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/validate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/validate/schemas"
)

func main() {
	out := flag.String("out", "", "the directory to write (created)")
	version := flag.String("kubernetes-version", schemas.Default, "the pinned Kubernetes version")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: kubeconform -out DIR [-kubernetes-version v1.37] [CRD FILES...]")
		os.Exit(2)
	}
	n, err := run(*out, *version, flag.Args())
	if err != nil {
		fmt.Fprintf(os.Stderr, "kubeconform schemas: %v\n", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "wrote %d schemas into %s\n", n, *out)
}

func run(out, version string, crdFiles []string) (int, error) {
	written := 0
	for _, gv := range schemas.GroupVersions(version) {
		doc, err := schemas.Document(version, gv)
		if err != nil {
			return written, err
		}
		var d struct {
			Components struct {
				Schemas map[string]any `json:"schemas"`
			} `json:"components"`
		}
		if err := json.Unmarshal(doc, &d); err != nil {
			return written, fmt.Errorf("%s %s: %w", version, gv, err)
		}
		defs := d.Components.Schemas
		for _, name := range sortedKeys(defs) {
			m, _ := defs[name].(map[string]any)
			gvks, _ := m["x-kubernetes-group-version-kind"].([]any)
			for _, g := range gvks {
				g, _ := g.(map[string]any)
				group, _ := g["group"].(string)
				ver, _ := g["version"].(string)
				kind, _ := g["kind"].(string)
				if gvJoin(group, ver) != gv {
					continue
				}
				s := withDefinitions(name, defs)
				if err := write(out, group, ver, kind, s); err != nil {
					return written, err
				}
				written++
			}
		}
	}
	if len(crdFiles) == 0 {
		return written, nil
	}
	objs, err := validate.Read(crdFiles)
	if err != nil {
		return written, err
	}
	for _, o := range objs {
		if yamlnode.Scalar(yamlnode.Field(o.Node, "apiVersion")) != "apiextensions.k8s.io/v1" || yamlnode.Scalar(yamlnode.Field(o.Node, "kind")) != "CustomResourceDefinition" {
			continue
		}
		group, kind, versions, err := validate.CRDVersions(o)
		if err != nil {
			return written, err
		}
		if kind == "" {
			continue
		}
		for _, v := range versions {
			s := convert(v.Schema, nil).(map[string]any)
			if _, ok := s["properties"]; ok {
				resourceFields(s) // the API server's own, in every CRD's schema
			}
			if err := write(out, group, v.Name, kind, s); err != nil {
				return written, err
			}
			written++
		}
	}
	return written, nil
}

func gvJoin(group, version string) string {
	if group == "" {
		return version
	}
	return group + "/" + version
}

// write writes the schema of group/version/kind where kubeconform's template looks for it.
func write(out, group, version, kind string, s any) error {
	dir := group
	if group == "" {
		dir = version // kubeconform's {{ .Group }} of apiVersion "v1"
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	p := filepath.Join(out, dir, version, strings.ToLower(kind)+".json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

// withDefinitions returns the schema name of defs with every schema it refers to, directly
// or not, under "definitions".
func withDefinitions(name string, defs map[string]any) map[string]any {
	used := map[string]any{}
	queue := []string{name}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if _, ok := used[n]; ok {
			continue
		}
		m, _ := defs[n].(map[string]any)
		var refs []string
		used[n] = convert(m, &refs)
		queue = append(queue, refs...)
	}
	root := map[string]any{}
	for k, v := range used[name].(map[string]any) {
		root[k] = v
	}
	root["definitions"] = used
	return root
}

const refPrefix = "#/components/schemas/"

// convert returns the JSON Schema of an OpenAPI v3 schema, appending the names it refers to.
func convert(v any, refs *[]string) any {
	switch t := v.(type) {
	case []any:
		out := make([]any, len(t))
		for i, c := range t {
			out[i] = convert(c, refs)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t)+1)
		for k, c := range t {
			switch k {
			case "$ref":
				name := strings.TrimPrefix(fmt.Sprint(c), refPrefix)
				if refs != nil {
					*refs = append(*refs, name)
				}
				out[k] = "#/definitions/" + name
			case "properties", "patternProperties", "definitions":
				// names, not schemas keywords
				props, _ := c.(map[string]any)
				m := make(map[string]any, len(props))
				for p, ps := range props {
					m[p] = convert(ps, refs)
				}
				out[k] = m
			case "enum", "default", "example", "required":
				out[k] = c
			default:
				out[k] = convert(c, refs)
			}
		}
		if t["x-kubernetes-int-or-string"] == true {
			delete(out, "type")
			out["oneOf"] = []any{map[string]any{"type": []any{"integer", "null"}}, map[string]any{"type": "string"}}
		}
		// The API server drops a null field before validating (krm validate does too), so
		// null passes everywhere, as in kubeconform's published schemas; in a oneOf, only
		// its first branch takes it.
		if typ, ok := out["type"].(string); ok {
			out["type"] = []any{typ, "null"}
		}
		if one, ok := out["oneOf"].([]any); ok {
			for _, b := range one[1:] {
				if b, ok := b.(map[string]any); ok {
					if typ, ok := b["type"].([]any); ok {
						b["type"] = typ[0]
					}
				}
			}
		}
		if t["x-kubernetes-embedded-resource"] == true {
			resourceFields(out)
		}
		_, hasProps := out["properties"]
		_, hasAdditional := out["additionalProperties"]
		if hasProps && !hasAdditional && t["x-kubernetes-preserve-unknown-fields"] != true {
			out["additionalProperties"] = false
		}
		return out
	}
	return v
}

// resourceFields lets an object schema take apiVersion, kind and metadata.
func resourceFields(s map[string]any) {
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	for p, t := range map[string]string{"apiVersion": "string", "kind": "string", "metadata": "object"} {
		if _, ok := props[p]; !ok {
			props[p] = map[string]any{"type": t}
		}
	}
	s["properties"] = props
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
