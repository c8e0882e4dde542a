//go:build apiserver

package cluster

import (
	"fmt"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/apiserver"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
)

// Two applies of one ApplySet write its record at once: the second one's write meets the
// record the first wrote after it read it (the first write of a new record: AlreadyExists;
// then a stale resourceVersion: Conflict), reads it again and merges: no generation is lost.
// The inner apply runs while the outer has applied and not yet written its record (from the
// outer's Report), as another krm on another machine would.
func TestRecordConcurrentApplies(t *testing.T) {
	s := apiserver.Start(t)
	if err := s.CreateNamespace(t.Context(), "rec"); err != nil {
		t.Fatal(err)
	}
	outer, inner := connect(t, s, apiserver.AdminContext), connect(t, s, apiserver.AdminContext)
	set, err := ParseApplySet("rec-set", "rec")
	if err != nil {
		t.Fatal(err)
	}
	deployment := func(image string) []*Object {
		return manifests(t, `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: rec
spec:
  replicas: 0
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: `+image+"\n")
	}
	opts := func(commit string) ApplyOptions {
		return ApplyOptions{ApplySet: set, Record: &RecordOptions{Commit: commit}}
	}
	// race applies commit outer (image outer), and from its Report commit inner, which
	// records its generation first.
	race := func(outerCommit, innerCommit string) {
		t.Helper()
		o := opts(outerCommit)
		ran := false
		o.Report = func(string) {
			if !ran {
				ran = true
				mustApply(t, inner, deployment("web:"+innerCommit), opts(innerCommit))
			}
		}
		if err := outer.Apply(t.Context(), deployment("web:"+outerCommit), o); err != nil {
			t.Fatalf("the outer apply of %s: %v", outerCommit, err)
		}
	}
	race("c1", "c2") // the record does not exist yet: both create it
	race("c3", "c4") // it exists: both update it

	rec, err := outer.ReadRecord(t.Context(), *set)
	if err != nil {
		t.Fatal(err)
	}
	web := genrecord.Key{Group: "apps", Kind: "Deployment", Namespace: "rec", Name: "web"}
	got := ""
	for _, e := range rec.Generations(web) {
		got += fmt.Sprintf("%d:%s ", e.Generation, e.Commit)
	}
	if want := "1:c1 2:c2 3:c3 4:c4 "; got != want {
		t.Errorf("record after two concurrent pairs of applies: %q, want %q", got, want)
	}
}
