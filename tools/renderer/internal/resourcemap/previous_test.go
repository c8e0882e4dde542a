package resourcemap

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The tests below prove StorePreviousID, AddNamePrefix and AddNameSuffix
// equal to kustomize's methods: after any sequence of calls (and renames in
// between) both leave the same node graph, styles, tags and positions
// included, or both panic.

// csvObjects are objects whose metadata and annotations take every shape
// the fast path takes or leaves to kustomize.
var csvObjects = []string{
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  namespace: ns\n  annotations:\n    x: \"1\"\n",
	"apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  annotations:\n    internal.config.kubernetes.io/previousNames: old\n    internal.config.kubernetes.io/previousNamespaces: default\n    internal.config.kubernetes.io/previousKinds: Service\n",
	"apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  annotations:\n    internal.config.kubernetes.io/previousNames: \"old\"\n    internal.config.kubernetes.io/prefixes: 'p-'\n    internal.config.kubernetes.io/suffixes: ''\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations: {}\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations: null\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations:\n",
	"apiVersion: v1\nkind: Secret\nmetadata: {name: s, annotations: {a: b}}\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations:\n    internal.config.kubernetes.io/previousNames: [a, b]\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations:\n    internal.config.kubernetes.io/previousNames: a\n    internal.config.kubernetes.io/previousNames: b\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations:\n    a: b\n  annotations:\n    c: d\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nmetadata:\n  name: t\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations: !!null\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations:\n    internal.config.kubernetes.io/previousNames: !!null\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations:\n    internal.config.kubernetes.io/previousNames: |\n      a\n      b\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations: &an\n    a: b\n  labels: *an\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations:\n    internal.config.kubernetes.io/previousKinds: &k Secret\n    other: *k\n",
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s # comment\n  annotations: # here\n    a: b # and here\n",
	"kind: Namespace\nmetadata:\n  name: n\n",
	"apiVersion: v1\nkind: X\nmetadata:\n  name: x\n  namespace: ~\n",
}

var csvValues = []string{"", "p-", "-s", "a,b", "yes", "x\ny", "é", "\xff", "'q'"}

// csvRun applies one random sequence of calls to r, by kustomize or by the
// functions under test, and reports a panic as its text.
func csvRun(r *resource.Resource, ops []int, ours bool) (panicked string) {
	defer func() {
		if p := recover(); p != nil {
			panicked = fmt.Sprint(p)
		}
	}()
	for _, op := range ops {
		v := csvValues[op%len(csvValues)]
		switch op / len(csvValues) {
		case 0:
			if ours {
				StorePreviousID(r)
			} else {
				r.StorePreviousId()
			}
		case 1:
			if ours {
				AddNamePrefix(r, v)
			} else {
				r.AddNamePrefix(v)
			}
		case 2:
			if ours {
				AddNameSuffix(r, v)
			} else {
				r.AddNameSuffix(v)
			}
		default:
			if err := r.SetName(v); err != nil {
				return err.Error()
			}
		}
	}
	return ""
}

func checkCsv(t *testing.T, doc string, ops []int) {
	t.Helper()
	want, got := one(t, doc), one(t, doc)
	pk, po := csvRun(want, ops, false), csvRun(got, ops, true)
	if pk != po {
		t.Fatalf("ops %v on\n%s\npanics differ: kustomize %q, ours %q", ops, doc, pk, po)
	}
	if !reflect.DeepEqual(want.RNode.YNode(), got.RNode.YNode()) {
		a, _ := want.AsYAML()
		b, _ := got.AsYAML()
		t.Fatalf("ops %v on\n%s\nnodes differ:\nkustomize:\n%s\nours:\n%s", ops, doc, a, b)
	}
}

func TestStorePreviousIDMatchesKustomize(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 4000; i++ {
		doc := csvObjects[i%len(csvObjects)]
		ops := make([]int, 1+rng.Intn(5))
		for j := range ops {
			ops[j] = rng.Intn(4 * len(csvValues))
		}
		checkCsv(t, doc, ops)
	}
}

