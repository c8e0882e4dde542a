package yaml11

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/dev/nodediff"
)

var rf = resource.NewFactory(&hasher.Hasher{})

// The tests below prove ApplySmPatch (kyaml's merge with known strings
// flagged) equal to Resource.ApplySmPatch: same nodes, styles,
// tags, comments and sharing, same error.

// mergeValues mix strings yaml11 knows with YAML 1.1 words, numbers and
// strings that need quotes.
var mergeValues = []string{
	"app-00", "web", "nginx:1.2.3", "registry.example.com/team/app:1.0-dev.1", "abcdef", "x-y", "a:b",
	"yes", "no", "on", "Off", "y", "n", "true", "null", "~", "1", "0755", "1.5", ".inf", "1e3", "2001-12-14",
	"a: b", "x y", "", "-", "é", "a\nb", "<<", "#c", "1:20",
}

var mergeKeys = []string{"a", "b", "c", "yes", "on", "x-y", "name", "value"}

type kv struct {
	k string
	v any
}
type obj []kv
type seq []any

// scalarText writes s plain where that is safe, else quoted.
func scalarText(rng *rand.Rand, s string) string {
	switch rng.Intn(4) {
	case 0:
		return strconv.Quote(s)
	case 1:
		if !strings.ContainsAny(s, "'\n") {
			return "'" + s + "'"
		}
	}
	if Known(s) || strings.Contains(" yes no on Off y n true null ~ 1 0755 1.5 .inf 1e3 2001-12-14 a:b 1:20 web ", " "+s+" ") {
		return s
	}
	return strconv.Quote(s)
}

func writeYAML(b *strings.Builder, v any, indent string) {
	switch v := v.(type) {
	case obj:
		for _, e := range v {
			b.WriteString(indent + e.k + ":")
			writeValue(b, e.v, indent)
		}
	case seq:
		for _, e := range v {
			b.WriteString(indent + "-")
			writeValue(b, e, indent)
		}
	}
}

func writeValue(b *strings.Builder, v any, indent string) {
	empty := map[bool]string{true: " {}\n", false: " []\n"}
	switch c := v.(type) {
	case string:
		b.WriteString(" " + c + "\n")
	case obj, seq:
		o, isObj := c.(obj)
		if (isObj && len(o) == 0) || (!isObj && len(c.(seq)) == 0) {
			b.WriteString(empty[isObj])
			return
		}
		b.WriteString("\n")
		writeYAML(b, c, indent+"  ")
	}
}

// knownValues are strings Known accepts: a patch of only these lets
// ApplySmPatch flag shared nodes too.
var knownValues = []string{"app-00", "web", "http", "any", "nginx:1.2.3", "abcdef", "x-y", "a:b", "dev"}

// knownOnly makes randValue draw from knownValues (one generator at a time).
var knownOnly bool

func randValue(rng *rand.Rand) string {
	if knownOnly {
		return scalarText(rng, knownValues[rng.Intn(len(knownValues))])
	}
	return scalarText(rng, mergeValues[rng.Intn(len(mergeValues))])
}

func randMap(rng *rand.Rand, depth int, patch bool) obj {
	var o obj
	seen := map[string]bool{}
	for n := rng.Intn(4); n > 0; n-- {
		k := mergeKeys[rng.Intn(len(mergeKeys))]
		if seen[k] {
			continue
		}
		seen[k] = true
		switch r := rng.Intn(10); {
		case patch && r == 0:
			o = append(o, kv{k, "null"})
		case depth > 0 && r < 3:
			o = append(o, kv{k, randMap(rng, depth-1, patch)})
		case r == 3:
			o = append(o, kv{k, seq{randValue(rng), randValue(rng)}})
		case r == 4:
			o = append(o, kv{k, strconv.Itoa(rng.Intn(100))})
		default:
			o = append(o, kv{k, randValue(rng)})
		}
	}
	if patch && depth > 0 && rng.Intn(8) == 0 {
		o = append(o, kv{"$patch", []string{"replace", "delete", "merge"}[rng.Intn(3)]})
	}
	return o
}

func randContainers(rng *rand.Rand, patch bool) seq {
	var s seq
	for i := rng.Intn(3); i >= 0; i-- {
		c := obj{{"name", "c" + strconv.Itoa(rng.Intn(3))}, {"image", randValue(rng)}}
		if rng.Intn(2) == 0 {
			c = append(c, kv{"args", seq{randValue(rng), randValue(rng)}})
		}
		if rng.Intn(2) == 0 {
			c = append(c, kv{"env", seq{obj{{"name", "E" + strconv.Itoa(rng.Intn(2))}, {"value", randValue(rng)}}}})
		}
		if patch && rng.Intn(6) == 0 {
			c = append(c, kv{"$patch", "delete"})
		}
		s = append(s, c)
	}
	return s
}

