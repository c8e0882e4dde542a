package emit

import (
	"math/rand"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

var rf = resource.NewFactory(&hasher.Hasher{})

func mapOf(t *testing.T, y string) *resourcemap.Map {
	t.Helper()
	rs, err := rf.SliceFromBytes([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	m, err := resourcemap.FromResources(rs)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func order(m *resourcemap.Map) string {
	var out []string
	for _, r := range m.Resources() {
		id := r.CurId()
		s := id.Kind + "/" + id.Name
		if id.Namespace != "" {
			s = id.Kind + "/" + id.Namespace + "/" + id.Name
		}
		if id.Group != "" {
			s = id.Group + ":" + s
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func obj(apiVersion, kind, name, ns string) string {
	y := "apiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata:\n  name: " + name + "\n"
	if ns != "" {
		y += "  namespace: " + ns + "\n"
	}
	return y
}

func stream(objs ...string) string { return strings.Join(objs, "---\n") }

// mixed holds many kinds in a scrambled order.
var mixed = stream(
	obj("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "vwc", ""),
	obj("apps/v1", "Deployment", "web", "b"),
	obj("v1", "Service", "web", "b"),
	obj("example.com/v1", "Widget", "w2", ""),
	obj("apps/v1", "Deployment", "web", "a"),
	obj("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", "mwc", ""),
	obj("v1", "ConfigMap", "cm", ""),
	obj("example.com/v1", "Namespace", "custom-ns", ""),
	obj("v1", "Namespace", "b", ""),
	obj("v1", "Namespace", "a", ""),
	obj("example.com/v1", "Widget", "w1", ""),
	obj("apps/v1", "StatefulSet", "db", "a"),
	obj("rbac.authorization.k8s.io/v1", "ClusterRole", "cr", ""),
	obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", "widgets.example.com", ""),
	obj("v1", "Secret", "s", "a"),
	obj("batch/v1", "Job", "job", "a"),
	obj("v1", "ServiceAccount", "sa", "a"),
	obj("policy/v1", "PodDisruptionBudget", "pdb", "a"),
	obj("example.com/v1alpha1", "Widget", "w0", ""),
	obj("v1", "ConfigMap", "cm", "a"),
	obj("v1", "Pod", "pod", ""),
	obj("apps/v1", "Deployment", "api", "b"),
)

func TestLegacyOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		opts *types.SortOptions
		want string
	}{
		{
			name: "first kinds, then others by gvk, then last kinds",
			in:   stream(obj("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "v", ""), obj("v1", "Pod", "p", ""), obj("apps/v1", "Deployment", "d", ""), obj("v1", "Namespace", "n", ""), obj("batch/v1", "Job", "j", ""), obj("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", "m", "")),
			want: "Namespace/n apps:Deployment/d batch:Job/j Pod/p admissionregistration.k8s.io:MutatingWebhookConfiguration/m admissionregistration.k8s.io:ValidatingWebhookConfiguration/v",
		},
		{
			name: "same gvk: by namespace then name, missing namespace last",
			in:   stream(obj("v1", "ConfigMap", "b", "x"), obj("v1", "ConfigMap", "a", ""), obj("v1", "ConfigMap", "a", "y"), obj("v1", "ConfigMap", "a", "x")),
			want: "ConfigMap/x/a ConfigMap/x/b ConfigMap/y/a ConfigMap/a",
		},
		{
			name: "core Namespace before a group's Namespace",
			in:   stream(obj("example.com/v1", "Namespace", "custom", ""), obj("v1", "Namespace", "core", "")),
			want: "Namespace/core example.com:Namespace/custom",
		},
		{
			name: "two grouped Namespaces sort normally",
			in:   stream(obj("z.example.com/v1", "Namespace", "z", ""), obj("a.example.com/v1", "Namespace", "a", "")),
			want: "a.example.com:Namespace/a z.example.com:Namespace/z",
		},
		{
			name: "custom orderFirst and orderLast",
			in:   stream(obj("v1", "Namespace", "n", ""), obj("v1", "Service", "s", ""), obj("v1", "ConfigMap", "c", ""), obj("apps/v1", "Deployment", "d", ""), obj("v1", "Pod", "p", "")),
			opts: &types.SortOptions{Order: types.LegacySortOrder, LegacySortOptions: &types.LegacySortOptions{OrderFirst: []string{"Service", "Pod"}, OrderLast: []string{"Namespace"}}},
			want: "Service/s Pod/p apps:Deployment/d ConfigMap/c Namespace/n",
		},
		{
			name: "empty custom lists: plain gvk order",
			in:   stream(obj("v1", "Namespace", "n", ""), obj("apps/v1", "Deployment", "d", ""), obj("v1", "ConfigMap", "c", "")),
			opts: &types.SortOptions{Order: types.LegacySortOrder, LegacySortOptions: &types.LegacySortOptions{}},
			want: "apps:Deployment/d ConfigMap/c Namespace/n",
		},
		{
			name: "fifo keeps input order",
			in:   stream(obj("v1", "Service", "s", ""), obj("v1", "Namespace", "n", ""), obj("v1", "ConfigMap", "c", "")),
			opts: &types.SortOptions{Order: types.FIFOSortOrder},
			want: "Service/s Namespace/n ConfigMap/c",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mapOf(t, tc.in)
			if err := Sort(m, tc.opts); err != nil {
				t.Fatal(err)
			}
			if got := order(m); got != tc.want {
				t.Errorf("order:\n got  %s\n want %s", got, tc.want)
			}
		})
	}
}

func TestSortErrors(t *testing.T) {
	for _, tc := range []struct {
		opts *types.SortOptions
		want string
	}{
		{&types.SortOptions{Order: "random"}, "the field 'sortOptions.order' must be one of [fifo, legacy]"},
		{&types.SortOptions{}, "the field 'sortOptions.order' must be one of"},
		{&types.SortOptions{Order: types.FIFOSortOrder, LegacySortOptions: &types.LegacySortOptions{}}, "the field 'sortOptions.legacySortOptions' is set but the selected sort order is 'fifo', not 'legacy'"},
	} {
		m := mapOf(t, mixed)
		before := order(m)
		err := Sort(m, tc.opts)
		if err == nil || err.Error() != tc.want && !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Sort(%+v) error = %v, want %q", tc.opts, err, tc.want)
		}
		if order(m) != before {
			t.Errorf("Sort(%+v) failed but reordered the map", tc.opts)
		}
		if err := Prepare(m, Options{SortOptions: tc.opts}, observe.Nop{}); err == nil {
			t.Errorf("Prepare(%+v) succeeded", tc.opts)
		}
	}
	// Two objects with one ID cannot be sorted back into a map.
	rs, err := rf.SliceFromBytes([]byte(stream(obj("v1", "ConfigMap", "a", ""), obj("v1", "ConfigMap", "a", "default"))))
	if err != nil {
		t.Fatal(err)
	}
	m := resourcemap.New()
	_ = m.Append(rs[0])
	if err := m.ApplyFilter(appendNode{rs[1]}); err != nil {
		t.Fatal(err)
	}
	if err := Sort(m, nil); err == nil || !strings.Contains(err.Error(), "SortOrderTransformer: Failed to append to resources") {
		t.Errorf("Sort with a duplicate ID: error = %v", err)
	}
}

// kustomizeLegacyLess is kustomize v5.8.2's legacyIDSorter.Less
// (api/internal/builtins/SortOrderTransformer.go, Apache-2.0), copied as
// the oracle for Sort: that package is internal to kustomize.
func kustomizeLegacyLess(a, b resid.ResId, typeOrders map[string]int) bool {
	if !a.Gvk.Equals(b.Gvk) {
		i1, i2 := typeOrders[a.Kind], typeOrders[b.Kind]
		if i1 != i2 {
			return i1 < i2
		}
		if (a.Kind == types.NamespaceKind && b.Kind == types.NamespaceKind) && (a.Group == "" || b.Group == "") {
			return kGvkString(a.Gvk) > kGvkString(b.Gvk)
		}
		return kGvkString(a.Gvk) < kGvkString(b.Gvk)
	}
	return kIDString(a) < kIDString(b)
}

func kOr(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func kGvkString(x resid.Gvk) string {
	return strings.Join([]string{kOr(x.Group, "~G"), kOr(x.Version, "~V"), kOr(x.Kind, "~K")}, "_")
}

func kIDString(id resid.ResId) string {
	return strings.Join([]string{id.Gvk.String(), kOr(id.Namespace, "~X"), kOr(id.Name, "~N")}, "|")
}

type kSorter struct {
	ids    []resid.ResId
	res    []*resource.Resource
	orders map[string]int
}

func (s kSorter) Len() int { return len(s.ids) }
func (s kSorter) Swap(i, j int) {
	s.ids[i], s.ids[j] = s.ids[j], s.ids[i]
	s.res[i], s.res[j] = s.res[j], s.res[i]
}
func (s kSorter) Less(i, j int) bool { return kustomizeLegacyLess(s.ids[i], s.ids[j], s.orders) }

func kustomizeOrder(t *testing.T, y string, first, last []string) string {
	t.Helper()
	orders := map[string]int{}
	for i, n := range first {
		orders[n] = -len(first) + i
	}
	for i, n := range last {
		orders[n] = 1 + i
	}
	rs, err := rf.SliceFromBytes([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	s := kSorter{res: rs, orders: orders}
	for _, r := range rs {
		s.ids = append(s.ids, r.CurId())
	}
	sort.Sort(s)
	m, err := resourcemap.FromResources(s.res)
	if err != nil {
		t.Fatal(err)
	}
	return order(m)
}

var (
	kustomizeDefaultFirst = []string{
		"Namespace", "ResourceQuota", "StorageClass", "CustomResourceDefinition",
		"ServiceAccount", "PodSecurityPolicy", "Role", "ClusterRole", "RoleBinding",
		"ClusterRoleBinding", "ConfigMap", "Secret", "Endpoints", "Service",
		"LimitRange", "PriorityClass", "PersistentVolume", "PersistentVolumeClaim",
		"Deployment", "StatefulSet", "CronJob", "PodDisruptionBudget",
	}
	kustomizeDefaultLast = []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}
)

// TestSortMatchesKustomize compares Sort with kustomize's sorter on
// shuffled mixes of kinds, groups, versions, namespaces and names.
func TestSortMatchesKustomize(t *testing.T) {
	kinds := []struct{ apiVersion, kind string }{
		{"v1", "Namespace"}, {"example.com/v1", "Namespace"}, {"other.io/v1", "Namespace"},
		{"v1", "ConfigMap"}, {"v1", "Secret"}, {"v1", "Service"}, {"v1", "Pod"},
		{"apps/v1", "Deployment"}, {"extensions/v1beta1", "Deployment"}, {"apps/v1", "StatefulSet"},
		{"batch/v1", "Job"}, {"batch/v1", "CronJob"}, {"rbac.authorization.k8s.io/v1", "ClusterRole"},
		{"rbac.authorization.k8s.io/v1", "RoleBinding"}, {"apiextensions.k8s.io/v1", "CustomResourceDefinition"},
		{"admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration"},
		{"admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration"},
		{"example.com/v1", "Widget"}, {"example.com/v1alpha1", "Widget"}, {"v1", "Widget"},
		{"policy/v1", "PodDisruptionBudget"}, {"v1", "PersistentVolume"},
	}
	names := []string{"a", "b", "web", "z-last", "0"}
	namespaces := []string{"", "", "default", "ns1", "ns2"}
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 60; trial++ {
		ids := resourcemap.New()
		var objs []string
		for n := 3 + rng.Intn(40); len(objs) < n; {
			k := kinds[rng.Intn(len(kinds))]
			o := obj(k.apiVersion, k.kind, names[rng.Intn(len(names))], namespaces[rng.Intn(len(namespaces))])
			r, err := rf.FromBytes([]byte(o))
			if err != nil {
				t.Fatal(err)
			}
			if ids.Append(r) != nil {
				continue // an ID already drawn
			}
			objs = append(objs, o)
		}
		in := stream(objs...)
		for _, o := range []struct {
			opts        *types.SortOptions
			first, last []string
		}{
			{nil, kustomizeDefaultFirst, kustomizeDefaultLast},
			{&types.SortOptions{Order: types.LegacySortOrder}, kustomizeDefaultFirst, kustomizeDefaultLast},
			{&types.SortOptions{Order: types.LegacySortOrder, LegacySortOptions: &types.LegacySortOptions{
				OrderFirst: []string{"Widget", "Pod", "Namespace"}, OrderLast: []string{"ConfigMap", "Service"}}},
				[]string{"Widget", "Pod", "Namespace"}, []string{"ConfigMap", "Service"}},
		} {
			m := mapOf(t, in)
			if err := Sort(m, o.opts); err != nil {
				t.Fatal(err)
			}
			if got, want := order(m), kustomizeOrder(t, in, o.first, o.last); got != want {
				t.Errorf("trial %d, %+v:\n krm       %s\n kustomize %s", trial, o.opts, got, want)
			}
		}
	}
}

const annotated = `apiVersion: v1
kind: ConfigMap
metadata:
  name: p-cm-s
  labels:
    app: x
  annotations:
    keep: me
    config.kubernetes.io/origin: |
      path: base/cm.yaml
    alpha.config.kubernetes.io/transformations: |
      - configuredIn: kustomization.yaml
        configuredBy:
          apiVersion: builtin
          kind: PrefixTransformer
    internal.config.kubernetes.io/previousNames: cm,p-cm
    internal.config.kubernetes.io/previousNamespaces: default,default
    internal.config.kubernetes.io/previousKinds: ConfigMap,ConfigMap
    internal.config.kubernetes.io/prefixes: p-
    internal.config.kubernetes.io/suffixes: -s
    internal.config.kubernetes.io/generatorBehavior: create
    internal.config.kubernetes.io/needsHashSuffix: enabled
---
apiVersion: v1
kind: Secret
metadata:
  name: only-internal
  annotations:
    internal.config.kubernetes.io/previousNames: x
    internal.config.kubernetes.io/previousNamespaces: default
    internal.config.kubernetes.io/previousKinds: Secret
`

func TestPrepareStripsBookkeeping(t *testing.T) {
	for _, tc := range []struct {
		name     string
		meta     []string
		keep     []string
		drop     []string
		wantText []string
	}{
		{
			name: "nothing asked",
			keep: []string{"keep: me"},
			drop: []string{"internal.config.kubernetes.io", "config.kubernetes.io/origin", "alpha.config.kubernetes.io/transformations", "managed-by"},
		},
		{
			name: "originAnnotations",
			meta: []string{types.OriginAnnotations},
			keep: []string{"keep: me", "config.kubernetes.io/origin", "path: base/cm.yaml"},
			drop: []string{"internal.config.kubernetes.io", "alpha.config.kubernetes.io/transformations"},
		},
		{
			name: "transformerAnnotations",
			meta: []string{types.TransformerAnnotations},
			keep: []string{"alpha.config.kubernetes.io/transformations", "kind: PrefixTransformer"},
			drop: []string{"internal.config.kubernetes.io", "config.kubernetes.io/origin:"},
		},
		{
			name: "managedByLabel",
			meta: []string{types.ManagedByLabelOption},
			keep: []string{"app.kubernetes.io/managed-by: kustomize-v5.8.2", "app: x"},
			drop: []string{"internal.config.kubernetes.io", "config.kubernetes.io/origin"},
		},
		{
			name: "all",
			meta: []string{types.ManagedByLabelOption, types.OriginAnnotations, types.TransformerAnnotations},
			keep: []string{"managed-by", "config.kubernetes.io/origin", "alpha.config.kubernetes.io/transformations"},
			drop: []string{"internal.config.kubernetes.io"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mapOf(t, annotated)
			if err := Prepare(m, Options{BuildMetadata: tc.meta}, observe.Nop{}); err != nil {
				t.Fatal(err)
			}
			out, err := YAML(m, observe.Nop{})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.keep {
				if !strings.Contains(string(out), s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tc.drop {
				if strings.Contains(string(out), s) {
					t.Errorf("output keeps %q:\n%s", s, out)
				}
			}
			// Sorted: the ConfigMap before the Secret, and an object left
			// with no annotations has no annotations field.
			if !strings.Contains(string(out), "kind: Secret\nmetadata:\n  name: only-internal\n") && !strings.Contains(string(out), "managed-by") {
				t.Errorf("Secret keeps an empty annotations field:\n%s", out)
			}
		})
	}
}

func TestYAMLStream(t *testing.T) {
	m := mapOf(t, stream(obj("v1", "ConfigMap", "a", ""), obj("v1", "ConfigMap", "b", "")))
	out, err := YAML(m, observe.Nop{})
	if err != nil {
		t.Fatal(err)
	}
	want := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n"
	if string(out) != want {
		t.Errorf("YAML:\n%s\nwant:\n%s", out, want)
	}
	if out, err := YAML(resourcemap.New(), observe.Nop{}); err != nil || len(out) != 0 {
		t.Errorf("empty: %q %v", out, err)
	}
}

// appendNode is a filter adding one object, bypassing the ID check.
type appendNode struct{ r *resource.Resource }

func (a appendNode) Filter(nodes []*yaml.RNode) ([]*yaml.RNode, error) {
	return append(nodes, &a.r.RNode), nil
}
