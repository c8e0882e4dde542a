// Package helmsupport is where a krm built with Helm registers its chart
// inflator (package helm), so that the packages configuring generators do
// not link Helm themselves: the default build registers one that runs
// krm_helm instead (package handoff), and the lean renderer (krm_nohelm,
// docs/architecture.md) has none and says so.
package helmsupport

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/resmap"
)

// Kind is the builtin generator kind of helmCharts.
const Kind = "HelmChartInflationGenerator"

// Register is set by package helm when it is linked in.
var Register func() resmap.GeneratorPlugin

// New returns the chart inflator, or, in a krm built without Helm, one that
// refuses its configuration.
func New() resmap.GeneratorPlugin {
	if Register != nil {
		return Register()
	}
	return absent{}
}

type absent struct{}

func (absent) Config(h *resmap.PluginHelpers, _ []byte) error {
	if gc := h.GeneralConfig(); gc == nil || !gc.HelmConfig.Enabled {
		return fmt.Errorf("must specify --enable-helm")
	}
	return fmt.Errorf("this krm was built without Helm (krm_nohelm) and inflates no chart: " +
		"under Bazel, rules_krm runs it for the actions whose srcs hold no chart, so add the chart's files " +
		"(its Chart.yaml, or the packaged .tgz) to srcs of the krm_kustomization inflating it; " +
		"elsewhere use the full renderer, @rules_krm//tools/renderer:krm")
}

func (absent) Generate() (resmap.ResMap, error) {
	return nil, fmt.Errorf("helm support is not built in")
}
