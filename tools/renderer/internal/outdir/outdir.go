// Package outdir writes a rendered YAML stream as one file per object into a
// directory, as `kustomize build -o DIR` does when DIR is a directory.
package outdir

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/atomicfile"
)

// File is one file of the directory: its name and contents.
type File struct {
	Name string
	Data []byte
}

// Files splits the manifests into kustomize's files: for each object
// GROUP_VERSION_KIND_NAME.yaml in lower case (empty parts left out of the
// GVK), prefixed with NAMESPACE_ when the namespaced objects span more than
// one namespace (no namespace counts as "default"). Each file holds the
// object with its keys sorted, as sigs.k8s.io/yaml prints it. Objects whose
// names collide overwrite each other in stream order within a namespace;
// kustomize's order between namespaces is random, krm's is sorted with the
// cluster-scoped objects last, as in kustomize.
func Files(manifests []byte) ([]File, error) {
	m, err := resmap.NewFactory(resource.NewFactory(&hasher.Hasher{})).NewResMapFromBytes(manifests)
	if err != nil {
		return nil, err
	}
	byNamespace := m.GroupedByCurrentNamespace()
	namespaces := make([]string, 0, len(byNamespace))
	for ns := range byNamespace {
		namespaces = append(namespaces, ns)
	}
	sort.Strings(namespaces)
	var files []File
	add := func(name string, r *resource.Resource) error {
		obj, err := r.Map()
		if err != nil {
			return err
		}
		y, err := yaml.Marshal(obj)
		if err != nil {
			return fmt.Errorf("%s: %w", r.CurId(), err)
		}
		files = append(files, File{Name: name, Data: y})
		return nil
	}
	for _, ns := range namespaces {
		for _, r := range byNamespace[ns] {
			name := fileName(r)
			if len(byNamespace) > 1 {
				name = strings.ToLower(ns) + "_" + name
			}
			if err := add(name, r); err != nil {
				return nil, err
			}
		}
	}
	for _, r := range m.ClusterScoped() {
		if err := add(fileName(r), r); err != nil {
			return nil, err
		}
	}
	return files, nil
}

func fileName(r *resource.Resource) string {
	return strings.ToLower(r.GetGvk().StringWoEmptyField()) + "_" + strings.ToLower(r.GetName()) + ".yaml"
}

// Write writes the files of manifests into dir (which must exist), each
// atomically; files already in dir that krm does not write stay.
func Write(dir string, manifests []byte) error {
	files, err := Files(manifests)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := atomicfile.WriteFile(filepath.Join(dir, f.Name), f.Data); err != nil {
			return err
		}
	}
	return nil
}
