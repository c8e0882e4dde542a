package genrecord

import "github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"

// Inputs finds an object's inputs digest and kustomization in provenance manifests.
type Inputs struct {
	exact map[Key]found
}

type found struct{ digest, kustomization string }

// NewInputs indexes the objects of the manifests.
func NewInputs(manifests []*provmanifest.Manifest) *Inputs {
	in := &Inputs{exact: map[Key]found{}}
	for _, m := range manifests {
		for _, o := range m.Objects {
			k := Key{Group: o.ID.Group(), Kind: o.ID.Kind, Namespace: o.ID.Namespace, Name: o.ID.Name}
			in.exact[k] = found{o.InputsDigest, m.Kustomization}
		}
	}
	return in
}

// Lookup returns k's digest and kustomization; an object rendered without a namespace (it
// was given one when applied) matches k in any namespace.
func (in *Inputs) Lookup(k Key) (digest, kustomization string) {
	if in == nil {
		return "", ""
	}
	f, ok := in.exact[k]
	if !ok {
		k.Namespace = ""
		f = in.exact[k]
	}
	return f.digest, f.kustomization
}
