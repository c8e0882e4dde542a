package resourcemap

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"

	"sigs.k8s.io/kustomize/api/filters/annotations"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yaml11"
)

// Map is an ordered list of resources. The zero value is empty and usable.
type Map struct {
	list []*resource.Resource
}

var _ resmap.ResMap = (*Map)(nil)

// New returns an empty map.
func New() *Map { return &Map{} }

// FromResources returns a map of list, failing on a duplicate current ID.
func FromResources(list []*resource.Resource) (*Map, error) {
	m := &Map{}
	if err := m.appendAll(list); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Map) Size() int { return len(m.list) }

func (m *Map) Resources() []*resource.Resource {
	out := make([]*resource.Resource, len(m.list))
	copy(out, m.list)
	return out
}

// View is Resources without the copy: the map's own list, which the caller
// reads only, and not after the map changes.
func (m *Map) View() []*resource.Resource { return m.list }

func (m *Map) Clear() { m.list = nil }

func (m *Map) DropEmpties() {
	i := 0
	for i < len(m.list) && !m.list[i].IsNilOrEmpty() {
		i++
	}
	if i == len(m.list) {
		return // nothing to drop, as after nearly every step
	}
	out := make([]*resource.Resource, i, len(m.list)-1)
	copy(out, m.list)
	for _, r := range m.list[i+1:] {
		if !r.IsNilOrEmpty() {
			out = append(out, r)
		}
	}
	m.list = out
}

func (m *Map) Append(r *resource.Resource) error {
	id := CurID(r)
	for _, o := range m.list {
		if CurID(o).Equals(id) {
			return fmt.Errorf("may not add resource with an already registered id: %s", id)
		}
	}
	m.list = append(m.list, r)
	return nil
}

// IDKey is an ID normalized so that map equality means ResId.Equals.
type IDKey struct{ group, version, kind, name, namespace string }

type idKey = IDKey

// KeyOf returns the map key of id.
func KeyOf(id resid.ResId) IDKey {
	return IDKey{id.Group, id.Version, id.Kind, id.Name, id.EffectiveNamespace()}
}

func key(id resid.ResId) idKey { return KeyOf(id) }

// DuplicateError is the error of adding a resource whose current ID the
// map already holds.
type DuplicateError struct{ ID resid.ResId }

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("may not add resource with an already registered id: %s", e.ID)
}

// appendAll appends list, failing on the first ID collision, in O(n+m).
// A kustomization merges its bases one by one into what it holds, so of
// the resources held it reads only names, and IDs where a name is new too.
func (m *Map) appendAll(list []*resource.Resource) error {
	ids := make([]resid.ResId, len(list))
	names := make(map[string]bool, len(list))
	for i, r := range list {
		ids[i] = CurID(r)
		names[ids[i].Name] = true
	}
	taken := make(map[idKey]bool, len(list))
	for _, r := range m.list {
		if names[nameOf(r)] {
			taken[key(CurID(r))] = true
		}
	}
	for i, r := range list {
		k := key(ids[i])
		if taken[k] {
			return &DuplicateError{ID: ids[i]}
		}
		taken[k] = true
		m.list = append(m.list, r)
	}
	return nil
}

// Refill makes m hold list, failing on a repeated ID: in linear time when
// m is a Map, one Append at a time for another ResMap (kustomize's maps can
// only append their own kind).
func Refill(m resmap.ResMap, list []*resource.Resource) error {
	if rm, ok := m.(*Map); ok {
		rm.Clear()
		return rm.appendAll(list)
	}
	m.Clear()
	for _, r := range list {
		if err := m.Append(r); err != nil {
			return err
		}
	}
	return nil
}

func (m *Map) AppendAll(other resmap.ResMap) error {
	if other == nil {
		return nil
	}
	return m.appendAll(other.Resources())
}

// AbsorbAll adds generated resources: new IDs are appended, and a resource
// whose ID exists replaces or merges into it as its behavior says.
func (m *Map) AbsorbAll(other resmap.ResMap) error {
	if other == nil {
		return nil
	}
	return m.Absorber()(other)
}

