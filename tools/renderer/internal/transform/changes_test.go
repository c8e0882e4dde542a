package transform

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/fingerprint"
)

// reporting are the builtin kinds that list their changes (Changed).
var reporting = map[string]bool{
	"NamespaceTransformer": true, "PrefixTransformer": true, "SuffixTransformer": true,
	"LabelTransformer": true, "AnnotationsTransformer": true,
}

// checkChanged runs every transformer of k on objs, and checks that each
// that reports its changes reports exactly the objects whose fingerprint
// moved: what provenance finds by fingerprinting every object. It returns,
// by kind, how many objects were changed and how many left alone.
func checkChanged(t *testing.T, k *types.Kustomization, objs string) (changed, same map[string]int) {
	t.Helper()
	ts, err := Builtins(k, fieldspec.Defaults(), func() *resmap.PluginHelpers { return helpers(t, nil) })
	if err != nil {
		t.Fatal(err)
	}
	m, _ := pair(t, objs)
	changed, same = map[string]int{}, map[string]int{}
	for _, tr := range ts {
		if !reporting[tr.Step.Kind] {
			continue
		}
		if tr.Step.Report == nil {
			t.Errorf("%s does not report its changes", tr.Step.Kind)
			continue
		}
		changes := tr.Step.Report()
		list := m.Resources()
		before := make([]uint64, len(list))
		for i, r := range list {
			before[i] = fingerprint.Of(r.RNode.YNode())
		}
		if err := tr.Transform(m); err != nil {
			t.Fatalf("%s: %v", tr.Step.Kind, err)
		}
		reported := map[*resource.Resource]bool{}
		for _, r := range changes() {
			if reported[r] {
				t.Errorf("%s reports %s twice", tr.Step.Kind, r.CurId())
			}
			reported[r] = true
		}
		for i, r := range list {
			moved := fingerprint.Of(r.RNode.YNode()) != before[i]
			if moved {
				changed[tr.Step.Kind]++
			} else {
				same[tr.Step.Kind]++
			}
			if moved != reported[r] {
				y, _ := r.AsYAML()
				t.Errorf("%s changed %s: %v, reported %v\n%s", tr.Step.Kind, r.OrgId(), moved, reported[r], y)
			}
		}
	}
	return changed, same
}

func TestChangedIsExact(t *testing.T) {
	k := &types.Kustomization{
		Namespace: "prod", NamePrefix: "p-", NameSuffix: "-s",
		CommonLabels:      map[string]string{"app": "web", "n": "1"},
		Labels:            []types.Label{{Pairs: map[string]string{"team": "a"}, IncludeTemplates: true}},
		CommonAnnotations: map[string]string{"note": "x", "num": "1"},
	}
	objs := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: labelled
  labels: {app: web, n: "1", team: a}
  annotations: {note: x, num: "1"}
spec:
  selector:
    matchLabels: {app: web, n: "1"}
  template:
    metadata:
      labels: {app: web, n: "1", team: a}
      annotations: {note: x, num: "1"}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: typed
  labels: {app: web, n: 1, team: a}
  annotations: {note: x, num: 1}
spec:
  selector:
    matchLabels: {app: web, n: "1"}
  template:
    metadata:
      labels: {app: web, n: "1", team: a}
      annotations: {note: x, num: "1"}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: bare
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crs.example.com
  labels: {app: web, n: "1", team: a}
  annotations: {note: x, num: "1"}
---
apiVersion: v1
kind: Service
metadata:
  name: helm
  labels: {app: web, n: "1", team: a}
  annotations: {note: x, num: "1", internal.config.kubernetes.io/helm-generated: "true"}
spec:
  selector: {app: web, n: "1"}
`
	changed, same := checkChanged(t, k, objs)
	// Each transformer met objects it changes and objects it leaves alone
	// (the CRD keeps its name, the Helm object its namespace, the fully
	// labelled objects their labels and annotations).
	for kind := range reporting {
		if changed[kind] == 0 || same[kind] == 0 {
			t.Errorf("%s: %d objects changed, %d left alone; want some of each", kind, changed[kind], same[kind])
		}
	}
}

// TestChangedIsExactRandom draws objects carrying some of the entries
// (some with other values or types) and kustomizations setting them.
func TestChangedIsExactRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	keys := []string{"app", "n", "tier"}
	values := []string{"web", `"1"`, "1", "true", `"true"`, `""`}
	entries := func() string {
		var parts []string
		for _, key := range keys {
			if rng.Intn(2) == 0 {
				parts = append(parts, key+": "+values[rng.Intn(len(values))])
			}
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	pairs := func() map[string]string {
		out := map[string]string{}
		for _, key := range keys {
			if rng.Intn(2) == 0 {
				out[key] = strings.Trim(values[rng.Intn(len(values))], `"`)
			}
		}
		if len(out) == 0 {
			out["app"] = "web"
		}
		return out
	}
	kinds := []string{"Deployment", "ConfigMap", "Namespace", "CustomResourceDefinition"}
	total := map[string][2]int{}
	for i := 0; i < 200; i++ {
		var docs []string
		for j := 0; j < 4; j++ {
			kind := kinds[rng.Intn(len(kinds))]
			if kind == "Namespace" && j > 0 {
				kind = "ConfigMap" // a namespace takes the name of the one set: keep IDs apart
			}
			doc := fmt.Sprintf("apiVersion: v1\nkind: %s\nmetadata:\n  name: o%d\n  labels: %s\n  annotations: %s\n", kind, j, entries(), entries())
			if kind == "Deployment" {
				doc += fmt.Sprintf("spec:\n  selector:\n    matchLabels: %s\n  template:\n    metadata:\n      labels: %s\n", entries(), entries())
			}
			docs = append(docs, doc)
		}
		k := &types.Kustomization{CommonLabels: pairs(), CommonAnnotations: pairs(),
			Labels: []types.Label{{Pairs: pairs(), IncludeSelectors: rng.Intn(2) == 0, IncludeTemplates: rng.Intn(2) == 0}}}
		switch rng.Intn(3) {
		case 0:
			k.Namespace = "ns"
		case 1:
			k.NamePrefix = "p-"
		default:
			k.NameSuffix = "-s"
		}
		changed, same := checkChanged(t, k, strings.Join(docs, "---\n"))
		if t.Failed() {
			t.Fatalf("kustomization %+v", k)
		}
		for kind := range reporting {
			c := total[kind]
			total[kind] = [2]int{c[0] + changed[kind], c[1] + same[kind]}
		}
	}
	var kindsSeen []string
	for kind, c := range total {
		kindsSeen = append(kindsSeen, kind)
		// Only Helm's objects keep their namespace (TestChangedIsExact).
		if c[0] == 0 || c[1] == 0 && kind != "NamespaceTransformer" {
			t.Errorf("%s: %d objects changed, %d left alone; want some of each", kind, c[0], c[1])
		}
	}
	sort.Strings(kindsSeen)
	if len(kindsSeen) != len(reporting) {
		t.Errorf("ran %v, want every reporting kind", kindsSeen)
	}
}
