package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
)

// The labels and annotations of the ApplySet specification (KEP 3659).
const (
	IDLabel                = "applyset.kubernetes.io/id"
	PartOfLabel            = "applyset.kubernetes.io/part-of"
	ToolingAnnotation      = "applyset.kubernetes.io/tooling"
	GroupKindsAnnotation   = "applyset.kubernetes.io/contains-group-kinds"
	NamespacesAnnotation   = "applyset.kubernetes.io/additional-namespaces"
	Tooling                = "krm/v1"
	toolingName            = "krm/"
	defaultParentKind      = "Secret"
	parentKindsDescription = "secrets/NAME (the default for a plain NAME) or configmaps/NAME"
)

// ApplySet names an ApplySet's parent object: a Secret or ConfigMap.
type ApplySet struct {
	Kind, Name, Namespace string
}

// ParseApplySet reads --applyset: NAME, secrets/NAME or configmaps/NAME, in namespace.
func ParseApplySet(spec, namespace string) (*ApplySet, error) {
	kind, name := defaultParentKind, spec
	if r, n, ok := strings.Cut(spec, "/"); ok {
		switch r {
		case "secrets", "secret":
			kind = "Secret"
		case "configmaps", "configmap":
			kind = "ConfigMap"
		default:
			return nil, fmt.Errorf("--applyset %q: the parent is %s", spec, parentKindsDescription)
		}
		name = n
	}
	if name == "" || strings.Contains(name, "/") {
		return nil, fmt.Errorf("--applyset %q: the parent is %s", spec, parentKindsDescription)
	}
	return &ApplySet{Kind: kind, Name: name, Namespace: namespace}, nil
}

// ID is the ApplySet's id: applyset-<base64url(sha256(NAME.NAMESPACE.KIND.GROUP))>-v1, the
// value of the parent's IDLabel and of each member's PartOfLabel.
func (a ApplySet) ID() string { return applySetID(a.Name, a.Namespace, a.Kind, "") }

func applySetID(name, namespace, kind, group string) string {
	sum := sha256.Sum256([]byte(name + "." + namespace + "." + kind + "." + group))
	return "applyset-" + base64.RawURLEncoding.EncodeToString(sum[:]) + "-v1"
}

func (a ApplySet) String() string { return a.Kind + " " + a.Namespace + "/" + a.Name }

func (a ApplySet) object() *Object {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetAPIVersion("v1")
	u.SetKind(a.Kind)
	u.SetName(a.Name)
	u.SetNamespace(a.Namespace)
	return &Object{Unstructured: u}
}

// parentState is what the parent recorded before this apply.
type parentState struct {
	set        ApplySet
	groupKinds map[string]bool // "Kind.group", "Kind" for the core group
	namespaces map[string]bool // the parent's namespace and its additional namespaces
}

// readParent reads the parent, if it exists, and checks that it is this ApplySet's and krm's.
func (c *Client) readParent(ctx context.Context, set ApplySet) (*parentState, error) {
	p := &parentState{set: set, groupKinds: map[string]bool{}, namespaces: map[string]bool{set.Namespace: true}}
	obj := set.object()
	ri, err := c.resource(ctx, obj)
	if err != nil {
		return nil, err
	}
	live, err := ri.Get(ctx, set.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return p, nil
	}
	if err != nil {
		return nil, c.apiError("get", obj, err)
	}
	if id := live.GetLabels()[IDLabel]; id != set.ID() {
		return nil, fmt.Errorf("%s is not the parent of ApplySet %s (its label %s is %q): name another --applyset", set, set.ID(), IDLabel, id)
	}
	if t := live.GetAnnotations()[ToolingAnnotation]; t != "" && !strings.HasPrefix(t, toolingName) {
		return nil, fmt.Errorf("ApplySet %s is managed by %q (annotation %s), not krm: krm leaves it alone", set, t, ToolingAnnotation)
	}
	for _, gk := range splitList(live.GetAnnotations()[GroupKindsAnnotation]) {
		p.groupKinds[gk] = true
	}
	for _, ns := range splitList(live.GetAnnotations()[NamespacesAnnotation]) {
		p.namespaces[ns] = true
	}
	return p, nil
}

func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func groupKind(gk schema.GroupKind) string {
	if gk.Group == "" {
		return gk.Kind
	}
	return gk.Kind + "." + gk.Group
}

func parseGroupKind(s string) schema.GroupKind {
	kind, group, _ := strings.Cut(s, ".")
	return schema.GroupKind{Group: group, Kind: kind}
}

