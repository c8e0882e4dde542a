package resourcemap

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
)

// The differential tests below run each operation on a Map and on
// kustomize's own resmap (resmap.New()) holding independent copies of the
// same objects, and require the same result, error text included.

var rf = resource.NewFactory(&hasher.Hasher{})

func parse(t *testing.T, y string) []*resource.Resource {
	t.Helper()
	rs, err := rf.SliceFromBytes([]byte(y))
	if err != nil {
		t.Fatalf("parsing:\n%s\n%v", y, err)
	}
	return rs
}

func one(t *testing.T, y string) *resource.Resource {
	t.Helper()
	rs := parse(t, y)
	if len(rs) != 1 {
		t.Fatalf("want one object, got %d", len(rs))
	}
	return rs[0]
}

// both returns a Map and a kustomize ResMap of separate copies of y.
func both(t *testing.T, y string) (*Map, resmap.ResMap) {
	t.Helper()
	m := New()
	for _, r := range parse(t, y) {
		if err := m.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	k := resmap.New()
	for _, r := range parse(t, y) {
		if err := k.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	return m, k
}

func dump(t *testing.T, m resmap.ResMap) string {
	t.Helper()
	b, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func sameResult(t *testing.T, what string, m, k resmap.ResMap, errM, errK error) {
	t.Helper()
	if errString(errM) != errString(errK) {
		t.Errorf("%s: error\n krm:       %s\n kustomize: %s", what, errString(errM), errString(errK))
	}
	if a, b := dump(t, m), dump(t, k); a != b {
		t.Errorf("%s: result\n krm:\n%s\n kustomize:\n%s", what, a, b)
	}
}

func idList(rs []*resource.Resource) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.CurId().String())
	}
	return strings.Join(out, "; ")
}

const varied = `apiVersion: v1
kind: ConfigMap
metadata:
  name: plain
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: in-ns
  namespace: team-a
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: in-default
  namespace: default
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: p-web-s
  namespace: prod
  annotations:
    internal.config.kubernetes.io/previousNames: web,p-web
    internal.config.kubernetes.io/previousNamespaces: default,default
    internal.config.kubernetes.io/previousKinds: Deployment,Deployment
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
  namespace: ignored
---
apiVersion: v1
kind: Namespace
metadata:
  name: team-a
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: bees.example.com
---
apiVersion: example.com/v1beta1
kind: Bee
metadata:
  name: maya
---
kind: NoVersion
metadata:
  name: nv
---
apiVersion: v1
kind: Service
metadata:
  name: svc-new
  annotations:
    internal.config.kubernetes.io/previousNames: svc
    internal.config.kubernetes.io/previousNamespaces: other
    internal.config.kubernetes.io/previousKinds: OldService
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv
  annotations:
    internal.config.kubernetes.io/previousNames: old-pv
    internal.config.kubernetes.io/previousNamespaces: _non_namespaceable_
    internal.config.kubernetes.io/previousKinds: PersistentVolume
---
apiVersion: v1
kind: Secret
metadata:
  name: quoted
  namespace: "123"
  annotations:
    unrelated: "x"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: 42
`

func TestIDsMatchKustomize(t *testing.T) {
	for _, r := range parse(t, varied) {
		if got, want := CurID(r), r.CurId(); !reflect.DeepEqual(got, want) {
			t.Errorf("CurID = %#v, kustomize %#v", got, want)
		}
		if got, want := OrgID(r), r.OrgId(); !reflect.DeepEqual(got, want) {
			t.Errorf("OrgID(%s) = %#v, kustomize %#v", r.CurId(), got, want)
		}
		if got, want := PrevIDs(r), r.PrevIds(); !reflect.DeepEqual(got, want) {
			t.Errorf("PrevIDs(%s) = %#v, kustomize %#v", r.CurId(), got, want)
		}
		if KeyOf(CurID(r)) != KeyOf(r.CurId()) {
			t.Errorf("KeyOf differs for %s", r.CurId())
		}
	}
	// Keys are equal exactly when kustomize's ResIds are Equal.
	rs := parse(t, varied)
	for _, a := range rs {
		for _, b := range rs {
			if (KeyOf(a.CurId()) == KeyOf(b.CurId())) != a.CurId().Equals(b.CurId()) {
				t.Errorf("KeyOf equality differs from Equals for %s and %s", a.CurId(), b.CurId())
			}
		}
	}
	ns := resid.NewResIdWithNamespace(resid.Gvk{Version: "v1", Kind: "ConfigMap"}, "x", "")
	def := resid.NewResIdWithNamespace(resid.Gvk{Version: "v1", Kind: "ConfigMap"}, "x", "default")
	if KeyOf(ns) != KeyOf(def) {
		t.Errorf("missing namespace and default must share a key")
	}
}

