package render

import (
	"fmt"
	"path/filepath"
	"sort"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/images"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
)

// imagePins are the images a build pins (Options.Images) by the absolute
// directory of the kustomization they belong to: the top's, or with `dir=` a
// base's that the build reads from its sources.
type imagePins struct {
	byDir map[string][]images.Resolved
	used  map[string]bool
	obs   observe.Observer
}

// newImagePins reads the specs' files; top is the rendered directory.
func newImagePins(fsys filesys.FileSystem, top string, specs []images.Spec, obs observe.Observer) (*imagePins, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	rs, err := images.Resolve(fsys, specs)
	if err != nil {
		return nil, err
	}
	p := &imagePins{byDir: map[string][]images.Resolved{}, used: map[string]bool{}, obs: obs}
	for _, r := range rs {
		dir := top
		if r.Dir != "" {
			if dir, err = filepath.Abs(r.Dir); err != nil {
				return nil, err
			}
		}
		p.byDir[dir] = append(p.byDir[dir], r)
	}
	return p, nil
}

// configure appends the pins of the kustomization in root to its `images`,
// as if its file ended with them, and tells the observer where their
// digests came from. It is accumulate.Env.Configure: called as each file is read.
func (p *imagePins) configure(root string, k *load.Kustomization) {
	rs, ok := p.byDir[root]
	if !ok {
		return
	}
	images.Append(&k.Kustomization, rs)
	p.used[root] = true
	p.obs.Pinned(filepath.Join(root, k.FileName), images.Pinned(rs))
}

// checkUsed fails for pins of a directory the build never read: a typo, or a
// base the tree does not include (or reads from a snapshot, already pinned).
func (p *imagePins) checkUsed() error {
	var unused []string
	for dir := range p.byDir {
		if !p.used[dir] {
			unused = append(unused, dir)
		}
	}
	if len(unused) == 0 {
		return nil
	}
	sort.Strings(unused)
	r := p.byDir[unused[0]][0]
	return fmt.Errorf("--image name=%s,dir=%s: the build reads no kustomization from its sources in %s",
		r.Image.Name, r.Dir, load.Rel(unused[0]))
}
