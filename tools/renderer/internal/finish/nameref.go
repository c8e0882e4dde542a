package finish

import (
	"fmt"
	"slices"
	"strings"

	fsfilter "sigs.k8s.io/kustomize/api/filters/fieldspec"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/kustomize/kyaml/utils"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldwalk"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// fixNameReferences rewrites every field that refers to an object by name
// to that object's final name. It follows kustomize's name-reference
// semantics (filters/nameref) but looks candidates up by previous name
// instead of scanning every object for every field, which keeps it linear.
func fixNameReferences(m resmap.ResMap, backRefs fieldspec.NameBackReferences, obs observe.Observer) error {
	if backRefs == nil {
		return nil
	}
	idx := newNameIndex(m.Resources())
	type work struct {
		res   *resource.Resource
		specs []types.FieldSpec
		paths [][]string
		gvks  []resid.Gvk
	}
	var order []*work
	byRes := map[*resource.Resource]*work{}
	for _, br := range backRefs {
		for _, spec := range br.Referrers {
			path := utils.PathSplitter(spec.Path, "/")
			idx.fresh = idx.fresh || slices.ContainsFunc(path, isBuildAnnotation)
			for i, r := range idx.res {
				if !idx.org[i].IsSelected(&spec.Gvk) {
					continue
				}
				w := byRes[r]
				if w == nil {
					w = &work{res: r}
					byRes[r] = w
					order = append(order, w)
				}
				w.specs = append(w.specs, spec)
				w.paths = append(w.paths, path)
				w.gvks = append(w.gvks, br.Gvk)
			}
		}
	}
	for _, w := range order {
		ref, err := idx.referrer(w.res)
		if err != nil {
			return err
		}
		for i, spec := range w.specs {
			if fieldwalk.Misses(w.res.YNode(), w.paths[i]) {
				continue // most specs a referrer matches lead nowhere in it
			}
			u := &nameUpdate{idx: idx, ref: ref, target: w.gvks[i], path: spec.Path, obs: obs}
			spec.Gvk = w.res.GetGvk()
			if err := w.res.PipeE(fsfilter.Filter{FieldSpec: spec, SetValue: u.set}); err != nil {
				return fmt.Errorf("updating name reference in '%s' field of '%s': %w", spec.Path, ref.id, err)
			}
		}
	}
	return nil
}

// nameIndex holds every object's identity once, and the objects by each of
// their previous names. Name updates write only the fields field specs lead
// to, so identities stay as indexed; prev is read afresh (fresh) when a
// spec names a previous-ID annotation.
type nameIndex struct {
	res        []*resource.Resource
	cur, org   []resid.ResId
	prev       [][]resid.ResId
	fresh      bool
	byPrevName map[string][]int
	byOrgNs    map[string][]int
	byCurNs    map[string][]int
}

func newNameIndex(res []*resource.Resource) *nameIndex {
	x := &nameIndex{
		res:        res,
		cur:        make([]resid.ResId, len(res)),
		org:        make([]resid.ResId, len(res)),
		prev:       make([][]resid.ResId, len(res)),
		byPrevName: map[string][]int{},
		byOrgNs:    map[string][]int{},
		byCurNs:    map[string][]int{},
	}
	for i, r := range res {
		x.cur[i] = resourcemap.CurID(r)
		prev := resourcemap.PrevIDs(r)
		x.prev[i] = prev
		x.org[i] = x.cur[i]
		if len(prev) > 0 {
			x.org[i] = prev[0]
		}
		seen := map[string]bool{}
		for _, p := range prev {
			if !seen[p.Name] {
				seen[p.Name] = true
				x.byPrevName[p.Name] = append(x.byPrevName[p.Name], i)
			}
		}
		x.byOrgNs[x.org[i].EffectiveNamespace()] = append(x.byOrgNs[x.org[i].EffectiveNamespace()], i)
		x.byCurNs[x.cur[i].EffectiveNamespace()] = append(x.byCurNs[x.cur[i].EffectiveNamespace()], i)
	}
	return x
}

// referrerCtx is one object whose fields are being updated, with the rule
// deciding which objects it may refer to (kustomize's
// SubsetThatCouldBeReferencedByResource).
type referrerCtx struct {
	res          *resource.Resource
	id           resid.ResId
	rbNamespaces map[string]bool
}

func (x *nameIndex) referrer(r *resource.Resource) (*referrerCtx, error) {
	id := resourcemap.CurID(r)
	ctx := &referrerCtx{res: r, id: id}
	if id.IsClusterScoped() {
		return ctx, nil
	}
	ns, err := resourcemap.RoleBindingNamespaces(r, id)
	if err != nil {
		return nil, err
	}
	ctx.rbNamespaces = ns
	return ctx, nil
}

// mayReferTo reports whether object i is in the referrer's candidate subset.
func (x *nameIndex) mayReferTo(ref *referrerCtx, i int) bool {
	if ref.id.IsClusterScoped() {
		return true
	}
	id := x.cur[i]
	return id.IsClusterScoped() || id.IsNsEquals(ref.id) ||
		len(ref.rbNamespaces) > 0 && ref.rbNamespaces[x.res[i].GetNamespace()]
}

// nameUpdate updates the name fields one field spec selects in one referrer.
type nameUpdate struct {
	idx    *nameIndex
	ref    *referrerCtx
	target resid.Gvk
	path   string
	obs    observe.Observer
}

func (u *nameUpdate) set(node *yaml.RNode) error {
	if yaml.IsMissingOrNull(node) {
		return nil
	}
	switch node.YNode().Kind {
	case yaml.ScalarNode:
		return u.setScalar(node)
	case yaml.MappingNode:
		return u.setMapping(node)
	case yaml.SequenceNode:
		for _, elem := range node.Content() {
			n := yaml.NewRNode(elem)
			if yaml.IsMissingOrNull(n) {
				continue
			}
			var err error
			switch elem.Kind {
			case yaml.ScalarNode:
				err = u.setScalar(n)
			case yaml.MappingNode:
				err = u.setMapping(n)
			default:
				err = fmt.Errorf("%#v is expected to be either a string or a map of string", n)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("node must be a scalar, sequence or map")
}

func (u *nameUpdate) setScalar(node *yaml.RNode) error {
	old := node.YNode().Value
	referral, err := u.selectReferral(old, func(i int) bool { return true }, allNamesEqual)
	if err != nil || referral == nil {
		return err
	}
	u.obs.Referred(u.ref.res, referral)
	if referral.GetName() == old {
		return nil
	}
	setName(node.YNode(), referral.GetName())
	return nil
}

// setName sets the scalar n to name as yaml.FieldSetter{StringValue: name}
// does to an existing node: a new untagged scalar that keeps only n's style
// (none for an empty name).
// That style overwrites the one FieldSetter's YAML 1.1 check (a parse per
// call) picks, so the check is skipped.
func setName(n *yaml.Node, name string) {
	if name == "" {
		return // FieldSetter has no value to set
	}
	*n = yaml.Node{Kind: yaml.ScalarNode, Style: n.Style, Value: name}
}

func (u *nameUpdate) setMapping(node *yaml.RNode) error {
	nameNode, err := node.Pipe(yaml.FieldMatcher{Name: "name"})
	if err != nil {
		return fmt.Errorf("trying to match 'name' field: %w", err)
	}
	if nameNode == nil {
		return fmt.Errorf("path config error; no 'name' field in node")
	}
	nsNode, err := node.Pipe(yaml.FieldMatcher{Name: "namespace"})
	if err != nil {
		return fmt.Errorf("trying to match 'namespace' field: %w", err)
	}
	inNamespace := func(int) bool { return true }
	if nsNode != nil {
		ns := nsNode.YNode().Value
		// Like kustomize: prefer objects originally in ns, else objects now in ns.
		byOrg := false
		for _, i := range u.idx.byOrgNs[ns] {
			if ns != resid.TotallyNotANamespace && u.idx.mayReferTo(u.ref, i) {
				byOrg = true
				break
			}
		}
		if byOrg {
			inNamespace = func(i int) bool { return u.idx.org[i].EffectiveNamespace() == ns }
		} else {
			inNamespace = func(i int) bool {
				e := u.idx.cur[i].EffectiveNamespace()
				return e == ns && e != resid.TotallyNotANamespace
			}
		}
	}
	old := nameNode.YNode().Value
	referral, err := u.selectReferral(old, inNamespace, allNamesAndNamespacesEqual)
	if err != nil || referral == nil {
		return err
	}
	u.obs.Referred(u.ref.res, referral)
	if referral.GetName() == old && referral.GetNamespace() == "" {
		return nil
	}
	setName(nameNode.YNode(), referral.GetName())
	if referral.GetNamespace() == "" {
		return nil
	}
	return node.PipeE(yaml.FieldSetter{Name: "namespace", StringValue: referral.GetNamespace()})
}

// selectReferral applies kustomize's sieves, in kustomize's order, to the
// objects that once had the name oldName.
func (u *nameUpdate) selectReferral(oldName string, keep func(int) bool,
	identical func([]*resource.Resource) bool) (*resource.Resource, error) {
	x := u.idx
	var roleRef *resid.Gvk
	if strings.HasSuffix(u.path, "roleRef/name") {
		roleRef, _ = roleRefGvk(u.ref.res)
	}
	// The first sieves, each a test of one object, in one pass.
	var c []*resource.Resource
	for _, i := range x.byPrevName[oldName] {
		if !x.mayReferTo(u.ref, i) || !keep(i) || !x.prevIDSelectedBy(i, &u.target) ||
			roleRef != nil && !x.prevIDSelectedBy(i, roleRef) {
			continue
		}
		if id := x.cur[i]; !u.ref.id.IsClusterScoped() &&
			!(id.IsClusterScoped() || x.res[i].GetKind() == "ServiceAccount" || u.ref.id.IsNsEquals(id)) {
			continue
		}
		c = append(c, x.res[i])
	}
	if len(c) == 1 {
		return c[0], nil
	}
	c = sieve(c, func(r *resource.Resource) bool { return r.PrefixesSuffixesEquals(u.ref.res, true) })
	if len(c) > 1 {
		c = sieve(c, func(r *resource.Resource) bool { return r.PrefixesSuffixesEquals(u.ref.res, false) })
	}
	switch {
	case len(c) == 1:
		return c[0], nil
	case len(c) == 0:
		return nil, nil
	case identical(c):
		return c[0], nil
	}
	var ids []string
	for _, r := range c {
		ids = append(ids, resourcemap.CurID(r).String())
	}
	var details strings.Builder
	fmt.Fprintf(&details, "\n**** Too many possible referral targets to referrer:\n%s\n", u.ref.res.MustYaml())
	for i, r := range c {
		fmt.Fprintf(&details, "--- possible referral %d:\n%s\n", i, r.MustYaml())
	}
	return nil, fmt.Errorf("found multiple possible referrals: %s\n%s", strings.Join(ids, ", "), details.String())
}

func sieve(list []*resource.Resource, keep func(*resource.Resource) bool) []*resource.Resource {
	var out []*resource.Resource
	for _, r := range list {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// prevIDSelectedBy reports that one of object i's previous IDs is of gvk.
func (x *nameIndex) prevIDSelectedBy(i int, gvk *resid.Gvk) bool {
	prev := x.prev[i]
	if x.fresh {
		prev = resourcemap.PrevIDs(x.res[i])
	}
	for _, id := range prev {
		if id.IsSelected(gvk) {
			return true
		}
	}
	return false
}

// roleRefGvk is the group and kind a RoleBinding's roleRef names.
func roleRefGvk(r *resource.Resource) (*resid.Gvk, bool) {
	ref, err := r.Pipe(yaml.Lookup("roleRef"))
	if err != nil || ref.IsNil() {
		return nil, false
	}
	group, err := ref.Pipe(yaml.Lookup("apiGroup"))
	if err != nil || group.IsNil() {
		return nil, false
	}
	kind, err := ref.Pipe(yaml.Lookup("kind"))
	if err != nil || kind.IsNil() {
		return nil, false
	}
	return &resid.Gvk{Group: group.YNode().Value, Kind: kind.YNode().Value}, true
}

func allNamesEqual(rs []*resource.Resource) bool {
	for _, r := range rs[1:] {
		if r.GetName() != rs[0].GetName() {
			return false
		}
	}
	return true
}

func allNamesAndNamespacesEqual(rs []*resource.Resource) bool {
	for _, r := range rs[1:] {
		if r.GetName() != rs[0].GetName() || r.GetNamespace() != rs[0].GetNamespace() {
			return false
		}
	}
	return true
}

// isBuildAnnotation reports a path step naming one of kustomize's build
// annotations, previous IDs among them: the only step that leads to where
// they are kept (kyaml trims the spaces around a field name).
func isBuildAnnotation(step string) bool {
	return slices.Contains(resource.BuildAnnotations, strings.TrimSpace(strings.TrimSuffix(step, "[]")))
}
