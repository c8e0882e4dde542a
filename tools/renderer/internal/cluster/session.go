package cluster

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
)

// Linking this package gives krm its Kubernetes client: only the full krm imports it
// (tools/renderer/krm_helm); the default build and the lean renderer link clustersupport alone.
//
// client-go logs through klog to stderr ("E1202 ... request.go:1198] ..."), beside the error
// krm prints that names the server: its lines are dropped, here where client-go is linked.
func init() {
	clustersupport.Register = Open
	klog.SetLogger(logr.Discard())
}

// Open reads the manifests, checks the context when the request writes, connects, and names
// the ApplySet: what krm apply, krm delete and krm diff --cluster do first. A refused context
// sends nothing: no discovery, no credentials, no exec plugin run.
func Open(ctx context.Context, r clustersupport.Request) (clustersupport.Session, error) {
	s, err := open(ctx, r)
	if err != nil {
		return nil, scrubbed(deadline(ctx, err))
	}
	return s, nil
}

// ErrDeadline is the error of a command whose deadline (its context's) passed.
var ErrDeadline = clustersupport.ErrDeadline

// deadline says so when ctx's deadline passed: which bound ended err.
func deadline(ctx context.Context, err error) error {
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", ErrDeadline, err)
	}
	return err
}

func open(ctx context.Context, r clustersupport.Request) (*session, error) {
	objs, err := ReadManifests(r.Manifests, r.Stdin)
	if err != nil {
		return nil, err
	}
	t, err := Resolve(Config{Kubeconfig: r.Kubeconfig, KubeconfigBase: r.KubeconfigBase, Context: r.Context, Warnings: r.Warnings})
	if err != nil {
		return nil, err
	}
	if r.Writes {
		if err := AllowContext(t.Context, r.ExplicitContext, r.Allowed); err != nil {
			return nil, err
		}
	}
	c, err := t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	s := &session{c: c, objs: objs}
	if r.ApplySet != "" {
		ns := r.ApplySetNamespace
		if ns == "" {
			ns = c.Namespace
		}
		if s.set, err = ParseApplySet(r.ApplySet, ns); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// session is a Client with the objects of one command. Its errors are scrubbed: no URL's
// userinfo.
type session struct {
	c    *Client
	objs []*Object
	set  *ApplySet
}

func (s *session) Where() string { return fmt.Sprintf("context %s (%s)", s.c.Context, s.c.Server) }

func (s *session) Apply(ctx context.Context, o clustersupport.ApplyOptions) error {
	return scrubbed(deadline(ctx, s.c.Apply(ctx, s.objs, ApplyOptions{
		Force: o.Force, DryRun: o.DryRun, ApplySet: s.set, Prune: o.Prune, Timeout: o.Timeout, Report: o.Report,
		Record: recordOptions(o), Wait: waitOptions(o),
	})))
}

func (s *session) Delete(ctx context.Context, dryRun bool, report func(string)) error {
	return scrubbed(deadline(ctx, s.c.Delete(ctx, s.objs, s.set, dryRun, report)))
}

func (s *session) Diff(ctx context.Context, o clustersupport.DiffOptions) (*rdiff.Report, error) {
	r, err := s.c.Diff(ctx, s.objs, DiffOptions{Force: o.Force, ApplySet: s.set, Name: o.Name})
	return r, scrubbed(deadline(ctx, err))
}