func randObject(rng *rand.Rand, patch bool) string {
	labels := func() obj {
		o := obj{{"app", randValue(rng)}}
		if rng.Intn(2) == 0 {
			o = append(o, kv{"tier", randValue(rng)})
		}
		return o
	}
	meta := obj{{"name", "web"}}
	if !patch || rng.Intn(2) == 0 {
		meta = append(meta, kv{"labels", labels()})
	}
	if rng.Intn(2) == 0 {
		meta = append(meta, kv{"annotations", randMap(rng, 0, patch)})
	}
	if patch && rng.Intn(4) == 0 {
		meta = append(meta, kv{"namespace", randValue(rng)})
	}
	podSpec := obj{{"containers", randContainers(rng, patch)}}
	if rng.Intn(2) == 0 {
		podSpec = append(podSpec, kv{"extra", randMap(rng, 2, patch)})
	}
	spec := obj{
		{"replicas", strconv.Itoa(rng.Intn(5))},
		{"template", obj{{"metadata", obj{{"labels", labels()}}}, {"spec", podSpec}}},
	}
	if rng.Intn(2) == 0 {
		spec = append(spec, kv{"selector", obj{{"matchLabels", labels()}}})
	}
	if rng.Intn(2) == 0 {
		spec = append(spec, kv{"other", randMap(rng, 3, patch)})
	}
	var b strings.Builder
	writeYAML(&b, obj{{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"metadata", meta}, {"spec", spec}}, "")
	return b.String()
}

// shareLabels makes the template's labels that metadata also has one node
// with metadata's, as kustomize's label transformer leaves them.
func shareLabels(r *resource.Resource) {
	meta, _ := r.Pipe(yaml.Lookup("metadata", "labels"))
	tmpl, _ := r.Pipe(yaml.Lookup("spec", "template", "metadata", "labels"))
	if meta == nil || tmpl == nil || meta.YNode().Kind != yaml.MappingNode || tmpl.YNode().Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(tmpl.YNode().Content); i += 2 {
		if f := meta.Field(tmpl.YNode().Content[i].Value); f != nil {
			tmpl.YNode().Content[i+1] = f.Value.YNode()
		}
	}
}

// checkMergeMarked applies patch to dest both ways and compares.
func checkMergeMarked(t *testing.T, dest, patch string, share bool) {
	t.Helper()
	rs, err := rf.SliceFromBytes([]byte(dest))
	if err != nil || len(rs) != 1 {
		return
	}
	ps, err := rf.SliceFromBytes([]byte(patch))
	if err != nil || len(ps) != 1 {
		return
	}
	want, got, pt := rs[0], rs[0].DeepCopy(), ps[0]
	if share {
		shareLabels(want)
		shareLabels(got)
	}
	p1, p2 := pt.DeepCopy(), pt.DeepCopy()
	errWant := want.ApplySmPatch(p1)
	errGot := ApplySmPatch(got, p2)
	if fmt.Sprint(errWant) != fmt.Sprint(errGot) {
		t.Fatalf("errors differ: %v vs %v\ndest:\n%s\npatch:\n%s", errWant, errGot, dest, patch)
	}
	if err := nodediff.Diff(want.RNode.YNode(), got.RNode.YNode()); err != nil {
		t.Fatalf("results differ: %v\ndest:\n%s\npatch:\n%s", err, dest, patch)
	}
	if err := nodediff.Diff(p1.RNode.YNode(), p2.RNode.YNode()); err != nil {
		t.Fatalf("patches differ after the merge: %v\ndest:\n%s\npatch:\n%s", err, dest, patch)
	}
}

func TestApplySmPatchMatches(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 200
	}
	for seed := int64(0); seed < int64(n); seed++ {
		rng := rand.New(rand.NewSource(seed))
		dest := randObject(rng, false)
		knownOnly = seed%3 == 0
		patch := randObject(rng, true)
		knownOnly = false
		checkMergeMarked(t, dest, patch, seed%2 == 0)
	}
}

// FuzzApplySmPatch takes a seed for the generator above, or two
// documents of the fuzzer's own.
func FuzzApplySmPatch(f *testing.F) {
	f.Add(int64(1), "", "")
	f.Add(int64(2), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  a: yes\n  b: app-00\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  b: on\n  c: x-y\n")
	f.Fuzz(func(t *testing.T, seed int64, dest, patch string) {
		if dest == "" || patch == "" {
			rng := rand.New(rand.NewSource(seed))
			dest = randObject(rng, false)
			knownOnly = seed%3 == 0
			patch = randObject(rng, true)
			knownOnly = false
		}
		checkMergeMarked(t, dest, patch, seed%2 == 0)
	})
}
