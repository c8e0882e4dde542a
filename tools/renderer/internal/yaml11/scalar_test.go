package yaml11

import (
	"fmt"
	"reflect"
	"testing"

	"sigs.k8s.io/kustomize/api/filters/filtersutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// SetScalar leaves every node as filtersutil.SetScalar does, error included.
func TestSetScalarMatchesKustomize(t *testing.T) {
	// Scalars in each style and tag, and nodes of other kinds.
	targets := []string{"a", "'a'", "\"yes\"", "yes", "null", "~", "1", "|\n  x\n", "!!str 1", "&x a", "[a]", "{a: b}", "- a\n- b\n"}
	for _, target := range targets {
		for _, value := range entryValues {
			want, errW := yaml.Parse(target)
			got, errG := yaml.Parse(target)
			if errW != nil || errG != nil {
				t.Fatal(errW, errG)
			}
			errK := filtersutil.SetScalar(value)(want)
			errO := SetScalar(value)(got)
			if fmt.Sprint(errK) != fmt.Sprint(errO) {
				t.Fatalf("%q on %q: errors differ: %v vs %v", value, target, errK, errO)
			}
			if !reflect.DeepEqual(want.Document(), got.Document()) {
				t.Fatalf("%q on %q: nodes differ:\n%#v\n%#v", value, target, want.Document(), got.Document())
			}
			// The content node alone, as the field-spec walk passes it.
			want, _ = yaml.Parse(target)
			got, _ = yaml.Parse(target)
			errK = filtersutil.SetScalar(value)(yaml.NewRNode(want.YNode()))
			errO = SetScalar(value)(yaml.NewRNode(got.YNode()))
			if fmt.Sprint(errK) != fmt.Sprint(errO) || !reflect.DeepEqual(want.Document(), got.Document()) {
				t.Fatalf("%q on content of %q: differ: %v vs %v\n%#v\n%#v", value, target, errK, errO, want.Document(), got.Document())
			}
		}
	}
}
