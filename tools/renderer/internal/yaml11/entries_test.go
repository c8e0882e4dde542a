package yaml11

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/filters/annotations"
	"sigs.k8s.io/kustomize/api/filters/labels"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/dev/nodediff"
)

// The tests below prove EntriesFilter equal to kustomize's labels.Filter and
// annotations.Filter: same nodes, styles, tags and sharing, same errors.

var entryValues = []string{
	"app-00", "web", "http", "krm-bench", "platform-team", "nginx:1.2.3", "a:b", "x-y",
	"yes", "no", "on", "y", "true", "null", "~", "1", "0755", "1.5", "", "a: b", "x y", "é", "a\nb",
}

var entryKeys = []string{"app", "tier", "app.kubernetes.io/name", "env", "yes"}

var entrySpecs = types.FsSlice{
	{Path: "metadata/labels", CreateIfNotPresent: true},
	{Gvk: resid.Gvk{Group: "apps", Version: "v1", Kind: "Deployment"}, Path: "spec/selector/matchLabels", CreateIfNotPresent: true},
	{Gvk: resid.Gvk{Group: "apps", Version: "v1", Kind: "Deployment"}, Path: "spec/template/metadata/labels", CreateIfNotPresent: true},
	{Gvk: resid.Gvk{Group: "", Version: "v1", Kind: "Service"}, Path: "spec/selector", CreateIfNotPresent: true},
	{Path: "spec/volumeClaimTemplates[]/metadata/labels", CreateIfNotPresent: true},
	{Path: "spec/jobTemplate/metadata/labels"},
	{Path: "data"},
}

// entryObjects have labels already (plain, quoted, null, odd kinds).
var entryObjects = []string{
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  labels:\n    app: web\n    tier: \"yes\"\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: 'web'\n",
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  template: {}\n",
	"apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  labels: null\nspec:\n  selector:\n    app: 1\n",
	"apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: s\nspec:\n  volumeClaimTemplates:\n  - metadata:\n      name: d\n  - metadata:\n      labels:\n        env: on\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {app: x}\ndata:\n  app: 'a'\n  env: yes\n",
	"apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: c\nspec:\n  jobTemplate:\n    metadata:\n      labels: []\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata: oops\n",
}

func randEntries(rng *rand.Rand) map[string]string {
	m := map[string]string{}
	for n := 1 + rng.Intn(3); n > 0; n-- {
		m[entryKeys[rng.Intn(len(entryKeys))]] = entryValues[rng.Intn(len(entryValues))]
	}
	return m
}

func parseAll(t *testing.T, docs []string) []*yaml.RNode {
	t.Helper()
	var out []*yaml.RNode
	for _, d := range docs {
		n, err := yaml.Parse(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

// checkEntries runs a sequence of label/annotation filters both ways.
func checkEntries(t *testing.T, rng *rand.Rand, docs []string) {
	t.Helper()
	want, got := parseAll(t, docs), parseAll(t, docs)
	var log []string
	for step := 1 + rng.Intn(3); step > 0; step-- {
		entries := randEntries(rng)
		var specs types.FsSlice
		for _, s := range entrySpecs {
			if rng.Intn(3) > 0 {
				specs = append(specs, s)
			}
		}
		log = append(log, fmt.Sprintf("%q %v", entries, specs))
		var k kio.Filter = labels.Filter{Labels: entries, FsSlice: specs}
		if rng.Intn(2) == 0 {
			k = annotations.Filter{Annotations: entries, FsSlice: specs}
		}
		_, errK := k.Filter(want)
		_, errE := EntriesFilter{Entries: entries, FsSlice: specs}.Filter(got)
		if fmt.Sprint(errK) != fmt.Sprint(errE) {
			t.Fatalf("errors differ: %v vs %v\n%s", errK, errE, strings.Join(log, "\n"))
		}
		pa := nodediff.Pairs{}
		for i := range want {
			if err := pa.Diff(want[i].YNode(), got[i].YNode(), strconv.Itoa(i)); err != nil {
				t.Fatalf("results differ: %v\n%s", err, strings.Join(log, "\n"))
			}
		}
	}
}

func TestEntriesFilterMatchesKustomize(t *testing.T) {
	for seed := int64(0); seed < 1500; seed++ {
		rng := rand.New(rand.NewSource(seed))
		var docs []string
		for n := 1 + rng.Intn(3); n > 0; n-- {
			docs = append(docs, entryObjects[rng.Intn(len(entryObjects))])
		}
		checkEntries(t, rng, docs)
	}
}

// FuzzEntriesFilter takes a seed and an object of the fuzzer's own.
func FuzzEntriesFilter(f *testing.F) {
	for i, o := range entryObjects {
		f.Add(int64(i), o)
	}
	f.Fuzz(func(t *testing.T, seed int64, doc string) {
		// Objects are mappings (kustomize's filters index others as maps).
		if n, err := yaml.Parse(doc); err != nil || n.YNode().Kind != yaml.MappingNode {
			return
		}
		checkEntries(t, rand.New(rand.NewSource(seed)), []string{doc, entryObjects[int(uint64(seed)%uint64(len(entryObjects)))]})
	})
}
