package load

import (
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/internal/kustref"
)

// Kustomization is a parsed kustomization file and where it was found.
type Kustomization struct {
	types.Kustomization
	// FileName is the base name of the file (kustomization.yaml, .yml or Kustomization).
	FileName string
	// Content is the file as read (provenance hashes it).
	Content []byte
}

// ReadKustomization finds and parses the kustomization file in the loader's root,
// applying kustomize's legacy-field fixes and strict field checks. Warnings
// about deprecated fields go to warn.
func ReadKustomization(l *Loader, warn io.Writer) (*Kustomization, error) {
	var content []byte
	var name string
	matches := 0
	for _, kf := range konfig.RecognizedKustomizationFileNames() {
		if !l.fs.Exists(l.root.Join(kf)) {
			continue
		}
		c, err := l.fs.ReadFile(l.root.Join(kf))
		if err != nil {
			return nil, err
		}
		matches++
		content, name = c, kf
	}
	switch matches {
	case 0:
		return nil, l.withHint("kustomization.yaml", fmt.Errorf(
			"unable to find one of %s in directory '%s'",
			quoteAll(konfig.RecognizedKustomizationFileNames()), l.root))
	case 1:
	default:
		return nil, fmt.Errorf("found multiple kustomization files under: %s", l.root)
	}
	path := l.root.Join(name)
	k, err := decodeKustomization(content)
	if err != nil {
		return nil, fmt.Errorf("invalid kustomization file %s: %w", path, err)
	}
	if msgs := k.CheckDeprecatedFields(); msgs != nil {
		for _, m := range *msgs {
			fmt.Fprintln(warn, m)
		}
	}
	k.FixKustomization()
	if err := k.CheckEmpty(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if errs := k.EnforceFields(); len(errs) > 0 {
		return nil, fmt.Errorf("failed to read kustomization file %s:\n%s", path, strings.Join(errs, "\n"))
	}
	return &Kustomization{Kustomization: k, FileName: name, Content: content}, nil
}

// InheritsHelmNamespace reports whether a helmCharts entry has no namespace
// while the kustomization sets none (kustref.InheritsHelmNamespace).
func (k *Kustomization) InheritsHelmNamespace() bool {
	return kustref.InheritsHelmNamespace(k.Namespace, k.HelmCharts, func(c types.HelmChart) string { return c.Namespace })
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	return "[" + strings.Join(q, " ") + "]"
}