// The fast path must be taken for the objects kustomize's transformers
// meet, or it gains nothing.
func TestStorePreviousIDFastPathTaken(t *testing.T) {
	for _, doc := range csvObjects[:4] {
		n, err := yaml.Parse(doc)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := annotationsToSet(n.YNode(), prevNamesKey, prevNamespacesKey, prevKindsKey); !ok {
			t.Errorf("fast path refused:\n%s", doc)
		}
	}
}

// FuzzStorePreviousID takes an object and a sequence of calls.
func FuzzStorePreviousID(f *testing.F) {
	for i, o := range csvObjects {
		f.Add(o, []byte{byte(i), 3, 12, 20})
	}
	f.Fuzz(func(t *testing.T, doc string, b []byte) {
		// Aliases are left to the table above: a recursive one hangs
		// kustomize's parser.
		if strings.ContainsAny(doc, "*\t") {
			return
		}
		if rs, err := rf.SliceFromBytes([]byte(doc)); err != nil || len(rs) != 1 {
			return
		}
		var ops []int
		for _, c := range b {
			ops = append(ops, int(c)%(4*len(csvValues)))
		}
		checkCsv(t, doc, ops)
	})
}

// orgID is the first of prevIDs (or curID), whatever the lists hold.
func TestOrgIDIsFirstPrevID(t *testing.T) {
	lists := []string{"", "a", "a,b", ",", "a,,c", "x,y,z,w"}
	for _, names := range lists {
		for _, nss := range lists {
			for _, kinds := range lists {
				for _, hasPrev := range []bool{false, true} {
					m := meta{apiVersion: "apps/v1", kind: "Deployment", name: "n", namespace: "ns",
						prevNames: names, prevNamespaces: nss, prevKinds: kinds, hasPrev: hasPrev}
					want := m.curID()
					if prev := m.prevIDs(); len(prev) > 0 {
						want = prev[0]
					}
					if got := m.orgID(); got != want {
						t.Errorf("orgID of %+v = %v, want %v", m, got, want)
					}
				}
			}
		}
	}
}

// appendAllByIndex is appendAll as it was: every held resource indexed by
// its current ID.
func appendAllByIndex(m *Map, list []*resource.Resource) error {
	idx := map[IDKey]bool{}
	for _, r := range m.list {
		idx[KeyOf(CurID(r))] = true
	}
	for _, r := range list {
		id := CurID(r)
		if idx[KeyOf(id)] {
			return &DuplicateError{ID: id}
		}
		idx[KeyOf(id)] = true
		m.list = append(m.list, r)
	}
	return nil
}

// appendAll reads only names of what it holds; IDs that share a name and
// differ elsewhere (kind, group, namespace, a null name) must still count.
func TestAppendAllMatchesIndex(t *testing.T) {
	kinds := []string{"apiVersion: v1\nkind: ConfigMap", "apiVersion: v1\nkind: Secret", "apiVersion: apps/v1\nkind: Deployment", "apiVersion: x.io/v1\nkind: ConfigMap"}
	names := []string{"a", "b", "'b'", "\"a\""}
	nss := []string{"", "\n  namespace: default", "\n  namespace: x", "\n  namespace: null"}
	docs := func(rng *rand.Rand, n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%s\nmetadata:\n  name: %s%s\n---\n", kinds[rng.Intn(len(kinds))], names[rng.Intn(len(names))], nss[rng.Intn(len(nss))])
		}
		return b.String()
	}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 1000; i++ {
		held, add := docs(rng, rng.Intn(6)), docs(rng, 1+rng.Intn(4))
		a, b := &Map{list: parse(t, held)}, &Map{list: parse(t, held)}
		errA, errB := a.appendAll(parse(t, add)), appendAllByIndex(b, parse(t, add))
		if errString(errA) != errString(errB) || dump(t, a) != dump(t, b) {
			t.Fatalf("holding\n%s\nadding\n%s\nerror %v, by index %v", held, add, errA, errB)
		}
	}
}