// writeParent applies the parent listing the kinds and namespaces of objs; with superset also
// those it listed before (before members are applied, so that a failure never leaves members
// the parent does not list).
func (c *Client) writeParent(ctx context.Context, p *parentState, objs []*Object, superset bool) error {
	gks, nss := map[string]bool{}, map[string]bool{}
	if superset {
		for gk := range p.groupKinds {
			gks[gk] = true
		}
		for ns := range p.namespaces {
			nss[ns] = true
		}
	}
	for _, o := range objs {
		gks[groupKind(o.GroupVersionKind().GroupKind())] = true
		if ns := o.GetNamespace(); ns != "" {
			nss[ns] = true
		}
	}
	delete(nss, p.set.Namespace)
	obj := p.set.object()
	obj.SetLabels(map[string]string{IDLabel: p.set.ID()})
	ann := map[string]string{ToolingAnnotation: Tooling, GroupKindsAnnotation: strings.Join(sortedKeys(gks), ",")}
	if len(nss) > 0 {
		ann[NamespacesAnnotation] = strings.Join(sortedKeys(nss), ",")
	}
	obj.SetAnnotations(ann)
	ri, err := c.resource(ctx, obj)
	if err != nil {
		return err
	}
	if _, err := ri.Apply(ctx, obj.GetName(), obj.Unstructured, metav1.ApplyOptions{FieldManager: FieldManager, Force: true}); err != nil {
		return fmt.Errorf("ApplySet parent: %w", c.apiError("patch", obj, err))
	}
	if superset {
		p.groupKinds, p.namespaces = gks, nss
		p.namespaces[p.set.Namespace] = true
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// members lists the live members of the ApplySet the parent records (by its kinds and
// namespaces, and the label naming the set: never by other labels) that are not among objs.
func (c *Client) staleMembers(ctx context.Context, p *parentState, objs []*Object) ([]*Object, error) {
	keep := map[rdiff.ID]bool{}
	gks, nss := map[string]bool{}, map[string]bool{}
	for gk := range p.groupKinds {
		gks[gk] = true
	}
	for ns := range p.namespaces {
		nss[ns] = true
	}
	for _, o := range objs {
		keep[o.ID()] = true
		gks[groupKind(o.GroupVersionKind().GroupKind())] = true
		if ns := o.GetNamespace(); ns != "" {
			nss[ns] = true
		}
	}
	selector := metav1.ListOptions{LabelSelector: PartOfLabel + "=" + p.set.ID(), Limit: 500}
	var stale []*Object
	for _, gkName := range sortedKeys(gks) {
		gk := parseGroupKind(gkName)
		m, ok, err := c.mapper.preferred(ctx, gk)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // no longer served: nothing of it can be left
		}
		namespaces := []string{""}
		if m.Namespaced {
			namespaces = sortedKeys(nss)
		}
		for _, ns := range namespaces {
			opts := selector
			listed := 0
			for {
				list, err := c.client(m, ns).List(ctx, opts)
				if err != nil {
					probe := &Object{Unstructured: &unstructured.Unstructured{Object: map[string]any{}}, mapping: m, mapped: true}
					probe.SetKind(gk.Kind)
					probe.SetAPIVersion(m.Resource.GroupVersion().String())
					probe.SetNamespace(ns)
					probe.SetName("(all members)")
					return nil, c.apiError("list", probe, err)
				}
				// A continue that never ends would grow stale without bound until the deadline.
				if listed += len(list.Items); listed > MaxListItems {
					return nil, fmt.Errorf("the API server %s (context %q) listed more than %d %s in namespace %q as members of ApplySet %s: refused (a list whose continue never ends?)", c.Server, c.Context, MaxListItems, m.Resource.Resource, ns, p.set)
				}
				for i := range list.Items {
					item := &Object{Unstructured: &list.Items[i], mapping: m, mapped: true}
					item.SetAPIVersion(m.Resource.GroupVersion().String())
					item.SetKind(gk.Kind)
					if !keep[item.ID()] {
						stale = append(stale, item)
					}
				}
				if opts.Continue = list.GetContinue(); opts.Continue == "" {
					break
				}
			}
		}
	}
	return stale, nil
}

// prune deletes the members of the ApplySet that objs no longer hold, each only if it is still
// the object that was listed (its uid).
func (c *Client) prune(ctx context.Context, p *parentState, objs []*Object, dryRun bool, report func(string)) error {
	stale, err := c.staleMembers(ctx, p, objs)
	if err != nil {
		return fmt.Errorf("prune: %w", err)
	}
	for _, o := range stale {
		uid := o.GetUID()
		opts := metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}, PropagationPolicy: ptr(metav1.DeletePropagationBackground)}
		if dryRun {
			opts.DryRun = []string{metav1.DryRunAll}
		}
		if err := c.client(o.mapping, o.GetNamespace()).Delete(ctx, o.GetName(), opts); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("prune: %w", c.apiError("delete", o, err))
		}
		report(o.String())
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
