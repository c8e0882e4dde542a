package cluster

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
)

// recordOptions and waitOptions are the session's side of the seam: krm apply's flags as
// package cluster's options.
func recordOptions(o clustersupport.ApplyOptions) *RecordOptions {
	if o.Record == nil {
		return nil
	}
	in := genrecord.NewInputs(o.Record.Manifests)
	return &RecordOptions{
		Commit: o.Record.Commit, Paths: o.OutputPaths, Warn: o.Record.Warn,
		Inputs: func(obj *Object) (string, string) {
			return in.Lookup(genrecord.Key{Group: obj.GroupVersionKind().Group, Kind: obj.GetKind(), Namespace: obj.GetNamespace(), Name: obj.GetName()})
		},
	}
}

func waitOptions(o clustersupport.ApplyOptions) *WaitOptions {
	if !o.Wait {
		return nil
	}
	return &WaitOptions{Timeout: o.WaitTimeout, Paths: o.OutputPaths, Progress: o.Progress}
}

// Objects are the refs of the session's manifests (krm status).
func (s *session) Objects() []clustersupport.Ref {
	refs := make([]clustersupport.Ref, len(s.objs))
	for i, o := range s.objs {
		refs[i] = clustersupport.Ref{APIVersion: o.GetAPIVersion(), Kind: o.GetKind(), Namespace: o.GetNamespace(), Name: o.GetName()}
	}
	return refs
}

// Members lists the live members of the session's ApplySet (krm status --applyset without
// manifests): the objects of the kinds and namespaces its parent lists, labelled part of it.
func (s *session) Members(ctx context.Context) ([]clustersupport.Ref, error) {
	if s.set == nil {
		return nil, errors.New("listing an ApplySet's members needs --applyset NAME")
	}
	p, err := s.c.readParent(ctx, *s.set)
	if err != nil {
		return nil, scrubbed(err)
	}
	members, err := s.c.staleMembers(ctx, p, nil) // none kept: every member
	if err != nil {
		return nil, scrubbed(err)
	}
	sort.Slice(members, func(i, j int) bool { return members[i].String() < members[j].String() })
	refs := make([]clustersupport.Ref, len(members))
	for i, o := range members {
		refs[i] = clustersupport.Ref{APIVersion: o.GetAPIVersion(), Kind: o.GetKind(), Namespace: o.GetNamespace(), Name: o.GetName()}
	}
	return refs, nil
}

// Record reads the generation record of the session's ApplySet, else of the set the live
// object is part of: the record object carries the set's ID in a label, looked for in the
// object's namespace and the context's.
func (s *session) Record(ctx context.Context, live map[string]any) (*genrecord.Record, string, error) {
	rec, where, err := s.record(ctx, live)
	return rec, where, scrubbed(err)
}

func (s *session) record(ctx context.Context, live map[string]any) (*genrecord.Record, string, error) {
	if s.set != nil {
		obj := recordObject(*s.set)
		where := "ConfigMap " + obj.GetNamespace() + "/" + obj.GetName()
		rec, err := s.c.ReadRecord(ctx, *s.set)
		if err == nil && rec == nil {
			err = fmt.Errorf("%w: %s (of ApplySet %s) does not exist: krm apply records generations with --applyset, unless --no-record", clustersupport.ErrNoRecord, where, s.set)
		}
		return rec, where, err
	}
	labels, _ := genrecord.Field(live, "metadata", "labels").(map[string]any)
	id, _ := labels[PartOfLabel].(string)
	if id == "" {
		return nil, "", fmt.Errorf("%w: the object is in no ApplySet (no label %s): name the set with --applyset", clustersupport.ErrNoRecord, PartOfLabel)
	}
	var namespaces []string
	if ns, _ := genrecord.Field(live, "metadata", "namespace").(string); ns != "" {
		namespaces = append(namespaces, ns)
	}
	if s.c.Namespace != "" && (len(namespaces) == 0 || namespaces[0] != s.c.Namespace) {
		namespaces = append(namespaces, s.c.Namespace)
	}
	probe := recordObject(ApplySet{})
	for _, ns := range namespaces {
		probe.SetNamespace(ns)
		ri, err := s.c.resource(ctx, probe)
		if err != nil {
			return nil, "", err
		}
		list, err := ri.List(ctx, metav1.ListOptions{LabelSelector: genrecord.SetLabel + "=" + id, Limit: 2})
		if err != nil {
			probe.SetName("(generation records)")
			return nil, "", fmt.Errorf("generation record: %w", s.c.apiError("list", probe, err))
		}
		if len(list.Items) == 0 {
			continue
		}
		item := list.Items[0]
		where := "ConfigMap " + ns + "/" + item.GetName()
		data, _ := genrecord.Field(item.Object, "data", genrecord.DataKey).(string)
		rec, err := genrecord.Parse([]byte(data))
		if err != nil {
			return nil, where, fmt.Errorf("%s: %w", where, err)
		}
		return rec, where, nil
	}
	return nil, "", fmt.Errorf("%w: no ConfigMap labelled %s=%s (the record of the object's ApplySet) in namespace %s: name the set with --applyset",
		clustersupport.ErrNoRecord, genrecord.SetLabel, id, strings.Join(namespaces, " or "))
}
