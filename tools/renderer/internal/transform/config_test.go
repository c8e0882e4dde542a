package transform

import (
	"testing"

	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
)

// configYAML must give exactly yaml.Marshal's bytes: provenance publishes
// their hash.
func TestConfigYAML(t *testing.T) {
	d := fieldspec.Defaults()
	long := "a very long value with spaces that yaml.v2 would fold if it were wider than its best width of eighty columns"
	labels := func(pairs map[string]string) func([]types.FieldSpec) interface{} {
		return func(fss []types.FieldSpec) interface{} {
			return struct {
				Labels     map[string]string
				FieldSpecs []types.FieldSpec
			}{pairs, fss}
		}
	}
	annotations := func(ann map[string]string) func([]types.FieldSpec) interface{} {
		return func(fss []types.FieldSpec) interface{} {
			return struct {
				Annotations map[string]string
				FieldSpecs  []types.FieldSpec
			}{ann, fss}
		}
	}
	replica := func(r types.Replica) func([]types.FieldSpec) interface{} {
		return func(fss []types.FieldSpec) interface{} {
			return struct {
				Replica    types.Replica
				FieldSpecs []types.FieldSpec
			}{r, fss}
		}
	}
	// A list that differs from the defaults in one field only: never the
	// defaults' cached YAML.
	other := append([]types.FieldSpec(nil), d.CommonLabels...)
	other[len(other)-1].CreateIfNotPresent = !other[len(other)-1].CreateIfNotPresent
	for _, tc := range []struct {
		name   string
		config func([]types.FieldSpec) interface{}
		fss    []types.FieldSpec
	}{
		{"labels", labels(map[string]string{"app": "web", "FieldSpecs": "null", "x": long}), d.CommonLabels},
		{"labels nil", labels(nil), d.CommonLabels},
		{"labels other specs", labels(nil), other},
		{"labels empty specs", labels(map[string]string{"a": "b"}), []types.FieldSpec{}},
		{"labels nil specs", labels(map[string]string{"a": "b"}), nil},
		{"annotations", annotations(map[string]string{"note": "multi\nline\n", "n": "1"}), d.CommonAnnotations},
		{"replicas", replica(types.Replica{Name: "web", Count: 3}), d.Replicas},
		{"replicas zero", replica(types.Replica{Name: "FieldSpecs: null"}), d.Replicas},
	} {
		for i := 0; i < 2; i++ { // the second time from the cache
			got, err := configYAML(tc.config, tc.fss)
			if err != nil {
				t.Fatal(err)
			}
			want, err := yaml.Marshal(tc.config(tc.fss))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s: configYAML =\n%s\nwant\n%s", tc.name, got, want)
			}
		}
	}
}
