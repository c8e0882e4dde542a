package build

import (
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/images"
)

// pinImages appends the images the build pins (Options.Images) to the top
// kustomization's `images`, as if its file ended with them, and tells
// provenance where their digests came from.
func pinImages(fsys filesys.FileSystem, t *accumulate.Target, env *accumulate.Env, specs []images.Spec) error {
	if len(specs) == 0 {
		return nil
	}
	rs, err := images.Resolve(fsys, specs)
	if err != nil {
		return err
	}
	k := t.Kustomization()
	images.Append(&k.Kustomization, rs)
	if env.Prov != nil {
		env.Prov.PinImages(filepath.Join(t.Loader().Root(), k.FileName), images.Pinned(rs))
	}
	return nil
}