// kustomize panics when the previous-ID annotations disagree in length;
// PrevIDs keeps the IDs that line up.
func TestPrevIDsMismatchedAnnotations(t *testing.T) {
	r := one(t, `apiVersion: v1
kind: ConfigMap
metadata:
  name: mismatched
  annotations:
    internal.config.kubernetes.io/previousNames: a,b,c
    internal.config.kubernetes.io/previousNamespaces: x,y
    internal.config.kubernetes.io/previousKinds: ConfigMap,Secret,Other
`)
	got := PrevIDs(r)
	want := []resid.ResId{
		{Gvk: resid.Gvk{Version: "v1", Kind: "ConfigMap"}, Name: "a", Namespace: "x"},
		{Gvk: resid.Gvk{Version: "v1", Kind: "Secret"}, Name: "b", Namespace: "y"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PrevIDs = %v, want %v", got, want)
	}
	if OrgID(r) != want[0] {
		t.Errorf("OrgID = %v", OrgID(r))
	}
}

// kustomize reads metadata.name/namespace with getMetaStringField, which
// treats a null value (null, ~, !!null) as absent.
func TestIDsOfNullMetadataMatchKustomize(t *testing.T) {
	for _, r := range parse(t, `apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  namespace: null
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
  namespace: ~
`) {
		if got, want := CurID(r), r.CurId(); !reflect.DeepEqual(got, want) {
			t.Errorf("CurID = %#v, kustomize %#v", got, want)
		}
	}
}

func TestAppend(t *testing.T) {
	base := `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: cr
  namespace: a
`
	for _, tc := range []struct{ name, add string }{
		{"same id", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"},
		{"default namespace is the same id", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: default\n"},
		{"other namespace", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: other\n"},
		{"other kind", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: cm\n"},
		{"other group", "apiVersion: example.com/v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"},
		{"cluster-scoped ignores namespace", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: cr\n  namespace: b\n"},
		{"other version", "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: ClusterRole\nmetadata:\n  name: cr\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, k := both(t, base)
			errM := m.Append(one(t, tc.add))
			errK := k.Append(one(t, tc.add))
			sameResult(t, "Append", m, k, errM, errK)
		})
	}
}

func TestAppendAllAndFromResources(t *testing.T) {
	base := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
	for _, tc := range []struct{ name, add string }{
		{"no collision", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"},
		{"collision with existing", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"},
		{"collision within", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  namespace: default\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, k := both(t, base)
			// The argument of each is a map of its own kind.
			om := &Map{list: parse(t, tc.add)}
			ok := resmap.New()
			for _, r := range parse(t, tc.add) {
				// resmap.New().Append would refuse the duplicate; build it
				// through AppendAll's own check instead.
				_ = ok.Append(r)
			}
			if strings.Contains(tc.name, "within") {
				// kustomize cannot even hold the argument; compare with
				// FromResources instead.
				_, err := FromResources(parse(t, tc.add))
				if err == nil || !strings.Contains(err.Error(), "may not add resource with an already registered id: ConfigMap.v1.[noGrp]/b.default") {
					t.Errorf("FromResources error = %v", err)
				}
				return
			}
			errM := m.AppendAll(om)
			errK := k.AppendAll(ok)
			sameResult(t, "AppendAll", m, k, errM, errK)
			if m.Size() != k.Size() {
				t.Errorf("size after AppendAll: %d, kustomize %d", m.Size(), k.Size())
			}
		})
	}
	m := New()
	if err := m.AppendAll(nil); err != nil || m.Size() != 0 {
		t.Errorf("AppendAll(nil) = %v", err)
	}
}

const absorbBase = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  labels:
    from: base
  annotations:
    config.kubernetes.io/origin: |
      path: base/cm.yaml
data:
  a: "1"
  b: "2"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: p-renamed
  annotations:
    internal.config.kubernetes.io/previousNames: renamed
    internal.config.kubernetes.io/previousNamespaces: default
    internal.config.kubernetes.io/previousKinds: ConfigMap
data:
  x: "1"
---
apiVersion: v1
kind: Secret
metadata:
  name: sec
type: Opaque
data:
  a: MQ==
stringData:
  s: plain
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: twin-a
  annotations:
    internal.config.kubernetes.io/previousNames: twin
    internal.config.kubernetes.io/previousNamespaces: default
    internal.config.kubernetes.io/previousKinds: ConfigMap
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: twin-b
  annotations:
    internal.config.kubernetes.io/previousNames: twin
    internal.config.kubernetes.io/previousNamespaces: default
    internal.config.kubernetes.io/previousKinds: ConfigMap
`

func generated(kind, name, behavior, data string) string {
	y := fmt.Sprintf("apiVersion: v1\nkind: %s\nmetadata:\n  name: %s\n", kind, name)
	if behavior != "" {
		y += "  annotations:\n    internal.config.kubernetes.io/generatorBehavior: " + behavior + "\n"
	}
	return y + data
}

func TestAbsorbAll(t *testing.T) {
	for _, tc := range []struct {
		name, add string
	}{
		{"create new", generated("ConfigMap", "new", "create", "data:\n  k: v\n")},
		{"create default behavior", generated("ConfigMap", "new", "", "data:\n  k: v\n")},
		{"create existing fails", generated("ConfigMap", "cm", "create", "data:\n  k: v\n")},
		{"unspecified on existing fails", generated("ConfigMap", "cm", "", "data:\n  k: v\n")},
		{"merge", generated("ConfigMap", "cm", "merge", "data:\n  b: two\n  c: \"3\"\n")},
		{"replace", generated("ConfigMap", "cm", "replace", "data:\n  z: \"26\"\n")},
		{"merge missing fails", generated("ConfigMap", "nope", "merge", "data: {}\n")},
		{"replace missing fails", generated("ConfigMap", "nope", "replace", "data: {}\n")},
		{"merge by previous name", generated("ConfigMap", "renamed", "merge", "data:\n  y: \"2\"\n")},
		{"replace by previous name", generated("ConfigMap", "renamed", "replace", "data:\n  y: \"2\"\n")},
		{"merge secret with stringData", generated("Secret", "sec", "merge", "data:\n  b: Mg==\n")},
		{"merge secret overriding", generated("Secret", "sec", "merge", "stringData:\n  a: new\n")},
		{"ambiguous previous name fails", generated("ConfigMap", "twin", "merge", "data: {}\n")},
		{"renamed object is matched by its previous name only", generated("ConfigMap", "p-renamed", "merge", "data:\n  z: \"9\"\n")},
		{"generated in another namespace is new", strings.Replace(generated("ConfigMap", "cm", "create", "data: {}\n"), "  name: cm\n", "  name: cm\n  namespace: other\n", 1)},
		{
			"sequence: create then merge the created one",
			generated("ConfigMap", "fresh", "create", "data:\n  a: \"1\"\n") + "---\n" +
				generated("ConfigMap", "fresh", "merge", "data:\n  b: \"2\"\n") + "---\n" +
				generated("ConfigMap", "cm", "replace", "data: {}\n"),
		},
		{
			"sequence: create twice fails",
			generated("ConfigMap", "fresh", "create", "data: {}\n") + "---\n" +
				generated("ConfigMap", "fresh", "create", "data: {}\n"),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, k := both(t, absorbBase)
			om := &Map{list: parse(t, tc.add)}
			ok := resmap.New()
			for _, r := range parse(t, tc.add) {
				_ = ok.Append(r)
			}
			if ok.Size() != om.Size() {
				// kustomize's Append refused a duplicate; absorb one by one.
				ok = nil
			}
			var errK error
			if ok != nil {
				errK = k.AbsorbAll(ok)
			} else {
				for _, r := range parse(t, tc.add) {
					single := resmap.New()
					_ = single.Append(r)
					if errK = k.AbsorbAll(single); errK != nil {
						break
					}
				}
			}
			errM := m.AbsorbAll(om)
			sameResult(t, "AbsorbAll", m, k, errM, errK)
		})
	}
	m := New()
	if err := m.AbsorbAll(nil); err != nil {
		t.Errorf("AbsorbAll(nil) = %v", err)
	}
}

// Regression: after AbsorbAll merged or replaced an object, its entries in the
// ID index move to the end of their lists, so a later "found multiple
// objects [...] that could accept merge" error lists the candidates out of
// resource order (kustomize lists them in order). Only the message
// differs.
func TestAbsorbAllMultipleMatchesInOrder(t *testing.T) {
	add := generated("ConfigMap", "twin-a", "merge", "data: {}\n") + "---\n" + generated("ConfigMap", "twin", "create", "data: {}\n")
	m, k := both(t, absorbBase)
	errM := m.AbsorbAll(&Map{list: parse(t, add)})
	kk := resmap.New()
	for _, r := range parse(t, add) {
		_ = kk.Append(r)
	}
	errK := k.AbsorbAll(kk)
	sameResult(t, "AbsorbAll", m, k, errM, errK)
}

const selectable = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
  labels:
    app: web
    tier: front
  annotations:
    team: blue
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: p-api
  namespace: staging
  labels:
    app: api
  annotations:
    internal.config.kubernetes.io/previousNames: api
    internal.config.kubernetes.io/previousNamespaces: default
    internal.config.kubernetes.io/previousKinds: Deployment
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: prod
  labels:
    app: web
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  labels:
    tier: back
  annotations:
    team: red
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: web
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: thing
  namespace: prod
`

func TestSelect(t *testing.T) {
	for _, s := range []types.Selector{
		{},
		{ResId: resid.ResId{Name: "web"}},
		{ResId: resid.ResId{Name: "web.*"}},
		{ResId: resid.ResId{Name: "api"}},
		{ResId: resid.ResId{Name: "p-api"}},
		{ResId: resid.ResId{Name: "^p-"}},
		{ResId: resid.ResId{Namespace: "prod"}},
		{ResId: resid.ResId{Namespace: "default"}},
		{ResId: resid.ResId{Namespace: "staging"}},
		{ResId: resid.ResId{Namespace: "pro.*"}},
		{ResId: resid.ResId{Gvk: resid.Gvk{Kind: "Deployment"}}},
		{ResId: resid.ResId{Gvk: resid.Gvk{Group: "apps"}}},
		{ResId: resid.ResId{Gvk: resid.Gvk{Version: "v1"}}},
		{ResId: resid.ResId{Gvk: resid.Gvk{Group: "example.com", Kind: "Widget"}}},
		{ResId: resid.ResId{Gvk: resid.Gvk{Kind: "ClusterRole"}, Namespace: "prod"}},
		{LabelSelector: "app=web"},
		{LabelSelector: "tier"},
		{LabelSelector: "app in (web, api),tier!=front"},
		{LabelSelector: "!tier"},
		{AnnotationSelector: "team=blue"},
		{AnnotationSelector: "team"},
		{ResId: resid.ResId{Name: "web"}, LabelSelector: "app=web", AnnotationSelector: "team=blue"},
		{LabelSelector: "app=="},
		{AnnotationSelector: "a b"},
		{ResId: resid.ResId{Name: "(unclosed"}},
		{ResId: resid.ResId{Namespace: "[bad"}},
	} {
		m, k := both(t, selectable)
		got, errM := m.Select(s)
		want, errK := k.Select(s)
		if errString(errM) != errString(errK) {
			t.Errorf("Select(%+v): error %v, kustomize %v", s, errM, errK)
			continue
		}
		if idList(got) != idList(want) {
			t.Errorf("Select(%+v):\n krm:       %s\n kustomize: %s", s, idList(got), idList(want))
		}
	}
}

func TestLookups(t *testing.T) {
	m, k := both(t, varied+"---\n"+selectable)
	rs := parse(t, varied+"---\n"+selectable)
	var allIDs []resid.ResId
	for _, r := range rs {
		allIDs = append(allIDs, r.CurId(), r.OrgId())
		allIDs = append(allIDs, r.PrevIds()...)
	}
	allIDs = append(allIDs,
		resid.NewResIdWithNamespace(resid.Gvk{Version: "v1", Kind: "ConfigMap"}, "absent", ""),
		resid.NewResIdWithNamespace(resid.Gvk{Group: "apps", Version: "v1", Kind: "Deployment"}, "web", ""),
		resid.NewResIdWithNamespace(resid.Gvk{Group: "apps", Version: "v1", Kind: "Deployment"}, "web", "prod"))
	for _, id := range allIDs {
		gi, ei := m.GetIndexOfCurrentId(id)
		wi, ewi := k.GetIndexOfCurrentId(id)
		if gi != wi || errString(ei) != errString(ewi) {
			t.Errorf("GetIndexOfCurrentId(%s) = %d %v, kustomize %d %v", id, gi, ei, wi, ewi)
		}
		for name, pair := range map[string][2][]*resource.Resource{
			"ByCurrentId":    {m.GetMatchingResourcesByCurrentId(id.Equals), k.GetMatchingResourcesByCurrentId(id.Equals)},
			"ByAnyId":        {m.GetMatchingResourcesByAnyId(id.Equals), k.GetMatchingResourcesByAnyId(id.Equals)},
			"ByAnyId (Gvkn)": {m.GetMatchingResourcesByAnyId(id.GvknEquals), k.GetMatchingResourcesByAnyId(id.GvknEquals)},
		} {
			if idList(pair[0]) != idList(pair[1]) {
				t.Errorf("GetMatchingResources%s(%s) = %s, kustomize %s", name, id, idList(pair[0]), idList(pair[1]))
			}
		}
		r1, e1 := m.GetById(id)
		r2, e2 := k.GetById(id)
		if errString(e1) != errString(e2) || (e1 == nil && r1.CurId() != r2.CurId()) {
			t.Errorf("GetById(%s) = %v, kustomize %v", id, e1, e2)
		}
		r1, e1 = m.GetByCurrentId(id)
		r2, e2 = k.GetByCurrentId(id)
		if errString(e1) != errString(e2) || (e1 == nil && r1.CurId() != r2.CurId()) {
			t.Errorf("GetByCurrentId(%s) = %v, kustomize %v", id, e1, e2)
		}
	}
	if !reflect.DeepEqual(m.AllIds(), k.AllIds()) {
		t.Errorf("AllIds differ")
	}
	groups := func(g map[string][]*resource.Resource) map[string]string {
		out := map[string]string{}
		for ns, rs := range g {
			out[ns] = idList(rs)
		}
		return out
	}
	if a, b := groups(m.GroupedByCurrentNamespace()), groups(k.GroupedByCurrentNamespace()); !reflect.DeepEqual(a, b) {
		t.Errorf("GroupedByCurrentNamespace = %v, kustomize %v", a, b)
	}
	if a, b := groups(m.GroupedByOriginalNamespace()), groups(k.GroupedByOriginalNamespace()); !reflect.DeepEqual(a, b) {
		t.Errorf("GroupedByOriginalNamespace = %v, kustomize %v", a, b)
	}
	if a, b := idList(m.ClusterScoped()), idList(k.ClusterScoped()); a != b {
		t.Errorf("ClusterScoped = %s, kustomize %s", a, b)
	}
	for i := -1; i <= m.Size(); i++ {
		a, b := m.GetByIndex(i), k.GetByIndex(i)
		if (a == nil) != (b == nil) || (a != nil && a.CurId() != b.CurId()) {
			t.Errorf("GetByIndex(%d) differs", i)
		}
	}
}

func TestSubsetThatCouldBeReferencedByResource(t *testing.T) {
	objs := `apiVersion: v1
kind: ServiceAccount
metadata:
  name: sa
  namespace: a
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  namespace: b
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: cr
`
	for _, referrer := range []string{
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: a\n",
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n",
		"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: crb\n",
		"apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb\n  namespace: c\nsubjects:\n- kind: ServiceAccount\n  name: sa\n  namespace: a\n- kind: ServiceAccount\n  name: sb\n  namespace: b\n- kind: User\n  name: u\n  namespace: default\n",
		"apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb\n  namespace: c\nsubjects:\n- kind: ServiceAccount\n  name: sa\n  namespace: 7\n",
	} {
		m, k := both(t, objs)
		a, errA := m.SubsetThatCouldBeReferencedByResource(one(t, referrer))
		b, errB := k.SubsetThatCouldBeReferencedByResource(one(t, referrer))
		if errString(errA) != errString(errB) {
			t.Errorf("referrer %s: error %v, kustomize %v", one(t, referrer).CurId(), errA, errB)
			continue
		}
		if errA == nil && idList(a.Resources()) != idList(b.Resources()) {
			t.Errorf("referrer %s: subset %s, kustomize %s", one(t, referrer).CurId(), idList(a.Resources()), idList(b.Resources()))
		}
	}
}

func TestRemoveAndReplace(t *testing.T) {
	y := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  namespace: x\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: a\n"
	cm := resid.Gvk{Version: "v1", Kind: "ConfigMap"}
	for _, id := range []resid.ResId{
		resid.NewResIdWithNamespace(cm, "a", ""),
		resid.NewResIdWithNamespace(cm, "b", "x"),
		resid.NewResIdWithNamespace(cm, "b", ""),
		resid.NewResIdWithNamespace(cm, "a", "default"), // Remove compares with !=, not Equals
		resid.NewResIdWithNamespace(resid.Gvk{Version: "v1", Kind: "Secret"}, "a", ""),
	} {
		m, k := both(t, y)
		sameResult(t, "Remove "+id.String(), m, k, m.Remove(id), k.Remove(id))
	}
	for _, repl := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  new: \"1\"\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: default\ndata:\n  new: \"1\"\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  namespace: x\ndata:\n  new: \"1\"\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
	} {
		m, k := both(t, y)
		i, errM := m.Replace(one(t, repl))
		j, errK := k.Replace(one(t, repl))
		if i != j {
			t.Errorf("Replace index %d, kustomize %d", i, j)
		}
		sameResult(t, "Replace", m, k, errM, errK)
	}
	// Two objects with one ID (possible after a filter): Replace refuses.
	m := &Map{list: parse(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: default\n")}
	if _, err := m.Replace(one(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n")); err == nil || err.Error() != "in Replace: id matched 2 resources" {
		t.Errorf("Replace on duplicate = %v", err)
	}
}

func TestErrorIfNotEqualSets(t *testing.T) {
	a := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n"
	b := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n"
	for _, tc := range []struct {
		name, x, y string
		dupY       bool
		want       string
	}{
		{name: "equal", x: a + "---\n" + b, y: a + "---\n" + b},
		{name: "equal in another order", x: a + "---\n" + b, y: b + "---\n" + a},
		{name: "sizes", x: a + "---\n" + b, y: a, want: "lists have different number of entries: 2 doesn't equal 1"},
		{name: "missing", x: a, y: b, want: "id in self missing from other; id: ConfigMap.v1.[noGrp]/a.[noNs]"},
		{name: "content", x: a, y: strings.Replace(a, "k: v", "k: w", 1), want: "nodes unequal"},
		{name: "duplicate in other", x: a + "---\n" + b, y: a + "---\n" + strings.Replace(a, "name: a", "name: a\n  namespace: default", 1), want: "id in self matches 2 in other"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := &Map{list: parse(t, tc.x)}
			y := &Map{list: parse(t, tc.y)}
			err := x.ErrorIfNotEqualSets(y)
			if tc.want == "" {
				if err != nil {
					t.Errorf("error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	// It accepts kustomize's maps as the other side too.
	m, k := both(t, a+"---\n"+b)
	if err := m.ErrorIfNotEqualSets(k); err != nil {
		t.Errorf("against kustomize's map: %v", err)
	}
	// ErrorIfNotEqualLists is order-sensitive.
	x := &Map{list: parse(t, a+"---\n"+b)}
	if err := x.ErrorIfNotEqualLists(&Map{list: parse(t, a+"---\n"+b)}); err != nil {
		t.Errorf("ErrorIfNotEqualLists(same) = %v", err)
	}
	if err := x.ErrorIfNotEqualLists(&Map{list: parse(t, b+"---\n"+a)}); err == nil {
		t.Errorf("ErrorIfNotEqualLists(reordered) = nil")
	}
}

func TestApplySmPatch(t *testing.T) {
	objs := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: app
        image: nginx
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 1
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web
data:
  a: "1"
`
	for _, tc := range []struct {
		name     string
		selected []string // Deployment names
		patch    string
	}{
		{"replicas on one", []string{"web"}, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n"},
		{"on two", []string{"web", "api"}, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: any\n  labels:\n    x: y\nspec:\n  replicas: 5\n"},
		{"container merge", []string{"web"}, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx:2\n      - name: side\n        image: busybox\n"},
		{"delete", []string{"api"}, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n$patch: delete\n"},
		{"rename", []string{"api"}, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api2\n  annotations:\n    internal.config.kubernetes.io/allowNameChange: allowed\n"},
		{"rename into a collision", []string{"api"}, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\n    internal.config.kubernetes.io/allowNameChange: allowed\n"},
		{"nothing selected", nil, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 9\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, k := both(t, objs)
			var sel []*resource.Resource
			for _, r := range parse(t, objs) {
				for _, n := range tc.selected {
					if r.GetKind() == "Deployment" && r.GetName() == n {
						sel = append(sel, r)
					}
				}
			}
			set := resource.MakeIdSet(sel)
			errM := m.ApplySmPatch(set, one(t, tc.patch))
			errK := k.ApplySmPatch(set, one(t, tc.patch))
			sameResult(t, "ApplySmPatch", m, k, errM, errK)
		})
	}
}

func TestCopiesAndMisc(t *testing.T) {
	m, k := both(t, varied)
	if a, b := dump(t, m.DeepCopy()), dump(t, k.DeepCopy()); a != b {
		t.Errorf("DeepCopy AsYaml differs")
	}
	dc := m.DeepCopy()
	if dc.GetByIndex(0) == m.GetByIndex(0) {
		t.Errorf("DeepCopy shares resources")
	}
	dc.GetByIndex(0).SetName("changed")
	if m.GetByIndex(0).GetName() == "changed" {
		t.Errorf("DeepCopy shares nodes")
	}
	sc := m.ShallowCopy()
	if sc.GetByIndex(0) != m.GetByIndex(0) || sc.Size() != m.Size() {
		t.Errorf("ShallowCopy does not share resources")
	}
	if err := sc.Remove(sc.GetByIndex(0).CurId()); err != nil || m.Size() == sc.Size() {
		t.Errorf("ShallowCopy shares the list: %v", err)
	}
	// Resources returns a copy of the list.
	l := m.Resources()
	l[0] = nil
	if m.GetByIndex(0) == nil {
		t.Errorf("Resources exposes the internal list")
	}
	// ToRNodeSlice copies.
	if a, b := len(m.ToRNodeSlice()), len(k.ToRNodeSlice()); a != b {
		t.Errorf("ToRNodeSlice len %d, kustomize %d", a, b)
	}
	m.ToRNodeSlice()[0].SetName("zzz")
	if m.GetByIndex(0).GetName() == "zzz" {
		t.Errorf("ToRNodeSlice shares nodes")
	}
	// AnnotateAll, origins and transformations match kustomize.
	origin := &resource.Origin{Path: "a/b.yaml"}
	tr := &resource.Origin{ConfiguredIn: "k.yaml", ConfiguredBy: yaml.ResourceIdentifier{TypeMeta: yaml.TypeMeta{APIVersion: "builtin", Kind: "LabelTransformer"}}}
	sameResult(t, "AnnotateAll", m, k, m.AnnotateAll("x", "y"), k.AnnotateAll("x", "y"))
	sameResult(t, "AddOriginAnnotation", m, k, m.AddOriginAnnotation(origin), k.AddOriginAnnotation(origin))
	sameResult(t, "AddOriginAnnotation(nil)", m, k, m.AddOriginAnnotation(nil), k.AddOriginAnnotation(nil))
	sameResult(t, "AddTransformerAnnotation", m, k, m.AddTransformerAnnotation(tr), k.AddTransformerAnnotation(tr))
	sameResult(t, "RemoveTransformerAnnotations", m, k, m.RemoveTransformerAnnotations(), k.RemoveTransformerAnnotations())
	sameResult(t, "RemoveOriginAnnotations", m, k, m.RemoveOriginAnnotations(), k.RemoveOriginAnnotations())
	m.RemoveBuildAnnotations()
	k.RemoveBuildAnnotations()
	sameResult(t, "RemoveBuildAnnotations", m, k, nil, nil)
	sameResult(t, "DeAnchor", m, k, m.DeAnchor(), k.DeAnchor())
	m.Clear()
	if m.Size() != 0 || dump(t, m) != "" {
		t.Errorf("Clear left %d", m.Size())
	}
}

func TestDropEmptiesAndApplyFilter(t *testing.T) {
	m, k := both(t, varied)
	// A filter that deletes the second object, empties the third and adds one.
	f := kio.FilterFunc(func(nodes []*yaml.RNode) ([]*yaml.RNode, error) {
		out := []*yaml.RNode{nodes[0]}
		nodes[2].SetYNode(&yaml.Node{Kind: yaml.MappingNode})
		out = append(out, nodes[2:]...)
		return append(out, yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: added\n")), nil
	})
	sameResult(t, "ApplyFilter", m, k, m.ApplyFilter(f), k.ApplyFilter(f))
	if m.Size() != k.Size() {
		t.Errorf("size after ApplyFilter %d, kustomize %d", m.Size(), k.Size())
	}
	m.GetByIndex(1).SetYNode(&yaml.Node{Kind: yaml.MappingNode})
	k.GetByIndex(1).SetYNode(&yaml.Node{Kind: yaml.MappingNode})
	m.DropEmpties()
	k.DropEmpties()
	sameResult(t, "DropEmpties", m, k, nil, nil)
	failing := kio.FilterFunc(func([]*yaml.RNode) ([]*yaml.RNode, error) { return nil, fmt.Errorf("boom") })
	if err := m.ApplyFilter(failing); err == nil || err.Error() != "boom" {
		t.Errorf("ApplyFilter error = %v", err)
	}
}

func TestAsYamlManyObjects(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 200; i++ {
		if i > 0 {
			b.WriteString("---\n")
		}
		fmt.Fprintf(&b, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%03d\ndata:\n  i: %q\n", i, fmt.Sprint(i))
	}
	m, k := both(t, b.String())
	sameResult(t, "AsYaml", m, k, nil, nil)
	if dump(t, New()) != "" {
		t.Errorf("empty map AsYaml not empty")
	}
}

// TestAbsorbAllRandom compares AbsorbAll with kustomize's on random
// accumulations (renamed objects sharing previous names, namespaces) and
// random generated lists, one generated object per call and all at once.
func TestAbsorbAllRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	names := []string{"a", "b", "c"}
	nss := []string{"", "x"}
	behaviors := []string{"create", "merge", "replace", ""}
	obj := func(name, ns, prev, behavior string, i int) string {
		y := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n"
		if ns != "" {
			y += "  namespace: " + ns + "\n"
		}
		if prev != "" || behavior != "" {
			y += "  annotations:\n"
		}
		if prev != "" {
			pns := ns
			if pns == "" {
				pns = "default"
			}
			y += "    internal.config.kubernetes.io/previousNames: " + prev + "\n    internal.config.kubernetes.io/previousNamespaces: " + pns + "\n    internal.config.kubernetes.io/previousKinds: ConfigMap\n"
		}
		if behavior != "" {
			y += "    internal.config.kubernetes.io/generatorBehavior: " + behavior + "\n"
		}
		return y + fmt.Sprintf("data:\n  k%d: v%d\n", i, i)
	}
	for trial := 0; trial < 300; trial++ {
		seen := map[string]bool{}
		var base []string
		for i := 0; i < 1+rng.Intn(5); i++ {
			name, ns := names[rng.Intn(len(names))], nss[rng.Intn(len(nss))]
			prev := ""
			if rng.Intn(2) == 0 {
				prev, name = name, "p-"+name
			}
			if seen[name+"/"+ns] {
				continue
			}
			seen[name+"/"+ns] = true
			base = append(base, obj(name, ns, prev, "", i))
		}
		var gen []string
		for i := 0; i < 1+rng.Intn(4); i++ {
			gen = append(gen, obj(names[rng.Intn(len(names))], nss[rng.Intn(len(nss))], "", behaviors[rng.Intn(len(behaviors))], 10+i))
		}
		m, k := both(t, strings.Join(base, "---\n"))
		a, _ := both(t, strings.Join(base, "---\n"))
		var errM, errK, errA error
		for _, g := range gen {
			if errM = m.AbsorbAll(&Map{list: parse(t, g)}); errM != nil {
				break
			}
		}
		// One Absorber for all, as a kustomization's generators use it.
		absorb := a.Absorber()
		for _, g := range gen {
			if errA = absorb(&Map{list: parse(t, g)}); errA != nil {
				break
			}
		}
		for _, g := range gen {
			one := resmap.New()
			_ = one.Append(parse(t, g)[0])
			if errK = k.AbsorbAll(one); errK != nil {
				break
			}
		}
		// The candidate order in "found multiple objects" is a known
		// difference (TestAbsorbAllMultipleMatchesInOrder).
		cut := func(err error) string {
			s := errString(err)
			if i := strings.Index(s, "found multiple objects"); i >= 0 {
				return s[:i+len("found multiple objects")]
			}
			return s
		}
		if cut(errM) != cut(errK) || errString(errA) != errString(errM) {
			t.Fatalf("trial %d: error\n krm:       %s\n absorber:  %s\n kustomize: %s\nbase:\n%s\ngenerated:\n%s", trial, errString(errM), errString(errA), errString(errK), strings.Join(base, "---\n"), strings.Join(gen, "---\n"))
		}
		if errM == nil {
			if got, want := dump(t, m), dump(t, k); got != want {
				t.Fatalf("trial %d:\n krm:\n%s\n kustomize:\n%s", trial, got, want)
			}
			if got, want := dump(t, a), dump(t, k); got != want {
				t.Fatalf("trial %d:\n absorber:\n%s\n kustomize:\n%s", trial, got, want)
			}
		}
	}
}

// TestRemoveAnnotationsPrintsAsKustomize: the in-place removals of build,
// origin and transformer annotations print as kustomize's rebuilds do.
func TestRemoveAnnotationsPrintsAsKustomize(t *testing.T) {
	cases := []string{
		"kind: A\nmetadata:\n  name: a\n  annotations:\n    config.kubernetes.io/path: x.yaml\n    z: \"1\"\n    a: b\n",
		"kind: A\nmetadata:\n  name: a\n  annotations:\n    internal.config.kubernetes.io/previousNames: a\n    internal.config.kubernetes.io/previousKinds: A\n    internal.config.kubernetes.io/previousNamespaces: default\n",
		"kind: A\nmetadata:\n  name: a\n  annotations:\n    keep: \"yes\"\n",
		"kind: A\nmetadata:\n  name: a\n  annotations: {}\n",
		"kind: A\nmetadata:\n  name: a\n  annotations:\n",
		"kind: A\nmetadata:\n  name: a\n  annotations:\n    n: 1\n    config.kubernetes.io/index: '0'\n",
		"kind: A\nmetadata:\n  name: a\n  annotations: {config.kubernetes.io/path: x, b: c}\n",
		"kind: A\nmetadata:\n  name: a\n  annotations:\n    d: x\n    d: y\n    config.kubernetes.io/path: x\n",
		"kind: A\nmetadata:\n  name: a\n",
		"kind: A\nmetadata:\n  name: a\n  annotations:\n    config.kubernetes.io/origin: |\n      path: a.yaml\n    alpha.config.kubernetes.io/transformations: |\n      - kind: T\n    b: \"on\"\n",
		"kind: A\nmetadata:\n  name: a\n  annotations:\n    config.kubernetes.io/origin: |\n      path: a.yaml\n",
		"kind: A\nmetadata:\n  name: a\n  annotations:\n    alpha.config.kubernetes.io/transformations: x\n",
		"kind: A\nmetadata:\n  name: a\n  annotations:\n    config.kubernetes.io/origin: 1\n",
	}
	removals := []struct {
		name   string
		ours   func(*Map) error
		theirs func(*resource.Resource) error
	}{
		{"build", func(m *Map) error { m.RemoveBuildAnnotations(); return nil },
			func(r *resource.Resource) error { r.RemoveBuildAnnotations(); return nil }},
		{"origin", (*Map).RemoveOriginAnnotations, func(r *resource.Resource) error { return r.SetOrigin(nil) }},
		{"transformer", (*Map).RemoveTransformerAnnotations, (*resource.Resource).ClearTransformations},
	}
	// An empty block mapping (what a patch setting the last annotation to
	// null leaves) cannot be written; "annotations:\n    gone: x" stands for
	// it, emptied after parsing.
	const emptied = "kind: A\nmetadata:\n  name: a\n  annotations:\n    gone: x\n"
	cases = append(cases, emptied)
	for _, rm := range removals {
		for _, c := range cases {
			ours, theirs := parse(t, c), parse(t, c)
			if c == emptied {
				for _, r := range []*resource.Resource{ours[0], theirs[0]} {
					an := yamlnode.Field(yamlnode.Field(r.YNode(), "metadata"), "annotations")
					an.Content = nil
				}
			}
			m, err := FromResources(ours)
			if err != nil {
				t.Fatal(err)
			}
			if err := rm.ours(m); err != nil {
				t.Fatal(err)
			}
			if err := rm.theirs(theirs[0]); err != nil {
				t.Fatal(err)
			}
			got, errG := ours[0].AsYAML()
			want, errW := theirs[0].AsYAML()
			if string(got) != string(want) || (errG == nil) != (errW == nil) {
				t.Errorf("%s, %s: krm\n%s(%v)\nkustomize\n%s(%v)", rm.name, c, got, errG, want, errW)
			}
		}
	}
}

// TestByAnyNameIsWithAnyName: the one-pass index holds, for every name,
// what WithAnyName finds.
func TestByAnyNameIsWithAnyName(t *testing.T) {
	prev := func(names, nss, kinds string) string {
		return "  annotations:\n    internal.config.kubernetes.io/previousNames: " + names +
			"\n    internal.config.kubernetes.io/previousNamespaces: " + nss +
			"\n    internal.config.kubernetes.io/previousKinds: " + kinds + "\n"
	}
	m, err := FromResources(parse(t, strings.Join([]string{
		"kind: A\nmetadata:\n  name: a\n",
		"kind: B\nmetadata:\n  name: b\n" + prev("a,x,a", "d,d,d", "A,A,A"),
		"kind: C\nmetadata:\n  name: c\n" + prev("y,z", "d", "C,C"), // lists of unequal length
		"kind: D\nmetadata:\n  name: a\n  namespace: n\n",
	}, "---\n")))
	if err != nil {
		t.Fatal(err)
	}
	idx := ByAnyName(m)
	for _, name := range []string{"a", "b", "c", "x", "y", "z", "missing"} {
		want := WithAnyName(m, name)
		if got := idx[name]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: ByAnyName %d resources, WithAnyName %d", name, len(got), len(want))
		}
	}
	if len(idx["a"]) != 3 || len(idx["z"]) != 0 {
		t.Errorf("a: %d resources (want 3), z: %d (want 0)", len(idx["a"]), len(idx["z"]))
	}
}
