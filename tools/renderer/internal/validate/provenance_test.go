package validate

import (
	"strings"
	"testing"
)

// TestErrorsNameProvenance: an error on an object krm build --provenance
// annotated names where the object came from and what last changed it.
func TestErrorsNameProvenance(t *testing.T) {
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ annotations, want string }{
		{`provenance.rules-krm.dev/origin: '{"path":"base/cm.yaml","label":"//base"}'`, " (from base/cm.yaml)"},
		{`provenance.rules-krm.dev/origin: '{"generator":"ConfigMapGenerator","configuredIn":"base/kustomization.yaml"}'
    provenance.rules-krm.dev/transformers: '[{"configuredIn":"base/kustomization.yaml","kinds":["LabelTransformer"]},{"configuredIn":"prod/kustomization.yaml","kinds":["PatchTransformer","PrefixTransformer"]}]'`,
			" (from ConfigMapGenerator in base/kustomization.yaml, last changed by PatchTransformer, PrefixTransformer in prod/kustomization.yaml)"},
		{`provenance.rules-krm.dev/origin: 'not json'`, `must be of type object, not integer "5"`},
	} {
		objs, err := Parse("in.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    "+c.annotations+"\ndata: 5\n"))
		if err != nil {
			t.Fatal(err)
		}
		res := v.Validate(objs)
		if len(res) != 1 || len(res[0].Errors) != 1 {
			t.Fatalf("%s: %+v", c.annotations, res)
		}
		if got := res[0].Errors[0].Error(); !strings.HasSuffix(got, c.want) {
			t.Errorf("%s:\n%s\ndoes not end with %q", c.annotations, got, c.want)
		}
	}
}
