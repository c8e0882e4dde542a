package helm

import (
	"bytes"
	"fmt"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/releaseutil"
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

// render does what `helm template` does for the helm arguments kustomize
// builds from c (an install in client-only dry-run mode, pkg/action), with
// the lighter packages under it: values and capabilities (chartutil), the
// template engine without a cluster (`lookup` finds nothing), manifests
// sorted in install order with hooks apart (releaseutil). It prints the CRDs
// (includeCRDs), the manifests, then the hooks, as helm template does.
func render(ch *localChart, vals map[string]interface{}, c types.HelmChart) ([]byte, error) {
	name, err := releaseName(c)
	if err != nil {
		return nil, err
	}
	if err := installable(ch); err != nil {
		return nil, err
	}
	caps := chartutil.DefaultCapabilities.Copy()
	if c.KubeVersion != "" {
		kv, err := chartutil.ParseKubeVersion(c.KubeVersion)
		if err != nil {
			return nil, fmt.Errorf("invalid kube version '%s': %s", c.KubeVersion, err)
		}
		caps.KubeVersion = *kv
	}
	caps.APIVersions = append(caps.APIVersions, c.ApiVersions...)
	if err := chartutil.ValidateReleaseName(name); err != nil {
		return nil, fmt.Errorf("release name %q: %w", name, err)
	}
	if err := chartutil.ProcessDependenciesWithMerge(ch.Chart, vals); err != nil {
		return nil, err
	}
	ns := c.Namespace
	if ns == "" {
		ns = defaultNamespace
	}
	opts := chartutil.ReleaseOptions{Name: name, Namespace: ns, Revision: 1, IsInstall: true}
	top, err := chartutil.ToRenderValuesWithSchemaValidation(ch.Chart, vals, opts, caps, false)
	if err != nil {
		return nil, err
	}
	if kv := ch.Metadata.KubeVersion; kv != "" && !chartutil.IsCompatibleRange(kv, caps.KubeVersion.String()) {
		return nil, fmt.Errorf("chart requires kubeVersion: %s which is incompatible with Kubernetes %s", kv, caps.KubeVersion.String())
	}
	files, err := (&engine.Engine{}).Render(ch.Chart, top)
	if err != nil {
		return nil, err
	}
	// NOTES.txt is rendered (so its errors count) but is not a manifest.
	for f := range files {
		if strings.HasSuffix(f, "NOTES.txt") {
			delete(files, f)
		}
	}
	hooks, manifests, err := releaseutil.SortManifests(files, nil, releaseutil.InstallOrder)
	if err != nil {
		return nil, err
	}
	var doc bytes.Buffer
	if c.IncludeCRDs {
		for _, crd := range ch.CRDObjects() {
			fmt.Fprintf(&doc, "---\n# Source: %s\n%s\n", crd.Filename, crd.File.Data)
		}
	}
	for _, m := range manifests {
		fmt.Fprintf(&doc, "---\n# Source: %s\n%s\n", m.Name, m.Content)
	}
	var out bytes.Buffer
	fmt.Fprintln(&out, strings.TrimSpace(doc.String()))
	if !c.SkipHooks {
		for _, h := range hooks {
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
		return templateName(c.NameTemplate)
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
	var missing []string
	for _, d := range ch.Metadata.Dependencies {
		found := false
		for _, sub := range ch.Dependencies() {
			found = found || sub.Name() == d.Name
		}
		if !found {
			missing = append(missing, d.Name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("An error occurred while checking for chart dependencies. You may need to run `helm dependency build` "+
			"to fetch missing dependencies: found in Chart.yaml, but missing in charts/ directory: %s; "+
			"vendor them into the chart's charts/ directory and declare them as inputs", strings.Join(missing, ", "))
	}
	return nil
}

// templateName renders nameTemplate as helm does (text/template with
// sprig's functions, no data).
func templateName(nameTemplate string) (string, error) {
	t, err := template.New("name-template").Funcs(sprig.TxtFuncMap()).Parse(nameTemplate)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, nil); err != nil {
		return "", err
	}
	return b.String(), nil
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
