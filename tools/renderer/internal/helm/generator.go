// Package helm is kustomize's HelmChartInflationGenerator (the helmCharts
// field) rendered in-process with Helm's Go packages: no helm binary, no
// cluster, no network. A chart directory or packaged chart (.tgz) under
// chartHome is read, like kustomize's, without the load restrictor (under
// Bazel, from the declared inputs only); values files go through the loader.
package helm

import (
	"fmt"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/errors"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/helmsupport"
)

// Kind is the builtin generator kind this package implements.
const Kind = helmsupport.Kind

func init() { helmsupport.Register = New }

// The valuesMerge modes kustomize accepts, in the order its error lists them.
const (
	mergeMerge    = "merge"
	mergeOverride = "override"
	mergeReplace  = "replace"
)

// Generator inflates one chart. It is configured like kustomize's builtin:
// helmGlobals and one helmCharts entry inline in one YAML object.
type Generator struct {
	h *resmap.PluginHelpers
	types.HelmGlobals
	types.HelmChart
	// chart is the chart Generate inflated.
	chart *localChart
	// defaultValuesFile says valuesFile was not given: kustomize then uses
	// the chart's values.yaml (from the archive for a packaged chart).
	defaultValuesFile bool
}

var _ resmap.GeneratorPlugin = (*Generator)(nil)

// New returns an unconfigured generator.
func New() resmap.GeneratorPlugin { return &Generator{} }

// Config reads the chart's configuration. Like kustomize it refuses to run
// unless Helm is enabled (--enable-helm), and the CLI's kube version and
// API versions take precedence over the chart's.
func (g *Generator) Config(h *resmap.PluginHelpers, config []byte) error {
	gc := h.GeneralConfig()
	if gc == nil {
		return fmt.Errorf("unable to access general config")
	}
	if !gc.HelmConfig.Enabled {
		return fmt.Errorf("must specify --enable-helm")
	}
	g.h = h
	if err := yaml.Unmarshal(config, g); err != nil {
		return err
	}
	if gc.HelmConfig.KubeVersion != "" {
		g.KubeVersion = gc.HelmConfig.KubeVersion
	}
	if len(gc.HelmConfig.ApiVersions) != 0 {
		g.ApiVersions = gc.HelmConfig.ApiVersions
	}
	return g.validate()
}

// validate checks the arguments and fills in kustomize's defaults, with
// kustomize's messages.
func (g *Generator) validate() error {
	if g.Name == "" {
		return fmt.Errorf("chart name cannot be empty")
	}
	// kustomize passes these to a helm process as positional arguments.
	if strings.HasPrefix(g.ReleaseName, "-") {
		return fmt.Errorf("releaseName must not start with '-', got %q", g.ReleaseName)
	}
	if strings.HasPrefix(g.Name, "-") {
		return fmt.Errorf("chart name must not start with '-', got %q", g.Name)
	}
	if g.ChartHome == "" {
		g.ChartHome = types.HelmDefaultHome
	}
	if g.ValuesFile == "" {
		g.defaultValuesFile = true
		g.ValuesFile = filepath.Join(g.chartHome(), g.Name, "values.yaml")
	}
	for i, file := range g.AdditionalValuesFiles {
		if _, err := g.h.Loader().Load(file); err != nil {
			return errors.WrapPrefixf(err, "could not load additionalValuesFile")
		}
		g.AdditionalValuesFiles[i] = filepath.Join(g.h.Loader().Root(), file)
	}
	switch g.ValuesMerge {
	case "":
		g.ValuesMerge = mergeOverride
	case mergeMerge, mergeOverride, mergeReplace:
	default:
		return fmt.Errorf("valuesMerge must be one of %v", []string{mergeMerge, mergeOverride, mergeReplace})
	}
	return nil
}

// chartHome is the absolute directory the chart is looked up in. As in
// kustomize, a chart pulled from a repository at a version lives in a
// directory of its own, <chartHome>/<name>-<version>.
func (g *Generator) chartHome() string {
	home := g.ChartHome
	if !filepath.IsAbs(home) {
		home = filepath.Join(g.h.Loader().Root(), home)
	}
	if g.Version != "" && g.Repo != "" {
		return filepath.Join(home, fmt.Sprintf("%s-%s", g.Name, g.Version))
	}
	return home
}

// Generate renders the chart into resources marked as Helm-generated (the
// namespace transformer treats those specially).
func (g *Generator) Generate() (resmap.ResMap, error) {
	ch, err := loadChart(g.h.Loader(), g.chartHome(), g.HelmChart)
	if err != nil {
		return nil, err
	}
	g.chart = ch
	vals, err := g.values(ch)
	if err != nil {
		return nil, err
	}
	out, err := render(ch, vals, g.HelmChart)
	if err != nil {
		return nil, fmt.Errorf("helm chart %q (%s): %w", g.Name, g.rel(ch.dir), err)
	}
	rm, err := g.resources(out)
	if err != nil {
		return nil, err
	}
	for _, r := range rm.Resources() {
		if err := r.RNode.PipeE(kyaml.SetAnnotation(konfig.HelmGeneratedAnnotation, "true")); err != nil {
			return nil, fmt.Errorf("failed to set helm annotation: %w", err)
		}
	}
	return rm, nil
}

// InflatedChart names the chart Generate inflated, for provenance: name and
// version from its Chart.yaml and the digest of its files.
func (g *Generator) InflatedChart() (name, version, sha256 string) {
	if g.chart == nil {
		return g.Name, g.Version, ""
	}
	return g.chart.Name(), g.chart.Metadata.Version, g.chart.digest
}

// resources parses Helm's output as kustomize does: the whole stream, or
// else the documents kyaml can read.
func (g *Generator) resources(out []byte) (resmap.ResMap, error) {
	rm, err := g.h.ResmapFactory().NewResMapFromBytes(out)
	if err == nil {
		return rm, nil
	}
	nodes, rerr := readNodes(out)
	if rerr != nil {
		return nil, fmt.Errorf("error reading helm output: %w", rerr)
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("could not parse bytes into resource map: %w", err)
	}
	rm, err = g.h.ResmapFactory().NewResMapFromRNodeSlice(nodes)
	if err != nil {
		return nil, fmt.Errorf("could not parse rnode slice into resource map: %w", err)
	}
	return rm, nil
}

// rel is path relative to the kustomization root when it is below it.
func (g *Generator) rel(path string) string { return relPath(g.h.Loader().Root(), path) }
