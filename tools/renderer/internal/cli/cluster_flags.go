package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

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
	fs                   *pflag.FlagSet
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
}

// connect reads the manifests and connects; writes checks the context against --context and
// the allow-list first.
func (c *clusterFlags) connect(args []string, writes bool, stderr io.Writer) (clustersupport.Session, error) {
	return clustersupport.Open(context.Background(), c.request(args, writes, stderr))
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
