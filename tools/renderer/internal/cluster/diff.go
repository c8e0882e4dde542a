package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
)

// DiffOptions are the choices of a live diff.
type DiffOptions struct {
	// Force diffs as --force-conflicts applies; without it a conflict is an error.
	Force bool
	// ApplySet, if set, adds its members that the render no longer holds (what apply --prune
	// deletes) as removed objects.
	ApplySet *ApplySet
	// Name is the rendered side's name in the report (the manifests' path).
	Name string
}

// Diff compares the live objects with what applying objs would make of them, by a server-side
// dry-run apply of each. Both sides keep only the fields the apply owns (field manager krm,
// before or after): no managedFields, resourceVersion, generation, uid, creationTimestamp,
// status, defaults or fields of other managers. An object that does not exist yet is added as
// the dry run returns it (as rendered when the server cannot dry-run it: its namespace or
// CRD is in the render, not yet in the cluster).
func (c *Client) Diff(ctx context.Context, objs []*Object, o DiffOptions) (*rdiff.Report, error) {
	newKinds := map[string]bool{}
	newNamespaces := map[string]bool{}
	for _, obj := range objs {
		if isCRD(obj) {
			g, _, _ := unstructured.NestedString(obj.Object, "spec", "group")
			newKinds[g] = true
		}
		if isNamespace(obj) {
			newNamespaces[obj.GetName()] = true
		}
		if o.ApplySet != nil {
			labels := obj.GetLabels()
			if labels == nil {
				labels = map[string]string{}
			}
			labels[PartOfLabel] = o.ApplySet.ID()
			obj.SetLabels(labels)
		}
	}
	var live, planned bytes.Buffer
	for _, obj := range objs {
		ri, err := c.resource(ctx, obj)
		var nm *NoMappingError
		if errors.As(err, &nm) && newKinds[nm.GVK.Group] {
			writeDoc(&planned, view(obj.Unstructured, nil))
			continue
		}
		if err != nil {
			return nil, err
		}
		cur, err := ri.Get(ctx, obj.GetName(), metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			cur = nil
		case err != nil:
			return nil, c.apiError("get", obj, err)
		}
		dry, err := ri.Apply(ctx, obj.GetName(), obj.Unstructured, metav1.ApplyOptions{
			FieldManager: FieldManager, Force: o.Force, DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			if cur == nil && apierrors.IsNotFound(err) && newNamespaces[obj.GetNamespace()] {
				writeDoc(&planned, view(obj.Unstructured, nil))
				continue
			}
			verb := "patch"
			if cur == nil {
				verb = "create"
			}
			return nil, c.apiError(verb+" (server dry run)", obj, err)
		}
		owned := ownedFields(dry)
		if cur != nil {
			mergeFields(owned, ownedFields(cur))
			writeDoc(&live, view(cur, owned))
		}
		writeDoc(&planned, view(dry, owned))
	}
	if o.ApplySet != nil {
		p, err := c.readParent(ctx, *o.ApplySet)
		if err != nil {
			return nil, err
		}
		stale, err := c.staleMembers(ctx, p, objs)
		if err != nil {
			return nil, err
		}
		for _, s := range stale {
			writeDoc(&live, view(s.Unstructured, ownedFields(s.Unstructured)))
		}
	}
	return rdiff.Streams(fmt.Sprintf("live (context %s)", c.Context), o.Name, live.Bytes(), planned.Bytes())
}

func writeDoc(b *bytes.Buffer, obj map[string]any) {
	data, err := json.Marshal(obj)
	if err != nil { // values came from JSON: cannot happen
		panic(err)
	}
	b.WriteString("---\n")
	b.Write(data)
	b.WriteByte('\n')
}

// ownedFields is the union of the field sets (managedFields, FieldsV1) the apply of krm owns.
func ownedFields(obj *unstructured.Unstructured) map[string]any {
	owned := map[string]any{}
	for _, mf := range obj.GetManagedFields() {
		if mf.Manager != FieldManager || mf.Operation != metav1.ManagedFieldsOperationApply || mf.FieldsV1 == nil {
			continue
		}
		var set map[string]any
		if json.Unmarshal(mf.FieldsV1.Raw, &set) == nil {
			mergeFields(owned, set)
		}
	}
	return owned
}

func mergeFields(into, from map[string]any) {
	for k, v := range from {
		sub, _ := v.(map[string]any)
		have, ok := into[k].(map[string]any)
		if !ok {
			have = map[string]any{}
			into[k] = have
		}
		mergeFields(have, sub)
	}
}

// view is the object as a diff compares it: its identity, and of the rest only the fields in
// owned (all when owned is nil), without what the server keeps about the object.
func view(obj *unstructured.Unstructured, owned map[string]any) map[string]any {
	var out map[string]any
	if owned == nil {
		out = obj.DeepCopy().Object
	} else {
		out, _ = pick(obj.Object, owned).(map[string]any)
		if out == nil {
			out = map[string]any{}
		}
	}
	out["apiVersion"] = obj.GetAPIVersion()
	out["kind"] = obj.GetKind()
	meta, _ := out["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		out["metadata"] = meta
	}
	meta["name"] = obj.GetName()
	if ns := obj.GetNamespace(); ns != "" {
		meta["namespace"] = ns
	}
	for _, f := range []string{"managedFields", "resourceVersion", "generation", "uid", "creationTimestamp", "selfLink"} {
		delete(meta, f)
	}
	delete(out, "status")
	return out
}

// pick keeps the parts of v that the field set tree names: "f:NAME" a map's field, "k:{...}"
// the list item with those keys, "v:VALUE" the set item, "i:N" the Nth item; an empty tree (a
// leaf) keeps the whole value.
func pick(v any, tree map[string]any) any {
	if len(tree) == 0 {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, sub := range tree {
			name, ok := strings.CutPrefix(k, "f:")
			if !ok {
				continue
			}
			if val, ok := x[name]; ok {
				st, _ := sub.(map[string]any)
				out[name] = pick(val, st)
			}
		}
		return out
	case []any:
		out := []any{}
		for i, item := range x {
			for k, sub := range tree {
				if itemMatches(k, i, item) {
					st, _ := sub.(map[string]any)
					out = append(out, pick(item, st))
					break
				}
			}
		}
		return out
	}
	return v
}

func itemMatches(key string, i int, item any) bool {
	switch {
	case strings.HasPrefix(key, "i:"):
		n, err := strconv.Atoi(key[2:])
		return err == nil && n == i
	case strings.HasPrefix(key, "v:"):
		var want any
		return json.Unmarshal([]byte(key[2:]), &want) == nil && sameJSON(want, item)
	case strings.HasPrefix(key, "k:"):
		var keys map[string]any
		m, ok := item.(map[string]any)
		if !ok || json.Unmarshal([]byte(key[2:]), &keys) != nil {
			return false
		}
		for k, want := range keys {
			if !sameJSON(want, m[k]) {
				return false
			}
		}
		return true
	}
	return false
}

func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
