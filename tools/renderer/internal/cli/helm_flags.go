package cli

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/api/types"
)

// helmFlags are kustomize's flags for helmCharts.
type helmFlags struct {
	enabled, debug bool
	command        string
	apiVersions    []string
	kubeVersion    string
}

func (h *helmFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&h.enabled, "enable-helm", false,
		"allow helmCharts (as kustomize requires); charts are rendered in-process from local chart files, never pulled")
	fs.StringVar(&h.command, "helm-command", "helm", "accepted for kustomize compatibility and ignored: krm renders charts without a helm binary")
	fs.StringArrayVar(&h.apiVersions, "helm-api-versions", nil, "Kubernetes api versions used by Helm for Capabilities.APIVersions")
	fs.StringVar(&h.kubeVersion, "helm-kube-version", "", "Kubernetes version used by Helm for Capabilities.KubeVersion")
	fs.BoolVar(&h.debug, "helm-debug", false, "enable debug output from the Helm chart inflator generator (accepted for kustomize compatibility)")
}

// config is the Helm configuration of a build (the capability flags
// override every chart's, as in kustomize); it notes on stderr that a
// --helm-command is not used.
func (h *helmFlags) config(stderr io.Writer) types.HelmConfig {
	if h.command != "helm" {
		fmt.Fprintf(stderr, "note: --helm-command %s is ignored: krm renders Helm charts in-process\n", h.command)
	}
	return types.HelmConfig{Enabled: h.enabled, Command: h.command, ApiVersions: h.apiVersions, KubeVersion: h.kubeVersion, Debug: h.debug}
}

// renderHelm is the Helm configuration of `krm render` (the Bazel action):
// always enabled, since every chart file is a declared input of the rule.
var renderHelm = types.HelmConfig{Enabled: true, Command: "helm"}
