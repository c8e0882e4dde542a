// Package convergence tells whether a live object has caught up with what was applied
// (kstatus-like rules: its outputs observe the applied generation and its status says it is
// ready), and waits until a set of objects has (krm apply --wait), reporting progress.
//
// It knows no client: Wait polls the objects through a function, which package cluster gives.
// Objects are JSON-decoded maps, as the API server serves them.
package convergence

import (
	"fmt"
	"strings"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
)

// State is where an object stands.
type State string

// The states, as kstatus names them.
const (
	// Current: the status reflects the live generation and says the object is ready.
	Current State = "Current"
	// InProgress: a controller has yet to observe the generation, or is still working.
	InProgress State = "InProgress"
	// Failed: the status says the object will not become ready without a change.
	Failed State = "Failed"
	// NotFound: the object does not exist (yet, or any more).
	NotFound State = "NotFound"
)

// Result is an object's state and the condition or field that says why.
type Result struct {
	State  State
	Reason string
}

func inProgress(format string, a ...any) Result {
	return Result{State: InProgress, Reason: fmt.Sprintf(format, a...)}
}

// Status computes an object's state from the live object. The generic rules (any kind): an
// output (a condition's or output path's observedGeneration, status.observedGeneration) that
// reflects an older generation than the live one is in progress; Stalled=True is failed;
// Reconciling=True is in progress; Ready=False is in progress, Ready=True current; an object
// without status is current (no controller reports on it). Then the rules of the built-in
// kinds whose controllers report in fields (Deployment, StatefulSet, DaemonSet, ReplicaSet,
// Job, Pod, PersistentVolumeClaim, Namespace, CustomResourceDefinition, Service).
func Status(obj map[string]any, paths []genrecord.OutputPath) Result {
	if genrecord.Field(obj, "metadata", "deletionTimestamp") != nil {
		return inProgress("being deleted")
	}
	gen := genrecord.Generation(obj)
	for _, o := range genrecord.Outputs(obj, paths) {
		if gen > 0 && o.ObservedGeneration < gen {
			what := o.GenerationPath
			if o.Kind == genrecord.KindCondition {
				what = strings.TrimSuffix(strings.TrimPrefix(o.Path, ".status.conditions[type="), "]") + " condition"
			}
			return inProgress("%s observes generation %d, not yet %d", what, o.ObservedGeneration, gen)
		}
	}
	conds := conditions(obj)
	if c, ok := conds["Stalled"]; ok && c.status == "True" {
		return Result{State: Failed, Reason: c.String()}
	}
	if c, ok := conds["Reconciling"]; ok && c.status == "True" {
		return Result{State: InProgress, Reason: c.String()}
	}
	_, kind := kindOf(obj)
	if rule, ok := kindRules[kind]; ok {
		if r := rule(obj, conds); r.State != "" {
			return r
		}
	}
	if c, ok := conds["Ready"]; ok {
		if c.status == "True" {
			return Result{State: Current}
		}
		return Result{State: InProgress, Reason: c.String()}
	}
	return Result{State: Current}
}

// condition is one status condition.
type condition struct{ typ, status, reason, message string }

func (c condition) String() string {
	s := c.typ + "=" + c.status
	if c.reason != "" {
		s += " (" + c.reason + ")"
	}
	if c.message != "" {
		s += ": " + c.message
	}
	return s
}

func conditions(obj map[string]any) map[string]condition {
	out := map[string]condition{}
	list, _ := genrecord.Field(obj, "status", "conditions").([]any)
	for _, c := range list {
		m, _ := c.(map[string]any)
		t, _ := m["type"].(string)
		if t == "" {
			continue
		}
		cd := condition{typ: t}
		cd.status, _ = m["status"].(string)
		cd.reason, _ = m["reason"].(string)
		cd.message, _ = m["message"].(string)
		out[t] = cd
	}
	return out
}

// kindRules are the rules of the built-in kinds, by kind; a zero Result falls through to the
// generic Ready rule.
var kindRules = map[string]func(map[string]any, map[string]condition) Result{
	"Deployment":               deployment,
	"StatefulSet":              replicated("readyReplicas", "currentReplicas", "updatedReplicas"),
	"ReplicaSet":               replicated("readyReplicas", "availableReplicas"),
	"DaemonSet":                daemonSet,
	"Job":                      job,
	"Pod":                      pod,
	"PersistentVolumeClaim":    phase("Bound"),
	"Namespace":                phase("Active"),
	"CustomResourceDefinition": crd,
	"Service":                  service,
}

