package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/scrub"
)

// ApplyOptions are the choices of one apply.
type ApplyOptions struct {
	// Force takes fields another field manager owns (--force-conflicts).
	Force bool
	// DryRun sends every write as a server-side dry run: nothing changes.
	DryRun bool
	// ApplySet, if set, tracks the objects: they are labelled part of it and its parent
	// lists their kinds and namespaces. Prune (which needs it) then deletes its members that
	// the render no longer holds.
	ApplySet *ApplySet
	Prune    bool
	// Timeout bounds the wait for CRDs to be established and Namespaces to be active.
	Timeout time.Duration
	// Report receives one line per object as it is done ("Deployment.apps ns/web created").
	Report func(line string)
	// Record, if set, records the generation of each object applied (record.go); it needs
	// the ApplySet, beside whose parent the record is kept.
	Record *RecordOptions
	// Wait, if set, waits after the apply until every object applied is current (wait.go).
	Wait *WaitOptions

	// applied sees each object the server applied: what it replaced (nil: created) and
	// what the server returned.
	applied func(obj *Object, before, after *unstructured.Unstructured)
}

// Apply applies objects (applyObjects); with o.Record it reads the generation record first
// (a user who may not write it is told before anything is applied) and writes it once after,
// with what was applied even when some objects failed; with o.Wait it then waits until every
// object applied is current.
func (c *Client) Apply(ctx context.Context, objs []*Object, o ApplyOptions) error {
	var rec *recorder
	if o.Record != nil && !o.DryRun {
		if o.ApplySet == nil {
			return errors.New("recording generations needs an ApplySet, beside whose parent the record is kept: add --applyset NAME, or --no-record")
		}
		var err error
		if rec, err = c.openRecord(ctx, *o.ApplySet, *o.Record); err != nil {
			return err
		}
	}
	var applied []*Object
	o.applied = func(obj *Object, before, after *unstructured.Unstructured) {
		applied = append(applied, obj)
		rec.applied(obj, before, after)
	}
	err := c.applyObjects(ctx, objs, o)
	if werr := rec.write(ctx); werr != nil {
		err = errors.Join(err, werr)
	}
	if err != nil || o.Wait == nil || o.DryRun {
		return err
	}
	return c.wait(ctx, applied, *o.Wait)
}

// applyObjects applies objects server-side: CRDs and Namespaces first, waited for, then the rest in
// render order. A failed object does not stop the others of its phase, but the next phase and
// pruning only run when everything before succeeded; the error lists every failure, and Report
// has had a line for every object that was applied.
func (c *Client) applyObjects(ctx context.Context, objs []*Object, o ApplyOptions) error {
	if o.Prune && o.ApplySet == nil {
		return errors.New("pruning needs an ApplySet: add --applyset NAME")
	}
	report := o.Report
	if report == nil {
		report = func(string) {}
	}
	suffix := ""
	if o.DryRun {
		suffix = " (server dry run)"
	}
	var parent *parentState
	if o.ApplySet != nil {
		var err error
		if parent, err = c.readParent(ctx, *o.ApplySet); err != nil {
			return err
		}
		for _, obj := range objs {
			labels := obj.GetLabels()
			if labels == nil {
				labels = map[string]string{}
			}
			labels[PartOfLabel] = o.ApplySet.ID()
			obj.SetLabels(labels)
		}
	}
	newNamespaces := map[string]bool{}
	newKinds := map[string]bool{}
	for _, obj := range objs {
		if isNamespace(obj) {
			newNamespaces[obj.GetName()] = true
		}
		if isCRD(obj) {
			if g, _, err := unstructured.NestedString(obj.Object, "spec", "group"); err == nil {
				newKinds[g] = true
			}
		}
	}
	first, rest := phases(objs)
	var failed []error
	applied := 0
	for _, obj := range first {
		action, err := c.applyOne(ctx, obj, o)
		if err != nil {
			failed = append(failed, err)
			continue
		}
		applied++
		report(obj.String() + " " + action + suffix)
	}
	if len(failed) == 0 && !o.DryRun {
		for _, obj := range first {
			if err := c.waitReady(ctx, obj, o.Timeout); err != nil {
				failed = append(failed, err)
			}
			if isCRD(obj) {
				g, _, _ := unstructured.NestedString(obj.Object, "spec", "group")
				c.mapper.forget(g)
			}
		}
	}
	if len(failed) > 0 {
		return failures("applied", failed, applied, len(objs), "the other objects were not applied")
	}
	// Map the rest first: the parent must list every kind and namespace before members exist.
	var mapped []*Object
	for _, obj := range rest {
		if _, err := c.resource(ctx, obj); err != nil {
			var nm *NoMappingError
			if o.DryRun && errors.As(err, &nm) && newKinds[nm.GVK.Group] {
				report(obj.String() + " not checked: its CustomResourceDefinition is new (a dry run does not install it)")
				continue
			}
			failed = append(failed, err)
			continue
		}
		mapped = append(mapped, obj)
	}
	if parent != nil && !o.DryRun {
		if err := c.writeParent(ctx, parent, objs, true); err != nil {
			return failures("applied", append(failed, err), applied, len(objs), "the other objects were not applied")
		}
	}
	for _, obj := range mapped {
		action, err := c.applyOne(ctx, obj, o)
		if err != nil {
			if o.DryRun && apierrors.IsNotFound(err) && newNamespaces[obj.GetNamespace()] {
				report(obj.String() + " not checked: its namespace is new (a dry run does not create it)")
				continue
			}
			failed = append(failed, err)
			continue
		}
		applied++
		report(obj.String() + " " + action + suffix)
	}
	if len(failed) > 0 {
		msg := ""
		if o.Prune {
			msg = "nothing was pruned"
		}
		return failures("applied", failed, applied, len(objs), msg)
	}
	if o.Prune {
		if err := c.prune(ctx, parent, objs, o.DryRun, func(id string) { report(id + " pruned" + suffix) }); err != nil {
			return err
		}
	}
	if parent != nil && !o.DryRun {
		return c.writeParent(ctx, parent, objs, false)
	}
	return nil
}

