// Package resourcemap is an ordered collection of resources with fast ID
// lookups. It implements kustomize's resmap.ResMap interface, so kustomize's
// builtin plugins can run on it, but computes IDs straight from the YAML
// nodes and indexes them per bulk operation, so that accumulating,
// absorbing, selecting and sorting stay linear in the number of resources.
package resourcemap

import (
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
)

// Annotations in which kustomize records a resource's previous IDs.
const (
	prevNamesKey      = "internal.config.kubernetes.io/previousNames"
	prevNamespacesKey = "internal.config.kubernetes.io/previousNamespaces"
	prevKindsKey      = "internal.config.kubernetes.io/previousKinds"
)

// value is a scalar's text; kustomize reads a null (null, ~, empty) as "".
func value(n *yaml.Node) string {
	if n == nil || n.ShortTag() == yaml.NodeTagNull {
		return ""
	}
	return n.Value
}

// meta holds the identifying fields of one resource.
type meta struct {
	apiVersion, kind, name, namespace    string
	prevNames, prevNamespaces, prevKinds string
	hasPrev                              bool
}

var (
	topKeys  = []string{"apiVersion", "kind", "metadata"}
	metaKeys = []string{"name", "namespace", "annotations"}
)

func readMeta(r *resource.Resource) meta {
	m, md := readTop(r)
	m.readMetadata(md)
	return m
}

// readTop reads apiVersion and kind, and returns the metadata node.
func readTop(r *resource.Resource) (meta, *yaml.Node) {
	var m meta
	n := r.YNode()
	if n == nil {
		return m, nil
	}
	var apiVersion, kind, md *yaml.Node
	yamlnode.Fields(n, topKeys, []**yaml.Node{&apiVersion, &kind, &md})
	m.apiVersion = value(apiVersion)
	m.kind = value(kind)
	return m, md
}

// readMetadata reads the name, namespace and previous IDs in md.
func (m *meta) readMetadata(md *yaml.Node) {
	var name, namespace, an *yaml.Node
	yamlnode.Fields(md, metaKeys, []**yaml.Node{&name, &namespace, &an})
	m.name = value(name)
	m.namespace = value(namespace)
	if an != nil && an.Kind == yaml.MappingNode {
		c := an.Content
		for i := 0; i+1 < len(c); i += 2 {
			switch c[i].Value {
			case prevNamesKey:
				m.prevNames, m.hasPrev = c[i+1].Value, true
			case prevNamespacesKey:
				m.prevNamespaces = c[i+1].Value
			case prevKindsKey:
				m.prevKinds = c[i+1].Value
			}
		}
	}
}

// nameOf is CurID(r).Name, read alone.
func nameOf(r *resource.Resource) string {
	return value(yamlnode.Field(yamlnode.Field(r.YNode(), "metadata"), "name"))
}

// CurID is r.CurId(), computed without kustomize's generic field walks.
func CurID(r *resource.Resource) resid.ResId {
	m := readMeta(r)
	return m.curID()
}

func (m *meta) curID() resid.ResId {
	return resid.ResId{Gvk: m.curGvk(), Name: m.name, Namespace: m.namespace}
}

func (m *meta) curGvk() resid.Gvk {
	g, v := resid.ParseGroupVersion(m.apiVersion)
	return resid.NewGvk(g, v, m.kind)
}

// orgID is the first of prevIDs, or curID when there is none, without
// building the list: each of its fields is the first of its list.
func (m *meta) orgID() resid.ResId {
	if !m.hasPrev {
		return m.curID()
	}
	first := func(csv string) string {
		s, _, _ := strings.Cut(csv, ",")
		return s
	}
	g, v := resid.ParseGroupVersion(m.apiVersion)
	return resid.ResId{Gvk: resid.Gvk{Group: g, Version: v, Kind: first(m.prevKinds)}, Name: first(m.prevNames), Namespace: first(m.prevNamespaces)}
}

// prevIDs is r.PrevIds(): kustomize builds their Gvks as plain literals.
func (m *meta) prevIDs() []resid.ResId {
	if !m.hasPrev {
		return nil
	}
	names := strings.Split(m.prevNames, ",")
	nss := strings.Split(m.prevNamespaces, ",")
	kinds := strings.Split(m.prevKinds, ",")
	if len(names) != len(nss) || len(names) != len(kinds) {
		// kustomize panics here; keep going with what lines up.
		n := len(names)
		if len(nss) < n {
			n = len(nss)
		}
		if len(kinds) < n {
			n = len(kinds)
		}
		names, nss, kinds = names[:n], nss[:n], kinds[:n]
	}
	g, v := resid.ParseGroupVersion(m.apiVersion)
	ids := make([]resid.ResId, len(names))
	for i := range names {
		ids[i] = resid.ResId{Gvk: resid.Gvk{Group: g, Version: v, Kind: kinds[i]}, Name: names[i], Namespace: nss[i]}
	}
	return ids
}

// ids is the identity of one resource at one moment.
type ids struct {
	cur  resid.ResId
	prev []resid.ResId
}

func idsOf(r *resource.Resource) ids {
	m := readMeta(r)
	return ids{cur: m.curID(), prev: m.prevIDs()}
}

// OrgID is r.OrgId(), computed fast.
func OrgID(r *resource.Resource) resid.ResId {
	m := readMeta(r)
	return m.orgID()
}

// PrevIDs is r.PrevIds(), computed fast.
func PrevIDs(r *resource.Resource) []resid.ResId {
	m := readMeta(r)
	return m.prevIDs()
}

// WithAnyName returns the resources of m one of whose IDs (current or
// previous) has the given name, in order: what GetMatchingResourcesByAnyId
// returns for a matcher on the name alone, without building the IDs.
func WithAnyName(m resmap.ResMap, name string) []*resource.Resource {
	var out []*resource.Resource
	for _, r := range m.Resources() {
		if r.RNode.IsNilOrEmpty() {
			continue
		}
		if hasName(readMeta(r), name) {
			out = append(out, r)
		}
	}
	return out
}

// ByAnyName indexes the resources of m by every name one of their IDs
// (current or previous) has, each list in order: ByAnyName(m)[name] is
// WithAnyName(m, name) for every name, in one pass.
func ByAnyName(m resmap.ResMap) map[string][]*resource.Resource {
	idx := map[string][]*resource.Resource{}
	for _, r := range m.Resources() {
		if r.RNode.IsNilOrEmpty() {
			continue
		}
		md := readMeta(r)
		names := []string{md.name}
		if md.hasPrev {
			n := min(strings.Count(md.prevNames, ","), strings.Count(md.prevNamespaces, ","), strings.Count(md.prevKinds, ",")) + 1
			names = append(names, strings.SplitN(md.prevNames, ",", n+1)[:n]...)
		}
		for i, name := range names {
			if !slices.Contains(names[:i], name) {
				idx[name] = append(idx[name], r)
			}
		}
	}
	return idx
}

func hasName(m meta, name string) bool {
	if m.name == name {
		return true
	}
	if !m.hasPrev {
		return false
	}
	// prevIDs keeps as many names as all three lists have entries.
	n := min(strings.Count(m.prevNames, ","), strings.Count(m.prevNamespaces, ","), strings.Count(m.prevKinds, ",")) + 1
	for i, prev := range strings.SplitN(m.prevNames, ",", n+1) {
		if i < n && prev == name {
			return true
		}
	}
	return false
}
