package helm

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/release"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/kio"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// defaultReleaseName is the name `helm template` gives a release when it is
// not given one (kustomize then passes --generate-name, which helm ignores
// because template already set this name).
const defaultReleaseName = "release-name"

// defaultNamespace is helm's namespace without --namespace and without a
// kubeconfig context (builds never read the user's kubeconfig).
const defaultNamespace = "default"

// render runs what `helm template` runs for the helm arguments kustomize
// builds from c: an install in client-only dry-run mode (no cluster;
// `lookup` finds nothing), then prints the manifests followed by the hooks.
func render(ch *localChart, vals map[string]interface{}, c types.HelmChart) ([]byte, error) {
	name, err := releaseName(c)
	if err != nil {
		return nil, err
	}
	if err := installable(ch); err != nil {
		return nil, err
	}
	install := action.NewInstall(&action.Configuration{Log: func(string, ...interface{}) {}})
	install.DryRun = true
	install.DryRunOption = "true"
	install.ClientOnly = true
	install.Replace = true
	install.ReleaseName = name
	install.Namespace = c.Namespace
	if install.Namespace == "" {
		install.Namespace = defaultNamespace
	}
	install.IncludeCRDs = c.IncludeCRDs
	install.DisableHooks = c.SkipHooks
	install.APIVersions = chartutil.VersionSet(c.ApiVersions)
	if c.KubeVersion != "" {
		kv, err := chartutil.ParseKubeVersion(c.KubeVersion)
		if err != nil {
			return nil, fmt.Errorf("invalid kube version '%s': %s", c.KubeVersion, err)
		}
		install.KubeVersion = kv
	}
	rel, err := install.RunWithContext(context.Background(), ch.Chart, vals)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	fmt.Fprintln(&out, strings.TrimSpace(rel.Manifest))
	if !c.SkipHooks {
		for _, h := range rel.Hooks {
			if c.SkipTests && isTestHook(h) {
				continue
			}
			fmt.Fprintf(&out, "---\n# Source: %s\n%s\n", h.Path, h.Manifest)
		}
	}
	return out.Bytes(), nil
}

// releaseName is the release name helm settles on for kustomize's arguments:
// releaseName, else nameTemplate rendered, else helm template's default.
func releaseName(c types.HelmChart) (string, error) {
	switch {
	case c.ReleaseName != "" && c.NameTemplate != "":
		return "", fmt.Errorf("cannot set --name-template and also specify a name")
	case c.ReleaseName != "":
		return c.ReleaseName, nil
	case c.NameTemplate != "":
		return action.TemplateName(c.NameTemplate)
	}
	return defaultReleaseName, nil
}

// installable refuses library charts, and charts whose dependencies are not
// vendored under charts/, as helm template does.
func installable(ch *localChart) error {
	switch ch.Metadata.Type {
	case "", "application":
	default:
		return fmt.Errorf("%s charts are not installable", ch.Metadata.Type)
	}
	if req := ch.Metadata.Dependencies; req != nil {
		if err := action.CheckDependencies(ch.Chart, req); err != nil {
			return fmt.Errorf("%w: vendor the dependencies into the chart's charts/ directory (`helm dependency build`) and declare them as inputs", err)
		}
	}
	return nil
}

func isTestHook(h *release.Hook) bool {
	for _, e := range h.Events {
		if e == release.HookTest {
			return true
		}
	}
	return false
}

// readNodes reads the YAML documents of helm's output, as kustomize does
// when the stream as a whole does not parse.
func readNodes(out []byte) ([]*kyaml.RNode, error) {
	r := &kio.ByteReader{Reader: bytes.NewBuffer(out), OmitReaderAnnotations: true}
	return r.Read()
}
