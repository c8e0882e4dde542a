package convergence

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func obj(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestStatus(t *testing.T) {
	for _, c := range []struct {
		name, obj string
		want      State
		reason    string
	}{
		{"no status", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`, Current, ""},
		{"Ready of an old generation", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":2},
			"status":{"conditions":[{"type":"Ready","status":"True","observedGeneration":1}]}}`, InProgress, "Ready condition observes generation 1, not yet 2"},
		{"Ready", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":2},
			"status":{"conditions":[{"type":"Ready","status":"True","observedGeneration":2}]}}`, Current, ""},
		{"Ready=False", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":2},
			"status":{"conditions":[{"type":"Ready","status":"False","reason":"Building","message":"step 2 of 3","observedGeneration":2}]}}`, InProgress, "Ready=False (Building): step 2 of 3"},
		{"Stalled", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1},
			"status":{"conditions":[{"type":"Stalled","status":"True","reason":"BadSpec"}]}}`, Failed, "Stalled=True (BadSpec)"},
		{"status.observedGeneration old", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":3},"status":{"observedGeneration":2}}`,
			InProgress, ".status.observedGeneration observes generation 2, not yet 3"},
		{"Deployment not observed", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":1},"spec":{"replicas":0}}`,
			InProgress, "status.observedGeneration not yet written"},
		{"Deployment of 0", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":1},"spec":{"replicas":0},
			"status":{"observedGeneration":1,"conditions":[{"type":"Available","status":"True"}]}}`, Current, ""},
		{"Deployment rolling", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":1},"spec":{"replicas":3},
			"status":{"observedGeneration":1,"updatedReplicas":3,"readyReplicas":1}}`, InProgress, "status.readyReplicas is 1 of 3"},
		{"Deployment deadline", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":1},
			"status":{"observedGeneration":1,"conditions":[{"type":"Progressing","status":"False","reason":"ProgressDeadlineExceeded"}]}}`, Failed, "Progressing=False (ProgressDeadlineExceeded)"},
		{"Namespace", `{"apiVersion":"v1","kind":"Namespace","status":{"phase":"Terminating"}}`, InProgress, `phase "Terminating", not yet Active`},
		{"Job failed", `{"apiVersion":"batch/v1","kind":"Job","status":{"conditions":[{"type":"Failed","status":"True","reason":"BackoffLimitExceeded"}]}}`, Failed, "Failed=True (BackoffLimitExceeded)"},
		{"Service", `{"apiVersion":"v1","kind":"Service","spec":{"clusterIP":"10.0.0.1","ports":[{"port":80}]}}`, Current, ""},
		{"Service ClusterIP", `{"apiVersion":"v1","kind":"Service","spec":{"type":"ClusterIP","clusterIP":"10.0.0.1"}}`, Current, ""},
		{"Service NodePort", `{"apiVersion":"v1","kind":"Service","spec":{"type":"NodePort","clusterIP":"10.0.0.1"},"status":{"loadBalancer":{}}}`, Current, ""},
		{"Service ExternalName", `{"apiVersion":"v1","kind":"Service","spec":{"type":"ExternalName","externalName":"db.example.com"}}`, Current, ""},
		{"LoadBalancer without a cluster IP", `{"apiVersion":"v1","kind":"Service","spec":{"type":"LoadBalancer"}}`,
			InProgress, "LoadBalancer: spec.clusterIP not yet assigned"},
		{"LoadBalancer pending", `{"apiVersion":"v1","kind":"Service","spec":{"type":"LoadBalancer","clusterIP":"10.0.0.1"},"status":{"loadBalancer":{}}}`,
			InProgress, "LoadBalancer: no status.loadBalancer.ingress yet"},
		{"LoadBalancer of an empty ingress", `{"apiVersion":"v1","kind":"Service","spec":{"type":"LoadBalancer","clusterIP":"10.0.0.1"},"status":{"loadBalancer":{"ingress":[]}}}`,
			InProgress, "LoadBalancer: no status.loadBalancer.ingress yet"},
		{"LoadBalancer with an ingress", `{"apiVersion":"v1","kind":"Service","spec":{"type":"LoadBalancer","clusterIP":"10.0.0.1"},
			"status":{"loadBalancer":{"ingress":[{"ip":"203.0.113.7"}]}}}`, Current, ""},
		{"LoadBalancer of a hostname", `{"apiVersion":"v1","kind":"Service","spec":{"type":"LoadBalancer","clusterIP":"10.0.0.1"},
			"status":{"loadBalancer":{"ingress":[{"hostname":"lb.example.com"}]}}}`, Current, ""},
		{"LoadBalancer of external IPs", `{"apiVersion":"v1","kind":"Service","spec":{"type":"LoadBalancer","clusterIP":"10.0.0.1","externalIPs":["198.51.100.1"]}}`, Current, ""},
		{"deleting", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"deletionTimestamp":"2026-01-01T00:00:00Z"}}`, InProgress, "being deleted"},
	} {
		r := Status(obj(t, c.obj), nil)
		if r.State != c.want || r.Reason != c.reason {
			t.Errorf("%s: %+v, want %s %q", c.name, r, c.want, c.reason)
		}
	}
}

