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
	var refused error
	matches := 0
	for _, kf := range konfig.RecognizedKustomizationFileNames() {
		path := l.root.Join(kf)
		if !l.fs.Exists(path) {
			continue
		}
		read := path
		if l.restrictor == RootOnly {
			// The root check of every other file: kustomize's loader refuses a
			// kustomization file that is a link out of its directory, which
			// then has none.
			r, err := l.confine(path, path)
			if err != nil {
				if refused == nil {
					refused = err
				}
				continue
			}
			read = r
		}
		c, err := l.fs.ReadFile(read)
		if err != nil {
			return nil, err
		}
		matches++
		content, name = c, kf
	}
	switch matches {
	case 0:
		missing := fmt.Errorf("unable to find one of %s in directory '%s'",
			quoteAll(konfig.RecognizedKustomizationFileNames()), l.root)
		if refused != nil {
			return nil, fmt.Errorf("%w: %w", missing, refused)
		}
		return nil, l.withHint("kustomization.yaml", missing)
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
