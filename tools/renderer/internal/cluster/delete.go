package cluster

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Delete deletes the objects (the others first, then Namespaces and CRDs, each group in reverse
// render order) and then the ApplySet's parent, if set, and its generation record. Objects already gone are reported as
// "not found". Every object is tried; the error lists each failure.
func (c *Client) Delete(ctx context.Context, objs []*Object, set *ApplySet, dryRun bool, report func(string)) error {
	if report == nil {
		report = func(string) {}
	}
	suffix := ""
	opts := metav1.DeleteOptions{PropagationPolicy: ptr(metav1.DeletePropagationBackground)}
	if dryRun {
		suffix = " (server dry run)"
		opts.DryRun = []string{metav1.DryRunAll}
	}
	first, rest := phases(objs)
	var order []*Object
	for i := len(rest) - 1; i >= 0; i-- {
		order = append(order, rest[i])
	}
	for i := len(first) - 1; i >= 0; i-- {
		order = append(order, first[i])
	}
	if set != nil {
		order = append(order, set.object())
	}
	var failed []error
	deleted := 0
	for _, o := range order {
		ri, err := c.resource(ctx, o)
		var nm *NoMappingError
		switch {
		case errors.As(err, &nm):
			report(o.String() + " not found (its kind is not served)")
			continue
		case err != nil:
			failed = append(failed, err)
			continue
		}
		err = ri.Delete(ctx, o.GetName(), opts)
		switch {
		case apierrors.IsNotFound(err):
			report(o.String() + " not found")
		case err != nil:
			failed = append(failed, c.apiError("delete", o, err))
		default:
			deleted++
			report(o.String() + " deleted" + suffix)
		}
	}
	if set != nil && len(failed) == 0 {
		// The generation record goes with its set; a set applied without one has none.
		rec := recordObject(*set)
		if ri, err := c.resource(ctx, rec); err != nil {
			failed = append(failed, err)
		} else if err := ri.Delete(ctx, rec.GetName(), opts); err == nil {
			report(rec.String() + " deleted" + suffix)
		} else if !apierrors.IsNotFound(err) {
			failed = append(failed, c.apiError("delete", rec, err))
		}
	}
	if len(failed) > 0 {
		return failures("deleted", failed, deleted, len(order), "")
	}
	return nil
}
