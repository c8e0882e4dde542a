package load

import (
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/types"
)

// Each subset's fields are Kustomization's: the same names, types, tags and embedding, so
// that a file decodes to the same values through either.
func TestSubsetsAreKustomizationFields(t *testing.T) {
	full := reflect.TypeFor[types.Kustomization]()
	var check func(reflect.Type)
	check = func(sub reflect.Type) {
		for i := range sub.NumField() {
			f := sub.Field(i)
			if !f.IsExported() {
				check(f.Type) // an embedded subset
				continue
			}
			k, ok := full.FieldByName(f.Name)
			if !ok || k.Type != f.Type || k.Tag != f.Tag || k.Anonymous != f.Anonymous || len(k.Index) != 1 {
				t.Errorf("%s.%s %s %q is not Kustomization's (%v: %s %q)", sub.Name(), f.Name, f.Type, f.Tag, ok, k.Type, k.Tag)
			}
		}
	}
	for _, sub := range subsets {
		check(sub)
	}
}

// encoding/json matches keys case-insensitively: were two of Kustomization's JSON names equal
// but for case, a key could pick another field in a subset than in Kustomization.
func TestKustomizationNamesDifferIgnoringCase(t *testing.T) {
	seen := map[string]string{}
	var walk func(reflect.Type)
	walk = func(rt reflect.Type) {
		for i := range rt.NumField() {
			f := rt.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous && name == "" {
				walk(f.Type)
				continue
			}
			if other, dup := seen[strings.ToLower(name)]; dup {
				t.Errorf("%s and %s: JSON names equal but for case", other, f.Name)
			}
			seen[strings.ToLower(name)] = f.Name
		}
	}
	walk(reflect.TypeFor[types.Kustomization]())
}

// decodeKustomization gives what kustomize's Unmarshal gives, values and errors, whichever
// struct decodes the file; the subsets decode the files they are for.
func TestDecodeKustomizationIsUnmarshal(t *testing.T) {
	subset := map[string]int{"empty": 0, "null": 0, "resources": 0, "type meta": 0, "case": 0, "plain fields": 0, "common fields": 1, "duplicate keys": 0}
	for name, doc := range map[string]string{
		"empty":             "",
		"null":              "null\n",
		"resources":         "resources:\n- cm.yaml\n- ../base\n",
		"type meta":         "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nmetadata:\n  name: x\n  annotations: {a: b}\nresources: [a.yaml]\n",
		"case":              "Resources: [a.yaml]\nNAMESPACE: ns\n",
		"plain fields":      "namespace: ns\nnamePrefix: p-\nnameSuffix: -s\ncommonLabels: {a: b}\ncommonAnnotations: {c: d}\ncomponents: [c]\ncrds: [crd.yaml]\nbases: [b]\nconfigurations: [k.yaml]\nbuildMetadata: [originAnnotations]\n",
		"common fields":     "labels:\n- pairs: {a: b}\n  includeSelectors: true\n  fields:\n  - path: spec/x\n    kind: Deployment\npatches:\n- path: p.yaml\n  target:\n    kind: Deployment\n    labelSelector: a=b\n  options:\n    allowNameChange: true\nimages:\n- name: nginx\n  newTag: \"1.2\"\n  digest: sha256:abc\nreplicas:\n- name: d\n  count: 3\nconfigMapGenerator:\n- name: cm\n  literals: [a=b]\n  files: [f.txt]\n  behavior: merge\n  options:\n    disableNameSuffixHash: true\nsecretGenerator:\n- name: s\n  envs: [.env]\n  type: Opaque\ngeneratorOptions:\n  labels: {x: z}\npatchesStrategicMerge:\n- p.yaml\npatchesJson6902:\n- path: j.yaml\n  target: {kind: Service, name: s}\n",
		"other fields":      "resources: [a.yaml]\nhelmCharts:\n- name: c\n  valuesInline: {a: 1}\nvars:\n- name: V\n  objref: {kind: Service, name: s, apiVersion: v1}\n",
		"unknown field":     "resources: [a.yaml]\nresourcez: [b.yaml]\n",
		"wrong type":        "resources: a.yaml\n",
		"wrong nested type": "images:\n- name: [x]\n",
		"not yaml":          "resources: [a\n",
		"not a mapping":     "- a\n- b\n",
		"numbers":           "namespace: 1\ncommonLabels: {a: 1}\nreplicas:\n- name: d\n  count: \"3\"\n",
		"duplicate keys":    "resources: [a.yaml]\nresources: [b.yaml]\n",
		"yaml 1.1 boolean":  "generatorOptions:\n  labels: {x: y}\n",
	} {
		var want types.Kustomization
		wantErr := want.Unmarshal([]byte(doc))
		got, err := decodeKustomization([]byte(doc))
		if !reflect.DeepEqual(got, want) || errText(err) != errText(wantErr) {
			t.Errorf("%s: got %+v, %v\nwant %+v, %v", name, got, err, want, wantErr)
		}
		wantSubset, ok := subset[name]
		if !ok {
			wantSubset = -1
		}
		if n := decodeSubset([]byte(doc), &types.Kustomization{}); n != wantSubset {
			t.Errorf("%s: decoded by subset %d, want %d", name, n, wantSubset)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
