package validate

import (
	"strings"
	"testing"
)

const crdYAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: integer}
              port: {x-kubernetes-int-or-string: true}
              mode: {type: string, enum: [fast, slow]}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
              tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items: {type: object, required: [name], properties: {name: {type: string}, n: {type: integer}}}
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
`

// cases: a YAML object and the errors expected ("" for valid), as FIELD: substring lines.
var cases = []struct {
	name, yaml string
	want       []string
}{
	{"valid deployment", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: prod, labels: {app: web}, creationTimestamp: null}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        ports: [{containerPort: 80}]
        resources: {limits: {cpu: 500m, memory: 1Gi}}
        livenessProbe: {httpGet: {port: http, path: /}}
`, nil},
	{"misspelt field", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replica: 2
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}
`, []string{`spec.replica: unknown field "spec.replica"`}},
	{"string for int", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: "2"
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}
`, []string{`spec.replicas: Invalid value: must be of type integer, not string "2"`}},
	{"missing required", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: {containers: [{image: nginx}]}}
`, []string{`spec.template.spec.containers[0].name: Required value`}},
	{"bad enum and quantity and duplicate", `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    image: i
    imagePullPolicy: Sometimes
    resources: {limits: {cpu: lots}}
    name: d
`, []string{`spec.containers[0].imagePullPolicy: Unsupported value`, `spec.containers[0].resources.limits[cpu]: Invalid value: "lots"`, `spec.containers[0].name: duplicate field "name"`}},
	{"unknown kind", `apiVersion: example.org/v1
kind: Gadget
metadata: {name: g}
`, []string{`no schema for example.org/v1 Gadget`}},
	{"allowed kind", `apiVersion: allowed.example/v1
kind: Thing
metadata: {name: g}
`, nil},
	{"CRD itself", crdYAML, nil},
	{"valid CR", `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  size: 3
  port: http
  mode: fast
  extra: {anything: [1, 2], goes: {here: true}}
  tags: [a, b]
  ports: [{name: a}, {name: b, n: 2}]
  template: {apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: b}}
`, nil},
	{"invalid CR", `apiVersion: example.com/v1
kind: Widget
metadata: {name: w, bogus: 1}
spec:
  port: 1.5
  mode: medium
  tags: [a, a]
  ports: [{name: a}, {name: a}]
  template: {kind: ConfigMap}
  colour: red
`, []string{`metadata.bogus: unknown field`, `spec.port: Invalid value: must be of type integer or string, not number`,
		`spec.mode: Unsupported value`, `spec.tags[1]: Duplicate value`, `spec.ports[1]: Duplicate value`,
		`spec.template.apiVersion: Required value`, `spec.colour: unknown field`, `spec.size: Required value`}},
	{"CR of an unserved version", `apiVersion: example.com/v2
kind: Widget
metadata: {name: w}
`, []string{`apiVersion: the CustomResourceDefinition of example.com/Widget`}},
	{"no name", `apiVersion: v1
kind: ConfigMap
metadata: {namespace: x}
data: {a: "1"}
`, []string{`metadata.name: Required value`}},
}

func TestValidate(t *testing.T) {
	crds, err := Parse("crd.yaml", []byte(crdYAML))
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(Options{AllowKinds: []GroupKind{{"allowed.example", "*"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.AddCRDs(crds); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			objs, err := Parse("in.yaml", []byte(c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			res := v.Validate(objs)
			var got []string
			for _, e := range res[0].Errors {
				got = append(got, e.Error())
			}
			all := strings.Join(got, "\n")
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("no error %q in:\n%s", w, all)
				}
			}
			if len(got) != len(c.want) {
				t.Errorf("got %d errors, want %d:\n%s", len(got), len(c.want), all)
			}
		})
	}
}

func TestParseBounds(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"alias", "a: &x 1\nb: *x\n", "f.yaml: document 1: invalid input: line 1: YAML anchors and aliases"},
		{"deep", strings.Repeat("[", 200) + strings.Repeat("]", 200), "nested deeper than 128"},
		{"scalar", "just text\n", "not a mapping"},
	} {
		_, err := Parse("f.yaml", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestCRDSchemasShared: the CRDs' Schemas of equal content are one, and only those.
func TestCRDSchemasShared(t *testing.T) {
	const sub = `{type: object, properties: {n: {type: integer}, s: {type: string}}}`
	// Two versions of one schema; a and b alike, the others differing from a in one way.
	const schema = `{openAPIV3Schema: {type: object, properties: {a: ` + sub + `, b: ` + sub + `,
      c: {type: object, properties: {n: {type: integer}, s: {type: string, enum: [x]}}},
      d: {type: object, properties: {n: {type: integer}, s: {type: string}}, required: [n]},
      e: {type: object, properties: {n: {type: number}, s: {type: string}}},
      f: {type: object, properties: {m: {type: integer}, s: {type: string}}},
      g: {type: object, properties: {}}, h: {type: object}}}}`
	crds, err := Parse("crd.yaml", []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: pairs.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Pair, plural: pairs}
  versions:
  - {name: v1, served: true, storage: true, schema: `+schema+`}
  - {name: v2, served: true, schema: `+schema+`}
`))
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.AddCRDs(crds); err != nil {
		t.Fatal(err)
	}
	c := v.crds[GroupKind{"example.com", "Pair"}]
	v1, v2 := c.versions["v1"], c.versions["v2"]
	if v1 == nil || v1 != v2 {
		t.Errorf("versions v1 and v2 of equal schemas are two Schemas: %p, %p", v1, v2)
	}
	p := v1.Properties
	if p["a"] != p["b"] {
		t.Errorf("properties a and b of equal schemas are two Schemas")
	}
	for _, k := range []string{"c", "d", "e", "f", "g", "h"} {
		if p[k] == p["a"] {
			t.Errorf("property %s is a's Schema, though it differs", k)
		}
	}
	if p["g"] == p["h"] {
		t.Errorf("properties g (no fields) and h (any fields) are one Schema")
	}
}
