// Command set_team is a tiny exec KRM function, the one examples/functions/exec uses: it
// reads a ResourceList on stdin, sets the annotation example.com/team to spec.team of its
// function config on the items whose kind is in spec.kinds (every item when spec.kinds is
// empty), and writes the ResourceList on stdout.
//
//	apiVersion: example.com/v1
//	kind: SetTeam
//	metadata:
//	  name: set-team
//	  annotations:
//	    config.kubernetes.io/function: |
//	      exec:
//	        path: ./fn/set-team
//	spec:
//	  team: payments
//	  kinds: [Deployment]
//
// Under Bazel, krm_function wraps it and the functions attribute of krm_kustomization maps
// ./fn/set-team to it. Outside Bazel, build it there:
// go build -o examples/functions/exec/fn/set-team ./examples/functions/set_team
package main

import (
	"fmt"
	"os"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Annotation is the annotation set_team sets.
const Annotation = "example.com/team"

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "set_team: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	rw := &kio.ByteReadWriter{Reader: os.Stdin, Writer: os.Stdout, OmitReaderAnnotations: true, KeepReaderAnnotations: true}
	items, err := rw.Read()
	if err != nil {
		return err
	}
	var spec struct {
		Team  string   `yaml:"team"`
		Kinds []string `yaml:"kinds"`
	}
	if rw.FunctionConfig != nil {
		if s := rw.FunctionConfig.Field("spec"); s != nil {
			if err := s.Value.YNode().Decode(&spec); err != nil {
				return fmt.Errorf("spec: %w", err)
			}
		}
	}
	if spec.Team == "" {
		return fmt.Errorf("spec.team must be set")
	}
	for _, item := range items {
		if !selected(item.GetKind(), spec.Kinds) {
			continue
		}
		if err := item.PipeE(yaml.SetAnnotation(Annotation, spec.Team)); err != nil {
			return err
		}
	}
	return rw.Write(items)
}

func selected(kind string, kinds []string) bool {
	if len(kinds) == 0 {
		return true
	}
	for _, k := range kinds {
		if k == kind {
			return true
		}
	}
	return false
}
