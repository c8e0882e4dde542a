package accumulate

import (
	"path/filepath"

	"sigs.k8s.io/kustomize/api/resmap"
)

// RebaseOrigins prefixes the paths recorded in origin and transformation
// annotations with dir: a prebuilt base records them relative to itself,
// while kustomize records them relative to the top kustomization.
func RebaseOrigins(m resmap.ResMap, dir string) error {
	if dir == "" || dir == "." {
		return nil
	}
	for _, r := range m.Resources() {
		o, err := r.GetOrigin()
		if err != nil {
			return err
		}
		if o != nil {
			if o.Path != "" {
				o.Path = filepath.Join(dir, o.Path)
			}
			if o.ConfiguredIn != "" {
				o.ConfiguredIn = filepath.Join(dir, o.ConfiguredIn)
			}
			if err := r.SetOrigin(o); err != nil {
				return err
			}
		}
		ts, err := r.GetTransformations()
		if err != nil {
			return err
		}
		if len(ts) == 0 {
			continue
		}
		if err := r.ClearTransformations(); err != nil {
			return err
		}
		for _, t := range ts {
			if t.Path != "" {
				t.Path = filepath.Join(dir, t.Path)
			}
			if t.ConfiguredIn != "" {
				t.ConfiguredIn = filepath.Join(dir, t.ConfiguredIn)
			}
			if err := r.AddTransformation(t); err != nil {
				return err
			}
		}
	}
	return nil
}
