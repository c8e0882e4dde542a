package main

import (
	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/images"
)

// imageFlag is the flag of krm build and krm render that pins an image.
const imageFlag = "image"

// addImageFlag adds --image to a command's flags.
func addImageFlag(fs *pflag.FlagSet) {
	fs.StringArray(imageFlag, nil, "name=NAME,digest=sha256:...[,newName=NAME][,newTag=TAG]: append this entry to the kustomization's images "+
		"(as if written at the end of its kustomization file); digestFile=FILE and newNameFile=FILE read the digest "+
		"or new name from a file, dir=DIR appends it to the kustomization in DIR (a base read from its sources) instead, "+
		"source=LABEL names it in errors and provenance (repeatable, applied in order)")
}

// imageSpecs parses the --image flags.
func imageSpecs(fs *pflag.FlagSet) ([]images.Spec, error) {
	values, err := fs.GetStringArray(imageFlag)
	if err != nil {
		return nil, err
	}
	var specs []images.Spec
	for _, v := range values {
		s, err := images.Parse(v)
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	return specs, nil
}
