// Package helmsupport is where a krm built with Helm registers its chart
// inflator (package helm), so that the packages configuring generators do
// not link Helm themselves: a krm built with the krm_nohelm tag (the lean
// renderer, docs/architecture.md) has none and says so.
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
	return fmt.Errorf("this krm was built without Helm support (build tag krm_nohelm): " +
		"render with the full renderer, @rules_krm//tools/renderer:krm (the default toolchain)")
}

func (absent) Generate() (resmap.ResMap, error) {
	return nil, fmt.Errorf("helm support is not built in")
}
