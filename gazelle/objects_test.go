package gazelle

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestReadObjects checks readObjects and the field accessors against what kyaml (kio.ByteReader,
// RNode) gives for the same streams.
func TestReadObjects(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // per object: kind/name path=... env=... paths=[...]
		err  bool
	}{
		{in: "", want: nil},
		{in: "---\n---\n# only a comment\n", want: nil},
		{in: "kind: A\nmetadata: {name: a}\npath: p\n--- # next\nkind: B\nenv: e\n", want: []string{"A/a path=p env= paths=[]", "B/ path= env=e paths=[]"}},
		{in: "kind: A\r\n---\r\nkind: B\r\n", want: []string{"A/ path= env= paths=[]", "B/ path= env= paths=[]"}},
		{in: "kind: List\nitems:\n- kind: A\n  metadata: {name: a}\n- kind: B\n", want: []string{"A/a path= env= paths=[]", "B/ path= env= paths=[]"}},
		{in: "kind: List\nitems:\n- kind: A\n---\nkind: B\n", want: []string{"List/ path= env= paths=[]", "B/ path= env= paths=[]"}},
		{in: "kind: X\nmetadata: {name: null}\npath: null\nenv: [e]\npaths: [a, [b], c]\n", want: []string{"X/ path=null env= paths=[a c]"}},
		{in: "null\n---\n- a\n- b\n", want: []string{"/ path= env= paths=[]"}},
		{in: "a: 1\n--- x\nb: 2\n", err: true},
		{in: "a: [\n", err: true},
	} {
		nodes, err := readObjects(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("readObjects(%q): error %v", tc.in, err)
			continue
		}
		var got []string
		for _, n := range nodes {
			got = append(got, fmt.Sprintf("%s/%s path=%s env=%s paths=[%s]", objectKind(n), objectName(n), stringField(n, "path"), stringField(n, "env"), strings.Join(stringsField(n, "paths"), " ")))
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("readObjects(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