// Wait returns once a late controller marks the object ready; it names the object and the
// condition when none does.
func TestWait(t *testing.T) {
	var reads atomic.Int32
	late := Target{Name: "Widget.example.com shop/web", Get: func(context.Context) (map[string]any, error) {
		if reads.Add(1) < 3 {
			return obj(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1},"status":{"conditions":[{"type":"Ready","status":"False","reason":"Starting"}]}}`), nil
		}
		return obj(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1},"status":{"conditions":[{"type":"Ready","status":"True"}]}}`), nil
	}}
	var events []string
	err := Wait(t.Context(), []Target{late}, Options{Interval: time.Millisecond, Timeout: 10 * time.Second, Progress: func(e Event) {
		events = append(events, string(e.Result.State))
	}})
	if err != nil || strings.Join(events, ",") != "InProgress,Current" {
		t.Errorf("Wait: %v, events %v", err, events)
	}
	never := Target{Name: "Widget.example.com shop/stuck", Get: late.Get}
	gone := Target{Name: "ConfigMap shop/gone", Get: func(context.Context) (map[string]any, error) { return nil, nil }}
	reads.Store(-1000)
	err = Wait(t.Context(), []Target{never, gone}, Options{Interval: time.Millisecond, Timeout: 50 * time.Millisecond})
	var nc *NotConvergedError
	if !errors.As(err, &nc) || err.Error() != "2 of 2 objects not current after 50ms:\n  Widget.example.com shop/stuck: InProgress: Ready=False (Starting)\n  ConfigMap shop/gone: NotFound: not found" {
		t.Errorf("Wait timing out: %v", err)
	}
	stalled := Target{Name: "Widget.example.com shop/bad", Get: func(context.Context) (map[string]any, error) {
		return obj(t, `{"apiVersion":"example.com/v1","kind":"Widget","status":{"conditions":[{"type":"Stalled","status":"True","reason":"BadSpec"}]}}`), nil
	}}
	start := time.Now()
	err = Wait(t.Context(), []Target{stalled}, Options{Interval: time.Millisecond, Timeout: time.Minute})
	if err == nil || err.Error() != "1 of 1 objects failed:\n  Widget.example.com shop/bad: Failed: Stalled=True (BadSpec)" || time.Since(start) > 10*time.Second {
		t.Errorf("Wait on a failed object: %v", err)
	}
}

// The printer's lines, plain and live; what it prints of the objects is escaped in both,
// since a live printer writes to the terminal itself.
func TestPrinter(t *testing.T) {
	var plain, live strings.Builder
	const hostile = "Widget shop/a\x1b]0;owned\x07\x1b[2J"
	events := []Event{
		{Name: "Widget shop/a", Result: Result{State: InProgress, Reason: "Ready=False (Starting)"}, Current: 0, Total: 3},
		{Name: "Widget shop/a", Result: Result{State: Current}, Generation: 2, Current: 1, Total: 3},
		{Name: hostile, Result: Result{State: InProgress, Reason: "Ready=False: \x1b[31mred\r\u202eevil"}, Current: 1, Total: 3},
		{Name: hostile, Result: Result{State: Current}, Generation: 1, Current: 2, Total: 3},
		{Name: "Widget shop/b", Result: Result{State: InProgress, Reason: strings.Repeat("x", 300)}, Current: 2, Total: 3},
	}
	p, l := NewPrinter(&plain, false), NewPrinter(&live, true)
	for _, e := range events {
		p.Event(e)
		l.Event(e)
	}
	p.Done()
	l.Done()
	const name = `Widget shop/a\x1b]0;owned\x07\x1b[2J`
	const reason = `Ready=False: \x1b[31mred\r\u202eevil`
	if want := "[0/3 current] Widget shop/a InProgress: Ready=False (Starting)\n[1/3 current] Widget shop/a current (generation 2)\n" +
		"[1/3 current] " + name + " InProgress: " + reason + "\n[2/3 current] " + name + " current (generation 1)\n" +
		"[2/3 current] Widget shop/b InProgress: " + strings.Repeat("x", 300) + "\n"; plain.String() != want {
		t.Errorf("plain:\n%q\nwant\n%q", plain.String(), want)
	}
	want := "[0/3 current] Widget shop/a InProgress: Ready=False (Starting)\r\x1b[KWidget shop/a current (generation 2)\n" +
		"[1/3 current] " + name + " InProgress: " + reason + "\r\x1b[K" + name + " current (generation 1)\n" +
		"[2/3 current] Widget shop/b InProgress: " + strings.Repeat("x", maxLive-len("…")-len("[2/3 current] Widget shop/b InProgress: ")) + "…\r\x1b[K"
	if live.String() != want {
		t.Errorf("live:\n%q\nwant\n%q", live.String(), want)
	}
}
