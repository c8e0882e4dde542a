package printer

import (
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestAnnotatedMatchesSettingThem: printing an object with annotations
// added (spliced into its printed form where splice accepts the layout)
// gives the bytes kustomize prints once they are set on the object. The
// common layouts must splice: the slow path is no test of the fast one.
func TestAnnotatedMatchesSettingThem(t *testing.T) {
	prov := []Annotation{
		{Key: "provenance.rules-krm.dev/inputs-digest", Value: "sha256:" + strings.Repeat("ab", 32)},
		{Key: "provenance.rules-krm.dev/origin", Value: `{"path":"a/b.yaml","label":"//a:b"}`},
		{Key: "provenance.rules-krm.dev/transformers", Value: `[{"configuredIn":"k.yaml","kinds":["PatchTransformer"]}]`},
	}
	odd := []Annotation{
		{Key: "a", Value: "has space"}, {Key: "b", Value: "it's"}, {Key: "c", Value: "ünïcode"}, {Key: "d", Value: `{"a":"b c"}`}, {Key: "e", Value: "true"}, {Key: "f", Value: ""},
		{Key: "g", Value: strings.Repeat("folded words ", 12)}, {Key: "h", Value: "1.5"},
	}
	seen := Entries{}
	for _, tc := range []struct {
		yaml   string
		ann    []Annotation
		splice bool
	}{
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n", prov, true},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  namespace: y\n  labels:\n    a: b\n", prov, true},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    a: b\n    zz: |\n      multi\n\n      line\n", prov, true},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    provenance.rules-krm.dev/a: b\n    provenance.rules-krm.dev/z: b\n    q: \"1\"\n", prov, true},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    prov9: x\n    provenance10: y\n    provenance.rules-krm.dev/inputs: z\n", prov, true},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  finalizers:\n  - a\n  aaa: b\n", prov, true},
		{"kind: List\nmetadata:\n  name: x\n  annotations:\n    long: " + strings.Repeat("word ", 40) + "\n", prov, true},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n", odd, true},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    b0: x\n", odd, true},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n", []Annotation{{Key: "z", Value: "multi\nline\n"}}, false},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    " + strings.Repeat("k", 140) + ": v\n", prov, false},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    'a: b': v\n", prov, false},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    provenance.rules-krm.dev/origin: old\n", prov, false},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations: {}\n", prov, false},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n", []Annotation{{Key: "a", Value: "1"}, {Key: "a", Value: "2"}}, false},
	} {
		r := object(t, tc.yaml)
		printed, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		slow := r.DeepCopy()
		for _, a := range tc.ann {
			if err := slow.PipeE(yaml.SetAnnotation(a.Key, a.Value)); err != nil {
				t.Fatal(err)
			}
		}
		want, err := slow.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		spliced, ok := splice(printed, sortedCopy(tc.ann), nil)
		if ok != tc.splice {
			t.Errorf("splice ok = %v, want %v:\n%s", ok, tc.splice, tc.yaml)
		}
		if ok && string(spliced) != string(want) {
			t.Errorf("splice differs from setting the annotations:\n%s\nwant:\n%s", spliced, want)
		}
		// Out of order on purpose: WithAnnotations sorts them (keeping
		// the order of those of one key, where the last set wins).
		rev := append([]Annotation(nil), tc.ann...)
		if tc.splice {
			slices.Reverse(rev)
		}
		// Twice: the second time, lines come from seen (shared by all cases).
		for range 2 {
			got, err := WithAnnotations(r.DeepCopy(), rev, seen)
			if err != nil || string(got) != string(want) {
				t.Errorf("WithAnnotations: %v\n%s\nwant:\n%s", err, got, want)
			}
		}
	}
}

func sortedCopy(ann []Annotation) []Annotation {
	out := append([]Annotation(nil), ann...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if keyLess(out[j].Key, out[i].Key) {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func object(t *testing.T, y string) *resource.Resource {
	t.Helper()
	rs, err := resource.NewFactory(&hasher.Hasher{}).SliceFromBytes([]byte(y))
	if err != nil || len(rs) != 1 {
		t.Fatalf("%v (%d)", err, len(rs))
	}
	return rs[0]
}
