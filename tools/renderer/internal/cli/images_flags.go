package cli

import (
	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/images"
)

// imageFlags are the --image flags of krm build and krm render, which pin images.
type imageFlags []string

func (f *imageFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar((*[]string)(f), "image", nil, "name=NAME,digest=sha256:...[,newName=NAME][,newTag=TAG]: append this entry to the kustomization's images "+
		"(as if written at the end of its kustomization file); digestFile=FILE and newNameFile=FILE read the digest "+
		"or new name from a file, dir=DIR appends it to the kustomization in DIR (a base read from its sources) instead, "+
		"source=LABEL names it in errors and provenance (repeatable, applied in order)")
}

// specs parses the --image flags.
func (f imageFlags) specs() ([]images.Spec, error) {
	var specs []images.Spec
	for _, v := range f {
		s, err := images.Parse(v)
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	return specs, nil
}
