// Package clustersupport is where a krm built with a Kubernetes client registers it (package
// cluster, which links client-go), so that the commands talking to a cluster (krm apply, krm
// delete, krm diff --cluster, krm trace --context, krm status) do not link client-go
// themselves: the default build registers one that runs krm_helm instead (package handoff),
// and the lean renderer (krm_nohelm, docs/architecture.md) has none and says so, as it does
// for Helm (package helmsupport).
//
// It imports neither client-go nor apimachinery: the lean renderer links this package.
package clustersupport

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/convergence"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
)

// AllowedContextsEnv names the environment variable listing the contexts apply and delete
// may use without --context (comma-separated).
const AllowedContextsEnv = "KRM_ALLOWED_CONTEXTS"

// ErrContext is the error of a context the command may not use (or that the kubeconfig lacks).
var ErrContext = errors.New("context not allowed")

// ErrDeadline is the error of a command whose deadline passed (--deadline): what it did
// until then is printed; the error says what it was waiting for.
var ErrDeadline = errors.New("the command's deadline passed")

// ErrNoClient is Open's error in a krm built without a Kubernetes client.
var ErrNoClient = errors.New("this krm is the lean renderer (krm_nohelm) without a Kubernetes client: " +
	"use the full krm (@rules_krm//tools/renderer:krm)")

// Request says which manifests to act on, on which cluster, as the commands' flags do.
type Request struct {
	// Manifests are rendered YAML files, "-" for Stdin.
	Manifests []string
	Stdin     io.Reader
	// Kubeconfig is --kubeconfig (empty: $KUBECONFIG, else ~/.kube/config), Context --context
	// (empty: the kubeconfig's current context).
	Kubeconfig, Context string
	// KubeconfigBase, if set, is the directory a relative Kubeconfig and the relative files of
	// $KUBECONFIG are relative to (a run target's $BUILD_WORKING_DIRECTORY), instead of the
	// working directory.
	KubeconfigBase string
	// Warnings receives the API server's warnings; nil drops them.
	Warnings io.Writer
	// Writes (apply, delete) checks the context against the allow-list: Allowed
	// (--allowed-context, else $KRM_ALLOWED_CONTEXTS), or ExplicitContext (--context given)
	// without one.
	Writes          bool
	ExplicitContext bool
	Allowed         []string
	// ApplySet is --applyset (NAME, secrets/NAME or configmaps/NAME; empty: none), in
	// ApplySetNamespace (empty: the context's namespace).
	ApplySet, ApplySetNamespace string
}

// ApplyOptions are the choices of krm apply.
type ApplyOptions struct {
	// Force takes fields another field manager owns; DryRun changes nothing; Prune deletes
	// the ApplySet's members the manifests no longer hold.
	Force, DryRun, Prune bool
	// Timeout bounds the wait for CRDs to be established and Namespaces to be active.
	Timeout time.Duration
	// Report receives one line per object.
	Report func(line string)
	// Record, if set, records the generation of each object applied beside the ApplySet
	// (package genrecord).
	Record *RecordRequest
	// Wait waits after the apply until every object applied is current (package
	// convergence), within WaitTimeout; Progress receives each change of an object's state.
	Wait        bool
	WaitTimeout time.Duration
	Progress    func(convergence.Event)
	// OutputPaths are the per-kind output paths (--output-path) of the record's garbage
	// collection and of the wait.
	OutputPaths []genrecord.OutputPath
}

// RecordRequest is what krm apply records: the commit (--source-commit) and the inputs
// digests of the provenance manifests (--provenance-manifest).
type RecordRequest struct {
	Commit    string
	Manifests []*provmanifest.Manifest
	// Warn receives what did not stop the apply.
	Warn func(string)
}

// DiffOptions are the choices of krm diff --cluster.
type DiffOptions struct {
	// Force diffs as --force-conflicts applies.
	Force bool
	// Name is the rendered side's name in the report.
	Name string
}

// Session is a connection to a cluster with the manifests it acts on.
type Session interface {
	// Where names the context and its API server, for error messages.
	Where() string
	Apply(ctx context.Context, o ApplyOptions) error
	Delete(ctx context.Context, dryRun bool, report func(line string)) error
	Diff(ctx context.Context, o DiffOptions) (*rdiff.Report, error)
}

// Register is set by package cluster when it is linked in.
var Register func(context.Context, Request) (Session, error)

// Open reads the manifests and connects, or, in a krm built without a Kubernetes client,
// returns ErrNoClient.
func Open(ctx context.Context, r Request) (Session, error) {
	if Register == nil {
		return nil, ErrNoClient
	}
	return Register(ctx, r)
}
