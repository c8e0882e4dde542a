package accumulate

import (
	"errors"

	"sigs.k8s.io/kustomize/api/resmap"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/origins"
)

// ErrNoOrigins is returned when a kustomization that tracks origins (its
// buildMetadata asks) includes a base whose snapshot was rendered without.
var ErrNoOrigins = errors.New("was rendered without origins")

// RebaseOrigins prefixes the paths recorded in origin and transformation
// annotations with dir: a prebuilt base records them relative to itself,
// while kustomize records them relative to the top kustomization.
func RebaseOrigins(m resmap.ResMap, dir string) error {
	for _, r := range m.Resources() {
		if err := origins.Rebase(r, dir); err != nil {
			return err
		}
	}
	return nil
}
