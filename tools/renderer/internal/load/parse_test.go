package load

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/kio"
)

// parseCases are streams ParseNodes must read exactly as kio.FromBytes.
var parseCases = map[string]string{
	"plain":                      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v # c\n",
	"two docs":                   "kind: A\nmetadata:\n  name: a\n---\n# head\nkind: B\nmetadata:\n  name: b\n",
	"anchor and alias":           "kind: A\nmetadata:\n  name: &n a\n  labels:\n    x: *n\n",
	"merge key":                  "kind: A\nmetadata:\n  name: a\nbase: &b\n  x: 1\n  y: 2\nover:\n  <<: *b\n  y: 3\n",
	"merge list":                 "kind: A\nmetadata:\n  name: a\na: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n  z: 3\n",
	"anchor only":                "kind: A\nmetadata: &m\n  name: a\n",
	"duplicate key":              "kind: A\nmetadata:\n  name: a\ndata:\n  k: 1\n  j: 2\n  k: 3\n",
	"duplicate key in a big map": "kind: A\nmetadata:\n  name: a\ndata:\n" + bigMap(40) + "  k0: again\n",
	"big map":                    "kind: A\nmetadata:\n  name: a\ndata:\n" + bigMap(40),
	"quoted merge-looking key":   "kind: A\nmetadata:\n  name: a\ndata:\n  \"<<\": x\n",
	"empty docs":                 "---\n---\nkind: A\nmetadata:\n  name: a\n---\n",
	"crlf":                       "kind: A\r\nmetadata:\r\n  name: a\r\n",
	"list":                       "apiVersion: v1\nkind: List\nitems:\n- kind: A\n  metadata:\n    name: a\n- kind: B\n  metadata:\n    name: b\n",
	"anchor in second doc":       "kind: A\nmetadata:\n  name: a\n---\nkind: B\nmetadata:\n  name: &n b\n  labels: {n: *n}\n",
}

func bigMap(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  k%d: v%d\n", i, i)
	}
	return b.String()
}

func TestParseNodesMatchesKyaml(t *testing.T) {
	for name, in := range parseCases {
		t.Run(name, func(t *testing.T) {
			want, wantErr := kio.FromBytes([]byte(in))
			got, err := ParseNodes([]byte(in))
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("error %v, kyaml's %v", err, wantErr)
			}
			if len(got) != len(want) {
				t.Fatalf("%d nodes, kyaml %d", len(got), len(want))
			}
			for i := range got {
				if !reflect.DeepEqual(got[i].YNode(), want[i].YNode()) {
					t.Errorf("node %d differs:\n%s\nkyaml:\n%s", i, got[i].MustString(), want[i].MustString())
				}
				if got[i].MustString() != want[i].MustString() {
					t.Errorf("node %d prints differently", i)
				}
			}
		})
	}
}

func TestScanDeAnchor(t *testing.T) {
	for name, want := range map[string]bool{
		"plain": false, "two docs": false, "big map": false, "crlf": false,
		"anchor and alias": true, "merge key": true, "merge list": true, "anchor only": true,
		"duplicate key": true, "duplicate key in a big map": true, "quoted merge-looking key": true,
	} {
		nodes, err := (&kio.ByteReader{OmitReaderAnnotations: true, Reader: strings.NewReader(parseCases[name])}).Read()
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, n := range nodes {
			deAnchor, _ := scan(n.YNode(), 0)
			got = got || deAnchor
		}
		if got != want {
			t.Errorf("%s: scan says de-anchor %v, want %v", name, got, want)
		}
	}
}

// billionLaughs nests levels of aliases, each doubling ten-fold.
func billionLaughs(levels int) string {
	var b strings.Builder
	b.WriteString("kind: A\nmetadata:\n  name: a\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func TestParseNodesRefusesAliasBomb(t *testing.T) {
	_, err := ParseNodes([]byte(billionLaughs(9)))
	if !errors.Is(err, ErrAliasExpansion) {
		t.Fatalf("got %v, want ErrAliasExpansion", err)
	}
	// A modest expansion is fine and matches kyaml.
	small := billionLaughs(2)
	got, err := ParseNodes([]byte(small))
	if err != nil {
		t.Fatal(err)
	}
	want, err := kio.FromBytes([]byte(small))
	if err != nil {
		t.Fatal(err)
	}
	if got[0].MustString() != want[0].MustString() {
		t.Errorf("expanded differently")
	}
}

// deepList is an object nesting depth collections (the root counted): spec
// holds depth-1 flow lists. anchor adds an anchored field before it.
func deepList(depth int, anchor bool) string {
	y := "apiVersion: v1\nkind: Foo\nmetadata:\n  name: deep\n"
	if anchor {
		y += "x: &a 1\ny: *a\n"
	}
	return y + "spec: " + strings.Repeat("[", depth-1) + "1" + strings.Repeat("]", depth-1) + "\n"
}

// An object nesting deeper than kustomize can print (emit's bound) is
// refused as it is read, naming it; at the bound it reads as in kyaml.
func TestParseNodesRefusesTooDeep(t *testing.T) {
	for _, anchor := range []bool{false, true} {
		in := deepList(MaxDepth, anchor)
		got, err := ParseNodes([]byte(in))
		if err != nil {
			t.Fatalf("at the bound (anchor %v): %v", anchor, err)
		}
		want, err := kio.FromBytes([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got[0].MustString() != want[0].MustString() {
			t.Errorf("at the bound (anchor %v): read differently from kyaml", anchor)
		}
		_, err = ParseNodes([]byte(deepList(MaxDepth+1, anchor)))
		if !errors.Is(err, ErrTooDeep) || !strings.HasPrefix(err.Error(), `Foo "deep": yaml: exceeded max depth of 10000`) {
			t.Errorf("past the bound (anchor %v): got %v, want ErrTooDeep naming the object", anchor, err)
		}
	}
}

func TestParseResourcesMatchesKustomize(t *testing.T) {
	rf := resource.NewFactory(&hasher.Hasher{})
	cases := map[string]string{
		"list with embedded items": "apiVersion: v1\nkind: ConfigMapList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data: {x: \"1.0\"}\n",
		"list without items":       "apiVersion: v1\nkind: FooList\nmetadata:\n  name: l\n",
	}
	for name, in := range parseCases {
		cases[name] = in
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			want, wantErr := rf.SliceFromBytes([]byte(in))
			got, err := ParseResources(rf, []byte(in))
			if (err != nil) != (wantErr != nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("error %v, kustomize's %v", err, wantErr)
			}
			if len(got) != len(want) {
				t.Fatalf("%d resources, kustomize %d", len(got), len(want))
			}
			for i := range got {
				if got[i].MustString() != want[i].MustString() {
					t.Errorf("resource %d:\n%s\nkustomize:\n%s", i, got[i].MustString(), want[i].MustString())
				}
			}
		})
	}
}

func TestParseResourcesErrors(t *testing.T) {
	rf := resource.NewFactory(&hasher.Hasher{})
	for name, in := range map[string]string{
		"no kind":    "metadata:\n  name: a\n",
		"no name":    "kind: A\nmetadata: {}\n",
		"bad yaml":   "kind: [A\n",
		"alias loop": "kind: A\nmetadata:\n  name: a\nx: *nope\n",
	} {
		_, wantErr := rf.SliceFromBytes([]byte(in))
		_, err := ParseResources(rf, []byte(in))
		if err == nil || wantErr == nil || err.Error() != wantErr.Error() {
			t.Errorf("%s: error %v, kustomize's %v", name, err, wantErr)
		}
	}
}
