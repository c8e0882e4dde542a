package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

// clusterFlags are the flags of the commands that talk to an API server (apply, delete,
// diff --cluster): which kubeconfig and context, and for the writing commands the contexts
// they may use without --context. The client is package cluster's, linked in the full krm
// only (tools/renderer/krm_helm): the lean renderer links clustersupport, which says so.
type clusterFlags struct {
	kubeconfig, context  string
	kubeconfigBase       string
	allowed              []string
	applyset, applysetNS string
	deadline             deadline
	fs                   *pflag.FlagSet
}

// defaultDeadline is --deadline's default: far above an apply of thousands of objects with
// CRDs to wait for, far below a hung CI job's.
const defaultDeadline = 10 * time.Minute

// deadline is --deadline: the one bound of the time a command that talks to an API server
// takes in all (the credential plugin, every request, its retries and waits).
type deadline struct {
	d      time.Duration
	ctx    context.Context
	cancel context.CancelFunc
}

func (d *deadline) register(fs *pflag.FlagSet) {
	fs.DurationVar(&d.d, "deadline", defaultDeadline, "how long the whole command may take (credential plugin, requests, retries, waits); past it krm stops and says what it waited for (0: no deadline)")
}

// start begins the deadline; stop ends its timer.
func (d *deadline) start() context.Context {
	d.ctx, d.cancel = context.Background(), func() {}
	if d.d > 0 {
		d.ctx, d.cancel = context.WithTimeout(d.ctx, d.d)
	}
	return d.ctx
}

func (d *deadline) stop() {
	if d.cancel != nil {
		d.cancel()
	}
}

// explain says, of an error after the deadline passed, that it did and which flag set it.
func (d *deadline) explain(err error) error {
	if err == nil || d.ctx == nil || !errors.Is(d.ctx.Err(), context.DeadlineExceeded) {
		return err
	}
	if !errors.Is(err, clustersupport.ErrDeadline) {
		err = fmt.Errorf("%w: %w", clustersupport.ErrDeadline, err)
	}
	return fmt.Errorf("%w (--deadline %s)", err, d.d)
}

func (c *clusterFlags) register(fs *pflag.FlagSet, writes bool) {
	c.fs = fs
	fs.StringVar(&c.kubeconfig, "kubeconfig", "", "the kubeconfig file (default: $KUBECONFIG, a list of files, else ~/.kube/config)")
	fs.StringVar(&c.kubeconfigBase, "kubeconfig-base", "", "the directory a relative --kubeconfig and the relative files of $KUBECONFIG are relative to (default: the working directory; the run targets of krm_deliver pass $BUILD_WORKING_DIRECTORY)")
	fs.StringVar(&c.context, "context", "", "the kubeconfig context (default: its current context)")
	if writes {
		fs.StringArrayVar(&c.allowed, "allowed-context", nil, "a context this command may use without --context (repeatable; default: $"+clustersupport.AllowedContextsEnv+", comma-separated); with a list, only its contexts")
	}
	fs.StringVar(&c.applyset, "applyset", "", "the ApplySet tracking the objects: its parent Secret NAME (or secrets/NAME, configmaps/NAME)")
	fs.StringVar(&c.applysetNS, "applyset-namespace", "", "the namespace of the ApplySet's parent (default: the context's namespace, else default)")
	c.deadline.register(fs)
}

// connect reads the manifests and connects within ctx (deadline.start); writes checks the
// context against --context and the allow-list first.
func (c *clusterFlags) connect(ctx context.Context, args []string, writes bool, stderr io.Writer) (clustersupport.Session, error) {
	return clustersupport.Open(ctx, c.request(args, writes, stderr))
}

func (c *clusterFlags) request(args []string, writes bool, stderr io.Writer) clustersupport.Request {
	return clustersupport.Request{
		Manifests: args, Stdin: os.Stdin,
		Kubeconfig: c.kubeconfig, KubeconfigBase: c.kubeconfigBase, Context: c.context, Warnings: stderr,
		Writes: writes, ExplicitContext: c.fs.Changed("context"), Allowed: c.allowed,
		ApplySet: c.applyset, ApplySetNamespace: c.applysetNS,
	}
}

// needManifests checks that a command got its MANIFESTS arguments.
func needManifests(fs *pflag.FlagSet, command string) error {
	if fs.NArg() == 0 {
		return fmt.Errorf("krm %s needs MANIFESTS: rendered YAML files, - for stdin (see krm help %s)", command, strings.Fields(command)[0])
	}
	return nil
}

// clusterExit is the exit status of a cluster command's error: 2 for bad input, a context
// it may not use or a krm without a Kubernetes client (the lean renderer), 1 for a failure
// of the cluster's.
func clusterExit(err error) int {
	if errors.Is(err, yamlread.ErrMalformed) || errors.Is(err, clustersupport.ErrContext) || errors.Is(err, clustersupport.ErrNoClient) {
		return 2
	}
	return 1
}