func deployment(obj map[string]any, conds map[string]condition) Result {
	if r := needObserved(obj); r.State != "" {
		return r
	}
	if c, ok := conds["Progressing"]; ok && c.reason == "ProgressDeadlineExceeded" {
		return Result{State: Failed, Reason: c.String()}
	}
	want := replicas(obj)
	for _, f := range []string{"updatedReplicas", "readyReplicas", "availableReplicas"} {
		if n := num(obj, "status", f); n < want {
			return inProgress("status.%s is %d of %d", f, n, want)
		}
	}
	if n := num(obj, "status", "replicas"); n > want {
		return inProgress("status.replicas is %d, %d wanted: old replicas are terminating", n, want)
	}
	if c, ok := conds["Available"]; ok && c.status != "True" {
		return Result{State: InProgress, Reason: c.String()}
	}
	return Result{State: Current}
}

func replicated(fields ...string) func(map[string]any, map[string]condition) Result {
	return func(obj map[string]any, _ map[string]condition) Result {
		if r := needObserved(obj); r.State != "" {
			return r
		}
		want := replicas(obj)
		for _, f := range fields {
			if n := num(obj, "status", f); n < want {
				return inProgress("status.%s is %d of %d", f, n, want)
			}
		}
		return Result{State: Current}
	}
}

func daemonSet(obj map[string]any, _ map[string]condition) Result {
	if r := needObserved(obj); r.State != "" {
		return r
	}
	want := num(obj, "status", "desiredNumberScheduled")
	for _, f := range []string{"updatedNumberScheduled", "numberAvailable", "numberReady"} {
		if n := num(obj, "status", f); n < want {
			return inProgress("status.%s is %d of %d", f, n, want)
		}
	}
	return Result{State: Current}
}

func job(obj map[string]any, conds map[string]condition) Result {
	if c, ok := conds["Failed"]; ok && c.status == "True" {
		return Result{State: Failed, Reason: c.String()}
	}
	if c, ok := conds["Complete"]; ok && c.status == "True" {
		return Result{State: Current}
	}
	return inProgress("not complete: %d active, %d succeeded", num(obj, "status", "active"), num(obj, "status", "succeeded"))
}

func pod(obj map[string]any, conds map[string]condition) Result {
	switch p, _ := genrecord.Field(obj, "status", "phase").(string); p {
	case "Succeeded":
		return Result{State: Current}
	case "Failed":
		return Result{State: Failed, Reason: "phase Failed"}
	}
	if c, ok := conds["Ready"]; ok && c.status == "True" {
		return Result{State: Current}
	} else if ok {
		return Result{State: InProgress, Reason: c.String()}
	}
	return inProgress("not ready: no Ready condition yet")
}

func phase(want string) func(map[string]any, map[string]condition) Result {
	return func(obj map[string]any, _ map[string]condition) Result {
		if p, _ := genrecord.Field(obj, "status", "phase").(string); p != want {
			return inProgress("phase %q, not yet %s", p, want)
		}
		return Result{State: Current}
	}
}

func crd(_ map[string]any, conds map[string]condition) Result {
	if c, ok := conds["Established"]; ok && c.status == "True" {
		return Result{State: Current}
	} else if ok {
		return Result{State: InProgress, Reason: c.String()}
	}
	return inProgress("not yet Established")
}

// service: a LoadBalancer is current once it has a cluster IP (kstatus' rule) and its load
// balancer an ingress point (status.loadBalancer.ingress, as Helm's --wait; spec.externalIPs
// stand for one); other types (ClusterIP, NodePort, ExternalName) are current at once.
func service(obj map[string]any, _ map[string]condition) Result {
	if t, _ := genrecord.Field(obj, "spec", "type").(string); t != "LoadBalancer" {
		return Result{State: Current}
	}
	if ip, _ := genrecord.Field(obj, "spec", "clusterIP").(string); ip == "" {
		return inProgress("LoadBalancer: spec.clusterIP not yet assigned")
	}
	if ips, _ := genrecord.Field(obj, "spec", "externalIPs").([]any); len(ips) > 0 {
		return Result{State: Current}
	}
	if ingress, _ := genrecord.Field(obj, "status", "loadBalancer", "ingress").([]any); len(ingress) == 0 {
		return inProgress("LoadBalancer: no status.loadBalancer.ingress yet")
	}
	return Result{State: Current}
}

// needObserved is in progress while the controller has not written status.observedGeneration
// of the live generation (the generic rule checks a reported one; a workload controller
// always reports it).
func needObserved(obj map[string]any) Result {
	if _, ok := genrecord.Integer(genrecord.Field(obj, "status", "observedGeneration")); !ok && genrecord.Generation(obj) > 0 {
		return inProgress("status.observedGeneration not yet written")
	}
	return Result{}
}

// replicas is spec.replicas, 1 when unset (the API server's default).
func replicas(obj map[string]any) int64 {
	if v := genrecord.Field(obj, "spec", "replicas"); v != nil {
		return num(obj, "spec", "replicas")
	}
	return 1
}

func num(obj map[string]any, path ...string) int64 {
	n, _ := genrecord.Integer(genrecord.Field(obj, path...))
	return n
}

func kindOf(obj map[string]any) (string, string) {
	k := genrecord.KeyOf(obj)
	return k.Group, k.Kind
}
