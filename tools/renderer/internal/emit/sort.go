package emit

import (
	"fmt"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// Kinds that legacy order puts first and last; every other kind sorts between
// them by group, version and kind.
var (
	legacyFirst = []string{
		"Namespace", "ResourceQuota", "StorageClass", "CustomResourceDefinition",
		"ServiceAccount", "PodSecurityPolicy", "Role", "ClusterRole", "RoleBinding",
		"ClusterRoleBinding", "ConfigMap", "Secret", "Endpoints", "Service",
		"LimitRange", "PriorityClass", "PersistentVolume", "PersistentVolumeClaim",
		"Deployment", "StatefulSet", "CronJob", "PodDisruptionBudget",
	}
	legacyLast = []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}
)

// Sort orders m as sortOptions asks: legacy (the default) or fifo (input order).
func Sort(m resmap.ResMap, o *types.SortOptions) error {
	if o == nil {
		o = &types.SortOptions{Order: types.LegacySortOrder}
	}
	switch o.Order {
	case types.FIFOSortOrder:
		if o.LegacySortOptions != nil {
			return fmt.Errorf("the field 'sortOptions.legacySortOptions' is set but the selected sort order is '%v', not 'legacy'", o.Order)
		}
		return nil
	case types.LegacySortOrder:
	default:
		return fmt.Errorf("the field 'sortOptions.order' must be one of [%s, %s]", types.FIFOSortOrder, types.LegacySortOrder)
	}
	first, last := legacyFirst, legacyLast
	if o.LegacySortOptions != nil {
		first, last = o.LegacySortOptions.OrderFirst, o.LegacySortOptions.OrderLast
	}
	rank := map[string]int{}
	for i, k := range first {
		rank[k] = -len(first) + i
	}
	for i, k := range last {
		rank[k] = 1 + i
	}
	res := m.Resources()
	keys := make([]legacyKey, len(res))
	for i, r := range res {
		id := resourcemap.CurID(r)
		keys[i] = legacyKey{rank: rank[id.Kind], gvk: legacyGvkString(id.Gvk), id: legacyIDString(id), nsKind: id.Kind == "Namespace", noGroup: id.Group == ""}
	}
	sort.Sort(&legacySorter{keys: keys, res: res})
	sorted, err := resourcemap.FromResources(res)
	if err != nil {
		return fmt.Errorf("SortOrderTransformer: Failed to append to resources: %w", err)
	}
	m.Clear()
	return m.AppendAll(sorted)
}

type legacyKey struct {
	rank    int
	gvk, id string
	nsKind  bool
	noGroup bool
}

type legacySorter struct {
	keys []legacyKey
	res  []*resource.Resource
}

func (s *legacySorter) Len() int { return len(s.keys) }
func (s *legacySorter) Swap(i, j int) {
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
	s.res[i], s.res[j] = s.res[j], s.res[i]
}
func (s *legacySorter) Less(i, j int) bool {
	a, b := &s.keys[i], &s.keys[j]
	if a.gvk != b.gvk {
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		// Core Namespaces sort before group-qualified ones.
		if a.nsKind && b.nsKind && (a.noGroup || b.noGroup) {
			return a.gvk > b.gvk
		}
		return a.gvk < b.gvk
	}
	return a.id < b.id
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func legacyGvkString(g resid.Gvk) string {
	return strings.Join([]string{orDefault(g.Group, "~G"), orDefault(g.Version, "~V"), orDefault(g.Kind, "~K")}, "_")
}

func legacyIDString(id resid.ResId) string {
	return strings.Join([]string{id.Gvk.String(), orDefault(id.Namespace, "~X"), orDefault(id.Name, "~N")}, "|")
}
