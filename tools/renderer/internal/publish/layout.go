package publish

import (
	"fmt"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/hydrated"
)

// The layout of a published branch is package hydrated's (docs/publish.md).
// krm owns the root's hydrator.metadata and every file named manifest.yaml:
// a manifest.yaml whose deployment is no longer published is removed (and
// with it the directory, when nothing else is in it); other files stay.

// Deployment is one deployment to publish.
type Deployment struct {
	// Path is its directory in the branch: slash-separated, relative.
	Path string
	// Manifests is the file holding its rendered manifests.
	Manifests string
}

// checkDeployments checks each path and that no two deployments share one.
func checkDeployments(ds []Deployment) error {
	if len(ds) == 0 {
		return fmt.Errorf("no deployments to publish")
	}
	seen := map[string]string{}
	for _, d := range ds {
		if err := hydrated.CheckPath(d.Path); err != nil {
			return fmt.Errorf("deployment %s=%s: %w", d.Path, d.Manifests, err)
		}
		if prev, ok := seen[d.Path]; ok {
			return fmt.Errorf("deployment path %s is given twice (%s and %s)", d.Path, prev, d.Manifests)
		}
		seen[d.Path] = d.Manifests
	}
	return nil
}

// metadataBytes is hydrator.metadata of a publish.
func metadataBytes(drySha, repoURL string, commands []string, ds []Deployment) []byte {
	m := hydrated.Metadata{DrySha: drySha, RepoURL: repoURL, Commands: commands}
	for _, d := range ds {
		m.Deployments = append(m.Deployments, d.Path)
	}
	return m.Bytes()
}