// failures is one error listing failed requests: "N of M objects DONE, K failed; THEN:".
func failures(done string, failed []error, n, total int, then string) error {
	lines := make([]string, len(failed))
	for i, err := range failed {
		lines[i] = "  " + err.Error()
	}
	msg := fmt.Sprintf("%d of %d objects %s, %d failed", n, total, done, len(failed))
	if then != "" {
		msg += "; " + then
	}
	return &multiError{msg: msg + ":\n" + strings.Join(lines, "\n"), errs: failed}
}

// multiError is several failures; errors.Is and As see each.
type multiError struct {
	msg  string
	errs []error
}

func (m *multiError) Error() string   { return m.msg }
func (m *multiError) Unwrap() []error { return m.errs }

// applyOne applies one object and says what happened to it: created, configured or unchanged.
func (c *Client) applyOne(ctx context.Context, obj *Object, o ApplyOptions) (string, error) {
	ri, err := c.resource(ctx, obj)
	if err != nil {
		return "", err
	}
	live, err := ri.Get(ctx, obj.GetName(), metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		live = nil
	case err != nil:
		return "", c.apiError("get", obj, err)
	}
	opts := metav1.ApplyOptions{FieldManager: FieldManager, Force: o.Force}
	if o.DryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	out, err := ri.Apply(ctx, obj.GetName(), obj.Unstructured, opts)
	if err != nil {
		verb := "patch"
		if live == nil {
			verb = "create"
		}
		if apierrors.IsNotFound(err) {
			return "", serverMessage(err) // a dry run into a namespace that does not exist yet: the caller decides
		}
		return "", c.apiError(verb, obj, err)
	}
	if o.applied != nil && !o.DryRun {
		o.applied(obj, live, out)
	}
	switch {
	case live == nil:
		return "created", nil
	case live.GetResourceVersion() == out.GetResourceVersion():
		return "unchanged", nil
	}
	return "configured", nil
}

// waitReady waits until a CRD is established or a Namespace active; other objects are ready.
func (c *Client) waitReady(ctx context.Context, obj *Object, timeout time.Duration) error {
	if !isCRD(obj) && !isNamespace(obj) {
		return nil
	}
	if timeout <= 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ri, err := c.resource(ctx, obj)
	if err != nil {
		return err
	}
	state := "not read"
	for {
		live, err := ri.Get(ctx, obj.GetName(), metav1.GetOptions{})
		if err == nil {
			var ready bool
			ready, state = readiness(live)
			if ready && isCRD(obj) {
				// Established is not yet served: discovery lists the kind a moment later.
				ready, state = c.served(ctx, obj)
			}
			if ready {
				return nil
			}
		} else if !apierrors.IsNotFound(err) && ctx.Err() == nil {
			return c.apiError("get", obj, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s is not ready after %s (%s): the objects that need it were not applied", obj, timeout, scrub.Message(state))
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// served tells whether discovery lists the kind of an established CRD in each version it
// serves (the objects of that kind are mapped right after), and if not, the state.
func (c *Client) served(ctx context.Context, crd *Object) (bool, string) {
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	kind, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "kind")
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	c.mapper.forget(group)
	for _, v := range versions {
		m, _ := v.(map[string]any)
		name, _ := m["name"].(string)
		if served, _ := m["served"].(bool); !served || name == "" {
			continue
		}
		if _, err := c.mapper.mapping(ctx, schema.GroupVersionKind{Group: group, Version: name, Kind: kind}); err != nil {
			return false, "established, not yet in discovery: " + err.Error()
		}
	}
	return true, ""
}

// readiness tells whether a CRD is established (a Namespace active), and its state.
func readiness(live *unstructured.Unstructured) (bool, string) {
	if live.GetKind() == "Namespace" {
		phase, _, _ := unstructured.NestedString(live.Object, "status", "phase")
		return phase == "Active", "phase " + phase
	}
	conds, _, _ := unstructured.NestedSlice(live.Object, "status", "conditions")
	var states []string
	for _, c := range conds {
		m, _ := c.(map[string]any)
		t, _ := m["type"].(string)
		s, _ := m["status"].(string)
		if t == "Established" && s == "True" {
			return true, ""
		}
		msg, _ := m["message"].(string)
		states = append(states, fmt.Sprintf("%s=%s %s", t, s, msg))
	}
	if len(states) == 0 {
		return false, "no conditions yet"
	}
	return false, strings.Join(states, "; ")
}