// Absorber returns what absorbs generated resources into m as AbsorbAll
// does, call after call, indexing m once: m must change only through it
// while it is in use (a kustomization's generators run one after another).
func (m *Map) Absorber() func(resmap.ResMap) error {
	a := &absorber{m: m, anyIdx: make(map[idKey][]int, len(m.list)), curIdx: make(map[idKey][]int, len(m.list))}
	for i, r := range m.list {
		if r.RNode.IsNilOrEmpty() {
			// Not a match for absorbing, but a holder of its current ID.
			k := key(CurID(r))
			a.curIdx[k] = insertSorted(a.curIdx[k], i)
			continue
		}
		a.add(i)
	}
	return a.absorb
}

// absorber keeps the indexes of one Absorber, from IDs to ascending
// positions in m: anyIdx holds every ID (current and previous) of the
// resources absorbing can match, curIdx the current ID of every resource.
type absorber struct {
	m              *Map
	anyIdx, curIdx map[idKey][]int
}

func (a *absorber) add(i int) {
	x := idsOf(a.m.list[i])
	var few [4]idKey // an object has few IDs: no map to tell them apart
	seen := few[:0]
	for _, id := range append(x.prev, x.cur) {
		k := key(id)
		if !slices.Contains(seen, k) {
			seen = append(seen, k)
			a.anyIdx[k] = insertSorted(a.anyIdx[k], i)
		}
	}
	k := key(x.cur)
	a.curIdx[k] = insertSorted(a.curIdx[k], i)
}

func (a *absorber) remove(i int) {
	x := idsOf(a.m.list[i])
	for _, id := range append(x.prev, x.cur) {
		a.anyIdx[key(id)] = without(a.anyIdx[key(id)], i)
	}
	a.curIdx[key(x.cur)] = without(a.curIdx[key(x.cur)], i)
}

// without is l less its first i.
func without(l []int, i int) []int {
	for j, v := range l {
		if v == i {
			return append(l[:j:j], l[j+1:]...)
		}
	}
	return l
}

func (a *absorber) absorb(other resmap.ResMap) error {
	if other == nil {
		return nil
	}
	m := a.m
	for _, res := range other.Resources() {
		id := CurID(res)
		matches := a.anyIdx[key(id)]
		switch len(matches) {
		case 0:
			switch res.Behavior() {
			case types.BehaviorMerge, types.BehaviorReplace:
				return fmt.Errorf("id %#v does not exist; cannot merge or replace", id)
			}
			m.list = append(m.list, res)
			a.add(len(m.list) - 1)
		case 1:
			i := matches[0]
			old := m.list[i]
			switch res.Behavior() {
			case types.BehaviorReplace:
				res.CopyMergeMetaDataFieldsFrom(old)
			case types.BehaviorMerge:
				if err := mergeGenerated(res, old, id); err != nil {
					return err
				}
			default:
				return fmt.Errorf("id %#v exists; can not use behavior: '%s', behavior must be merge or replace", id, res.Behavior())
			}
			// kustomize replaces the resource holding the new current ID.
			holders := a.curIdx[key(CurID(res))]
			if len(holders) > 1 {
				return fmt.Errorf("in Replace: id matched %d resources", 2)
			}
			if len(holders) == 0 {
				return fmt.Errorf("cannot find resource with id %s to replace", CurID(res))
			}
			if holders[0] != i {
				return fmt.Errorf("unexpected target index in replacement")
			}
			a.remove(i)
			m.list[i] = res
			a.add(i)
		default:
			var found []*resource.Resource
			for _, i := range matches {
				found = append(found, m.list[i])
			}
			return fmt.Errorf("found multiple objects %v that could accept merge of %v", found, id)
		}
	}
	return nil
}

