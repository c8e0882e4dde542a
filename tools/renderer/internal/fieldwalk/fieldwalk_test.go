package fieldwalk

import (
	"fmt"
	"math/rand"
	"reflect"
	"strconv"
	"strings"
	"testing"

	fsfilter "sigs.k8s.io/kustomize/api/filters/fieldspec"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/utils"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The tests below prove Misses against kustomize's fieldspec.Filter: when
// Misses says so, the filter calls no setter, returns no error and leaves
// the object as it was.

var walkObjects = []string{
	"kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n        env:\n        - name: X\n          valueFrom:\n            configMapKeyRef:\n              name: cm\n      volumes:\n      - name: v\n        configMap:\n          name: cm\n      - name: w\n        secret:\n          secretName: s\n",
	"kind: X\nspec:\n  template: null\n  list: null\n  items: ~\n  scalar: 3\n  empty: []\n  map: {}\n  '0': zero\n  ' a': spaced\n  nested:\n  - - name: deep\n  - null\n  - 7\n",
	"kind: Y\nspec: &s\n  a: 1\nother: *s\nseq:\n- *s\n",
	"kind: Z\nspec:\n  a:\n    b: c\n  a:\n    d: e\n",
	"kind: Q\nspec: [1, 2]\nlist:\n- a: 1\n- a: null\n- b: 2\n",
}

var walkParts = []string{"spec", "template", "containers", "env", "valueFrom", "configMapKeyRef", "name",
	"volumes", "configMap", "secret", "secretName", "list", "list[]", "items[]", "template[]", "scalar",
	"empty", "map", "0", "-", "*", "[a=b]", "", " a", "nested", "nested[]", "a", "b", "d", "other", "seq", "kind", "missing"}

func randPath(rng *rand.Rand) string {
	parts := make([]string, 1+rng.Intn(5))
	for i := range parts {
		parts[i] = walkParts[rng.Intn(len(walkParts))]
	}
	return strings.Join(parts, "/")
}

// checkWalk runs kustomize's filter on doc with path and compares.
func checkWalk(t *testing.T, doc, path string) (missed bool) {
	t.Helper()
	obj, err := yaml.Parse(doc)
	if err != nil || obj.YNode().Kind != yaml.MappingNode {
		t.Fatalf("not a mapping (%v):\n%s", err, doc) // FuzzMisses gives only mappings
	}
	before := obj.Copy()
	missed = Misses(obj.YNode(), utils.PathSplitter(path, "/"))
	calls := 0
	err = obj.PipeE(fsfilter.Filter{FieldSpec: types.FieldSpec{Path: path}, SetValue: func(*yaml.RNode) error {
		calls++
		return nil
	}})
	if missed && (calls > 0 || err != nil || !reflect.DeepEqual(before.YNode(), obj.YNode())) {
		t.Fatalf("Misses(%q) on\n%s\nbut kustomize called the setter %d times, error %v, object\n%s", path, doc, calls, err, obj.MustString())
	}
	return missed
}

func TestMissesMatchesKustomize(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	counts := map[bool]int{}
	for i := 0; i < 20000; i++ {
		doc := walkObjects[i%len(walkObjects)]
		counts[checkWalk(t, doc, randPath(rng))]++
	}
	// Both answers occur often (the test can fail either way).
	if counts[true] < 2000 || counts[false] < 2000 {
		t.Errorf("answers: %v", counts)
	}
}

func TestMissesKnownPaths(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"spec/template/spec/initContainers/env/valueFrom/configMapKeyRef/name", true},
		{"spec/template/spec/containers/env/valueFrom/configMapKeyRef/name", false},
		{"spec/template/spec/volumes/projected/sources/configMap/name", true},
		{"spec/template/spec/volumes/secret/secretName", false},
		{"spec/template/spec/imagePullSecrets/name", true},
		{"metadata/name", true},
	} {
		if got := checkWalk(t, walkObjects[0], tc.path); got != tc.want {
			t.Errorf("Misses(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

// FuzzMisses takes an object and a path of the fuzzer's own.
func FuzzMisses(f *testing.F) {
	for i, o := range walkObjects {
		f.Add(o, fmt.Sprintf("spec/%s/name", walkParts[i]))
	}
	f.Fuzz(func(t *testing.T, doc, path string) {
		// A recursive alias hangs kyaml's copy.
		if strings.Contains(doc, "*") {
			return
		}
		// Objects are mappings; the filter panics on others.
		if obj, err := yaml.Parse(doc); err != nil || obj.YNode().Kind != yaml.MappingNode {
			return
		}
		checkWalk(t, doc, path)
	})
}

// integer is true wherever strconv.Atoi reads a number.
func TestIntegerCoversAtoi(t *testing.T) {
	for _, s := range []string{"0", "7", "-1", "+12", "007", "99999999999999999999", "1e3", "0x1", "1_0", "a1", "1a", "+", "-", " 1", "١"} {
		if _, err := strconv.Atoi(s); err == nil && !integer(s) {
			t.Errorf("Atoi(%q) is a number; integer says no", s)
		}
	}
}
