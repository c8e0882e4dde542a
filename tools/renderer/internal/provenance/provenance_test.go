package provenance

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
)

var rf = resource.NewFactory(&hasher.Hasher{})

func res(t *testing.T, y string) *resource.Resource {
	t.Helper()
	rs, err := rf.SliceFromBytes([]byte(y))
	if err != nil || len(rs) != 1 {
		t.Fatalf("%v (%d)", err, len(rs))
	}
	return rs[0]
}

func TestPlaceDocs(t *testing.T) {
	content := "# header\n\napiVersion: v1\nkind: A\nmetadata:\n  name: a\n---\n# c\napiVersion: v1\nkind: B\nmetadata:\n  name: b\n\n--- # doc 3\n---\napiVersion: v1\nkind: CList\nitems:\n- apiVersion: v1\n  kind: C\n  metadata:\n    name: c1\n- apiVersion: v1\n  kind: C\n  metadata:\n    name: c2\n"
	docs, ok := provmanifest.Documents([]byte(content))
	if !ok || len(docs) != 3 {
		t.Fatalf("%v %d docs", ok, len(docs))
	}
	rs, err := rf.SliceFromBytes([]byte(content))
	if err != nil {
		t.Fatal(err)
	}
	at := place(rs, docs)
	if at == nil || at[0] != &docs[0] || at[1] != &docs[1] || at[2] != &docs[2] || at[3] != &docs[2] {
		t.Errorf("place: %v", at)
	}
	// A mismatch between documents and resources is detected.
	if place(rs[:3], docs) != nil {
		t.Error("place accepted a wrong count")
	}
}

func TestRedactedSecretHash(t *testing.T) {
	a := res(t, "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  k: c2VjcmV0\nstringData:\n  p: hunter2\n")
	b := res(t, "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  k: b3RoZXI=\nstringData:\n  p: other\n")
	c := res(t, "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  k2: c2VjcmV0\nstringData:\n  p: hunter2\n")
	if !isSecret(a) || isSecret(res(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\n")) {
		t.Error("isSecret")
	}
	if redactedSha(a) != redactedSha(b) {
		t.Error("the redacted hash depends on secret values")
	}
	if redactedSha(a) == redactedSha(c) {
		t.Error("the redacted hash ignores the keys")
	}
	if s, _ := a.AsYAML(); !strings.Contains(string(s), "hunter2") {
		t.Error("redaction changed the object itself")
	}
}

func TestIDOfMatchesKyaml(t *testing.T) {
	for _, y := range []string{
		"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: prod\n",
		"kind: ConfigMap\nmetadata:\n  name: a\n",
		"apiVersion: v1\napiVersion: v2\nkind: A\nkind: B\nmetadata:\n  name: x\n  name: y\n",
		"apiVersion: v1\nkind: A\nmetadata: {}\nmetadata:\n  name: second\n",
		"apiVersion: v1\nkind: A\nmetadata:\n  name: null\n  namespace: []\n",
		"apiVersion: v1\nkind: A\nmetadata:\n  name: {a: b}\n  namespace: ns\n",
		"apiVersion: [v1]\nkind: {a: b}\nmetadata: [name, x]\n",
		"apiVersion: v1\nkind: A\nmetadata: scalar\n",
		"apiVersion: ~\nkind: A\n",
	} {
		n, err := yaml.Parse(y)
		if err != nil {
			t.Fatal(err)
		}
		r := &resource.Resource{RNode: *n}
		want := provmanifest.ObjectID{APIVersion: r.GetApiVersion(), Kind: r.GetKind(), Namespace: r.GetNamespace(), Name: r.GetName()}
		if got := idOf(r); got != want {
			t.Errorf("idOf(%q) = %+v, kyaml reads %+v", y, got, want)
		}
	}
}