func (m *Map) AddOriginAnnotation(origin *resource.Origin) error {
	if origin == nil {
		return nil
	}
	for _, r := range m.list {
		o, err := r.GetOrigin()
		if o != nil || err != nil {
			continue
		}
		if err := r.SetOrigin(origin); err != nil {
			return err
		}
	}
	return nil
}

func (m *Map) RemoveOriginAnnotations() error {
	for _, r := range m.list {
		if removeAnnotationsInPlace(r, isOriginAnnotation, false) {
			continue
		}
		if err := r.SetOrigin(nil); err != nil {
			return err
		}
	}
	return nil
}

func (m *Map) AddTransformerAnnotation(origin *resource.Origin) error {
	for _, r := range m.list {
		o, err := r.GetOrigin()
		if err != nil {
			return err
		}
		if o == nil {
			err = r.SetOrigin(origin)
		} else {
			err = r.AddTransformation(origin)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (m *Map) RemoveTransformerAnnotations() error {
	for _, r := range m.list {
		if removeAnnotationsInPlace(r, isTransformerAnnotation, false) {
			continue
		}
		if err := r.ClearTransformations(); err != nil {
			return err
		}
	}
	return nil
}

func (m *Map) AnnotateAll(k, v string) error {
	return m.ApplyFilter(annotations.Filter{
		Annotations: map[string]string{k: v},
		FsSlice:     []types.FieldSpec{{Path: "metadata/annotations", CreateIfNotPresent: true}},
	})
}

// AsYaml prints the resources as a `---`-separated stream (the build's
// output goes through emit, which prints the same bytes faster).
func (m *Map) AsYaml() ([]byte, error) {
	var b bytes.Buffer
	for i, r := range m.list {
		y, err := r.AsYAML()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", CurID(r), err)
		}
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(y)
	}
	return b.Bytes(), nil
}

func (m *Map) GetByIndex(i int) *resource.Resource {
	if i < 0 || i >= len(m.list) {
		return nil
	}
	return m.list[i]
}

func (m *Map) GetIndexOfCurrentId(id resid.ResId) (int, error) {
	count, at := 0, -1
	for i, r := range m.list {
		if id.Equals(CurID(r)) {
			count++
			at = i
		}
	}
	if count > 1 {
		return -1, fmt.Errorf("id matched %d resources", count)
	}
	return at, nil
}

func (m *Map) GetMatchingResourcesByCurrentId(matches resmap.IdMatcher) []*resource.Resource {
	var out []*resource.Resource
	for _, r := range m.list {
		if matches(CurID(r)) {
			out = append(out, r)
		}
	}
	return out
}

func (m *Map) GetMatchingResourcesByAnyId(matches resmap.IdMatcher) []*resource.Resource {
	var out []*resource.Resource
	for _, r := range m.list {
		if r.RNode.IsNilOrEmpty() {
			continue
		}
		x := idsOf(r)
		if matches(x.cur) {
			out = append(out, r)
			continue
		}
		for _, id := range x.prev {
			if matches(id) {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

func demandOne(found []*resource.Resource, id resid.ResId, what string) (*resource.Resource, error) {
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, fmt.Errorf("no matches for %s %s", what, id)
	}
	return nil, fmt.Errorf("multiple matches for %s %s", what, id)
}

func (m *Map) GetByCurrentId(id resid.ResId) (*resource.Resource, error) {
	return demandOne(m.GetMatchingResourcesByCurrentId(id.Equals), id, "Current")
}

func (m *Map) GetById(id resid.ResId) (*resource.Resource, error) {
	r, err := demandOne(m.GetMatchingResourcesByAnyId(id.Equals), id, "Id")
	if err != nil {
		return nil, fmt.Errorf("%s; failed to find unique target for patch %s", err.Error(), id.String())
	}
	return r, nil
}

func (m *Map) grouped(org bool) map[string][]*resource.Resource {
	out := map[string][]*resource.Resource{}
	for _, r := range m.list {
		var ns string
		if org {
			md := readMeta(r)
			ns = md.orgID().EffectiveNamespace()
		} else {
			ns = CurID(r).EffectiveNamespace()
		}
		out[ns] = append(out[ns], r)
	}
	return out
}

func (m *Map) GroupedByCurrentNamespace() map[string][]*resource.Resource {
	g := m.grouped(false)
	delete(g, resid.TotallyNotANamespace)
	return g
}

func (m *Map) GroupedByOriginalNamespace() map[string][]*resource.Resource {
	g := m.grouped(true)
	delete(g, resid.TotallyNotANamespace)
	return g
}

func (m *Map) ClusterScoped() []*resource.Resource {
	return m.grouped(false)[resid.TotallyNotANamespace]
}

func (m *Map) AllIds() []resid.ResId {
	out := make([]resid.ResId, len(m.list))
	for i, r := range m.list {
		out[i] = CurID(r)
	}
	return out
}

func (m *Map) Replace(r *resource.Resource) (int, error) {
	id := CurID(r)
	i, err := m.GetIndexOfCurrentId(id)
	if err != nil {
		return -1, fmt.Errorf("in Replace: %w", err)
	}
	if i < 0 {
		return -1, fmt.Errorf("cannot find resource with id %s to replace", id)
	}
	m.list[i] = r
	return i, nil
}

func (m *Map) Remove(id resid.ResId) error {
	out := m.list[:0:0]
	for _, r := range m.list {
		if CurID(r) != id {
			out = append(out, r)
		}
	}
	if len(out) != len(m.list)-1 {
		return fmt.Errorf("id %s not found in removal", id)
	}
	m.list = out
	return nil
}

func (m *Map) SubsetThatCouldBeReferencedByResource(referrer *resource.Resource) (resmap.ResMap, error) {
	rid := CurID(referrer)
	if rid.IsClusterScoped() {
		return m, nil
	}
	rbNamespaces, err := RoleBindingNamespaces(referrer, rid)
	if err != nil {
		return nil, err
	}
	out := &Map{}
	for _, r := range m.list {
		id := CurID(r)
		if id.IsClusterScoped() || id.IsNsEquals(rid) || rbNamespaces[id.Namespace] {
			out.list = append(out.list, r)
		}
	}
	return out, nil
}

// RoleBindingNamespaces returns the namespaces of the ServiceAccounts a
// RoleBinding names: objects there may be referred to across namespaces.
func RoleBindingNamespaces(r *resource.Resource, id resid.ResId) (map[string]bool, error) {
	out := map[string]bool{}
	if id.Kind != "RoleBinding" {
		return out, nil
	}
	subjects, err := r.GetSlice("subjects")
	if err != nil || subjects == nil {
		return out, nil
	}
	for _, s := range subjects {
		subject, ok := s.(map[string]interface{})
		if !ok {
			continue
		}
		ns, ok1 := subject["namespace"]
		kind, ok2 := subject["kind"]
		if !ok1 || !ok2 || kind != "ServiceAccount" {
			continue
		}
		n, ok := ns.(string)
		if !ok {
			return nil, fmt.Errorf("Invalid Input: namespace is blank for resource %q\n", id)
		}
		out[n] = true
	}
	return out, nil
}

func (m *Map) DeAnchor() error {
	for _, r := range m.list {
		if err := r.DeAnchor(); err != nil {
			return err
		}
	}
	return nil
}

func (m *Map) copyWith(f func(*resource.Resource) *resource.Resource) resmap.ResMap {
	out := &Map{list: make([]*resource.Resource, len(m.list))}
	for i, r := range m.list {
		out.list[i] = f(r)
	}
	return out
}

func (m *Map) DeepCopy() resmap.ResMap {
	seen := map[*yaml.Node]*yaml.Node{}
	return m.copyWith(func(r *resource.Resource) *resource.Resource { return copySharing(r, seen) })
}

func (m *Map) ShallowCopy() resmap.ResMap {
	return m.copyWith(func(r *resource.Resource) *resource.Resource { return r })
}

func (m *Map) ErrorIfNotEqualSets(other resmap.ResMap) error {
	theirs := other.Resources()
	if len(m.list) != len(theirs) {
		return fmt.Errorf("lists have different number of entries: %d doesn't equal %d", len(m.list), len(theirs))
	}
	idx := map[idKey][]int{}
	for i, r := range theirs {
		k := key(CurID(r))
		idx[k] = append(idx[k], i)
	}
	seen := map[int]bool{}
	for _, r1 := range m.list {
		id := CurID(r1)
		found := idx[key(id)]
		if len(found) == 0 {
			return fmt.Errorf("id in self missing from other; id: %s", id)
		}
		if len(found) > 1 {
			return fmt.Errorf("id in self matches %d in other; id: %s", len(found), id)
		}
		r2 := theirs[found[0]]
		if !reflect.DeepEqual(r1.RNode, r2.RNode) {
			return fmt.Errorf("nodes unequal: \n -- %s,\n -- %s", r1, r2)
		}
		seen[found[0]] = true
	}
	if len(seen) != len(m.list) {
		return fmt.Errorf("counting problem %d != %d", len(seen), len(m.list))
	}
	return nil
}

func (m *Map) ErrorIfNotEqualLists(other resmap.ResMap) error {
	theirs := other.Resources()
	if len(m.list) != len(theirs) {
		return fmt.Errorf("lists have different number of entries: %d doesn't equal %d", len(m.list), len(theirs))
	}
	for i, r := range m.list {
		if err := r.ErrIfNotEquals(theirs[i]); err != nil {
			return err
		}
	}
	return nil
}

func (m *Map) Debug(title string) {
	fmt.Printf("--------------------------- %s\n", title)
	for i, r := range m.list {
		fmt.Printf("----------- %d %s\n", i, CurID(r))
	}
}

func (m *Map) Select(s types.Selector) ([]*resource.Resource, error) {
	sr, err := types.NewSelectorRegex(&s)
	if err != nil {
		return nil, err
	}
	var out []*resource.Resource
	for _, r := range m.list {
		// The kind first: it rejects most objects without reading metadata.
		md, mdNode := readTop(r)
		if !sr.MatchGvk(md.curGvk()) {
			continue
		}
		md.readMetadata(mdNode)
		cur, org := md.curID(), md.orgID()
		if !sr.MatchNamespace(org.EffectiveNamespace()) && !sr.MatchNamespace(cur.EffectiveNamespace()) {
			continue
		}
		if !sr.MatchName(org.Name) && !sr.MatchName(cur.Name) {
			continue
		}
		if s.LabelSelector != "" {
			ok, err := r.MatchesLabelSelector(s.LabelSelector)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		if s.AnnotationSelector != "" {
			ok, err := r.MatchesAnnotationSelector(s.AnnotationSelector)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		out = append(out, r)
	}
	return out, nil
}

func (m *Map) ToRNodeSlice() []*yaml.RNode {
	out := make([]*yaml.RNode, len(m.list))
	for i, r := range m.list {
		out[i] = r.Copy()
	}
	return out
}

func (m *Map) ApplySmPatch(selected *resource.IdSet, patch *resource.Resource) error {
	var keep []*resource.Resource
	changed := false
	for _, r := range m.list {
		if selected.Contains(CurID(r)) {
			before := CurID(r)
			p := patch.DeepCopy()
			p.CopyMergeMetaDataFieldsFrom(patch)
			p.SetGvk(r.GetGvk())
			p.SetKind(patch.GetKind())
			if err := yaml11.ApplySmPatch(r, p); err != nil {
				return err
			}
			if r.IsNilOrEmpty() || !CurID(r).Equals(before) {
				changed = true
			}
		}
		if !r.IsNilOrEmpty() {
			keep = append(keep, r)
		}
	}
	if !changed {
		// No ID changed and nothing was deleted: no collision is possible.
		m.list = keep
		return nil
	}
	m.list = nil
	return m.appendAll(keep)
}

func (m *Map) RemoveBuildAnnotations() {
	for _, r := range m.list {
		if !removeAnnotationsInPlace(r, isBuildAnnotation, true) {
			r.RemoveBuildAnnotations()
		}
	}
}

var buildAnnotations = func() map[string]bool {
	s := map[string]bool{}
	for _, a := range resource.BuildAnnotations {
		s[a] = true
	}
	return s
}()

func isBuildAnnotation(k string) bool { return buildAnnotations[k] }

// Keys of kustomize's origin and transformations annotations (buildMetadata).
func isOriginAnnotation(k string) bool      { return k == "config.kubernetes.io/origin" }
func isTransformerAnnotation(k string) bool { return k == "alpha.config.kubernetes.io/transformations" }

// removeAnnotationsInPlace deletes r's annotations whose keys drop matches
// from its annotations node, or reports false when it cannot be sure that
// this prints as kustomize's removal does. That (RemoveBuildAnnotations,
// SetOrigin(nil), ClearTransformations) rebuilds the annotations (sorted,
// as strings) and drops the field when none is left; the printed form is
// the same when every annotation is a string, keys are unique and the
// mapping is in block style. keepsEmpty says the removal leaves an empty
// annotations mapping as it is.
func removeAnnotationsInPlace(r *resource.Resource, drop func(string) bool, keepsEmpty bool) bool {
	md := yamlnode.Field(r.YNode(), "metadata")
	if md == nil || md.Kind != yaml.MappingNode || md.Style != 0 {
		return false
	}
	at := -1
	for i := 0; i+1 < len(md.Content); i += 2 {
		if md.Content[i].Value == "annotations" {
			if at >= 0 {
				return false
			}
			at = i
		}
	}
	if at < 0 {
		return true
	}
	an := md.Content[at+1]
	if an.Kind != yaml.MappingNode || an.Style != 0 || len(an.Content)%2 != 0 || len(an.Content) > 128 {
		return false
	}
	found := false
	for i := 0; i < len(an.Content); i += 2 {
		k, v := an.Content[i], an.Content[i+1]
		if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode || v.Tag != yaml.NodeTagString || k.Anchor != "" || v.Anchor != "" {
			return false
		}
		for j := 0; j < i; j += 2 {
			if an.Content[j].Value == k.Value {
				return false
			}
		}
		found = found || drop(k.Value)
	}
	if !found {
		// With no key to drop, kustomize still rebuilds an empty mapping
		// (dropping the field) unless keepsEmpty (RemoveBuildAnnotations).
		return len(an.Content) > 0 || keepsEmpty
	}
	kept := an.Content[:0]
	for i := 0; i < len(an.Content); i += 2 {
		if !drop(an.Content[i].Value) {
			kept = append(kept, an.Content[i], an.Content[i+1])
		}
	}
	an.Content = kept
	if len(kept) == 0 {
		md.Content = append(md.Content[:at], md.Content[at+2:]...)
	}
	return true
}

func (m *Map) ApplyFilter(f kio.Filter) error {
	back := make(map[*yaml.RNode]*resource.Resource, len(m.list))
	nodes := make([]*yaml.RNode, len(m.list))
	for i, r := range m.list {
		nodes[i] = &r.RNode
		back[nodes[i]] = r
	}
	filtered, err := f.Filter(nodes)
	if err != nil {
		return err
	}
	var out []*resource.Resource
	for _, n := range filtered {
		if n.IsNilOrEmpty() {
			continue
		}
		r, ok := back[n]
		if !ok {
			r = &resource.Resource{RNode: *n}
		}
		out = append(out, r)
	}
	m.list = out
	return nil
}

// insertSorted inserts i into the ascending list l, keeping list order.
func insertSorted(l []int, i int) []int {
	at := len(l)
	for at > 0 && l[at-1] > i {
		at--
	}
	l = append(l, 0)
	copy(l[at+1:], l[at:])
	l[at] = i
	return l
}
