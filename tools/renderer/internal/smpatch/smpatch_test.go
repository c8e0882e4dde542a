package smpatch_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/dev/nodediff"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/printer"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/smpatch"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yaml11"
)

// The tests below prove a merge with Hide equal to kustomize's
// Resource.ApplySmPatch: same printed bytes, same nodes (styles, tags,
// comments, positions, sharing), same error.

var rf = resource.NewFactory(&hasher.Hasher{})

// merged is one way of applying a patch, with what it printed.
type merged struct {
	r, p *resource.Resource
	err  error
	out  []byte
}

func parseOne(s string) *resource.Resource {
	rs, err := rf.SliceFromBytes([]byte(s))
	if err != nil || len(rs) != 1 {
		return nil
	}
	return rs[0]
}

// check applies patch to dest with kustomize, with Hide around kustomize's
// merge and through yaml11.ApplySmPatch, and compares; it returns the
// number of maps Hide hid fields of.
func check(t *testing.T, dest, patch string, share bool) int {
	t.Helper()
	d, p := parseOne(dest), parseOne(patch)
	if d == nil || p == nil {
		return 0
	}
	run := func(apply func(r, p *resource.Resource) error) merged {
		m := merged{r: d.DeepCopy(), p: p.DeepCopy()}
		if share {
			shareLabels(m.r)
		}
		m.err = apply(m.r, m.p)
		if m.err == nil && !m.r.IsNilOrEmpty() {
			out, err := printer.Object(m.r)
			if err != nil {
				out = []byte("printing: " + err.Error()) // duplicate keys kyaml's merge made
			}
			m.out = out
		}
		return m
	}
	hid := 0
	want := run(func(r, p *resource.Resource) error { return r.ApplySmPatch(p) })
	hidden := run(func(r, p *resource.Resource) error {
		h := smpatch.Hide(r.RNode.YNode(), p.RNode.YNode(), smpatch.Options{Known: yaml11.Known, SharedScalars: yaml11.AllKnown(p.RNode.YNode())})
		hid = h.Maps()
		err := r.ApplySmPatch(p)
		h.Restore()
		return err
	})
	wired := run(yaml11.ApplySmPatch)
	for _, got := range []struct {
		name string
		m    merged
	}{{"Hide", hidden}, {"yaml11.ApplySmPatch", wired}} {
		if fmt.Sprint(want.err) != fmt.Sprint(got.m.err) {
			t.Fatalf("%s: errors differ: %v vs %v\ndest:\n%s\npatch:\n%s", got.name, want.err, got.m.err, dest, patch)
		}
		if want.err != nil {
			continue // the build stops: the object is not used
		}
		if !bytes.Equal(want.out, got.m.out) {
			t.Fatalf("%s: printed results differ:\n%s\nvs\n%s\ndest:\n%s\npatch:\n%s", got.name, want.out, got.m.out, dest, patch)
		}
		if err := nodediff.Diff(want.r.RNode.YNode(), got.m.r.RNode.YNode()); err != nil {
			t.Fatalf("%s: results differ: %v\ndest:\n%s\npatch:\n%s", got.name, err, dest, patch)
		}
		if err := nodediff.Diff(want.p.RNode.YNode(), got.m.p.RNode.YNode()); err != nil {
			t.Fatalf("%s: patches differ after the merge: %v\ndest:\n%s\npatch:\n%s", got.name, err, dest, patch)
		}
	}
	return hid
}

// shareLabels makes each label value (under labels or matchLabels) one node
// with the first equal label met, as kustomize's label transformer leaves
// them: metadata's, the selector's and the template's.
func shareLabels(r *resource.Resource) {
	first := map[[2]string]*yaml.Node{}
	var visit func(n *yaml.Node, labels bool)
	visit = func(n *yaml.Node, labels bool) {
		for i, c := range n.Content {
			if n.Kind != yaml.MappingNode || i%2 == 0 {
				visit(c, false)
				continue
			}
			k := n.Content[i-1].Value
			if labels && c.Kind == yaml.ScalarNode {
				if f := first[[2]string{k, c.Value}]; f != nil {
					n.Content[i] = f
				} else {
					first[[2]string{k, c.Value}] = c
				}
				continue
			}
			visit(c, k == "labels" || k == "matchLabels")
		}
	}
	visit(r.RNode.YNode(), false)
}

// TestHideCases runs the cases of testdata/*.txt: a destination, a patch
// and the number of maps Hide must hide fields of, between "---" lines.
func TestHideCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(string(b), "\n---\n")
		if len(parts) != 3 {
			t.Fatalf("%s: want dest --- patch --- hidden maps", f)
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			want, _ := strconv.Atoi(strings.TrimSpace(parts[2]))
			for _, share := range []bool{false, true} {
				if got := check(t, parts[0]+"\n", parts[1]+"\n", share); !share && got != want {
					t.Errorf("Hide hid fields of %d maps, want %d", got, want)
				}
			}
		})
	}
}

func TestHideRandom(t *testing.T) {
	n, hid := 1000, 0
	if testing.Short() {
		n = 200
	}
	for seed := int64(0); seed < int64(n); seed++ {
		g := newGen(seed)
		if check(t, g.dest(), g.patch(), seed%2 == 0) > 0 {
			hid++
		}
	}
	// The generator must reach the cases Hide works on.
	if hid < n/4 {
		t.Errorf("Hide hid fields in %d of %d random merges", hid, n)
	}
}

// FuzzHide takes a seed for the generator, or two documents of the
// fuzzer's own.
func FuzzHide(f *testing.F) {
	f.Add(int64(1), "", "")
	f.Add(int64(2), "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  replicas: 1\n  template:\n    metadata:\n      creationTimestamp: null\n    spec:\n      containers:\n      - name: a\n        image: x\n        env:\n        - name: A\n          value: yes\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  replicas: 2\n")
	f.Fuzz(func(t *testing.T, seed int64, dest, patch string) {
		if dest == "" || patch == "" {
			g := newGen(seed)
			dest, patch = g.dest(), g.patch()
		}
		check(t, dest, patch, seed%2 == 0)
	})
}
