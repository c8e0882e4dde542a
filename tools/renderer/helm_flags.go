package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/api/types"
)

// helmFlags are kustomize's flags for helmCharts.
type helmFlags struct {
	enabled bool
	command string
}

func (h *helmFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&h.enabled, "enable-helm", false,
		"allow helmCharts (as kustomize requires); charts are rendered in-process from local chart files, never pulled")
	fs.StringVar(&h.command, "helm-command", "helm", "accepted for kustomize compatibility and ignored: krm renders charts without a helm binary")
}

// config is the Helm configuration of a build; it notes on stderr that a
// --helm-command is not used.
func (h *helmFlags) config(stderr io.Writer) types.HelmConfig {
	if h.command != "helm" {
		fmt.Fprintf(stderr, "note: --helm-command %s is ignored: krm renders Helm charts in-process\n", h.command)
	}
	return types.HelmConfig{Enabled: h.enabled, Command: h.command}
}

// renderHelm is the Helm configuration of `krm render` (the Bazel action):
// always enabled, since every chart file is a declared input of the rule.
var renderHelm = types.HelmConfig{Enabled: true, Command: "helm"}
