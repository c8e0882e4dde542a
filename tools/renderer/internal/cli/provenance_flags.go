package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/images"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provenance"
)

// provenanceFlags are the flags build and render share for provenance.
type provenanceFlags struct {
	enabled       bool
	manifest      string
	workspaceRoot string
	labelMap      []string
}

func (p *provenanceFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&p.enabled, "provenance", false,
		"annotate every object with its origin, the transformers that changed it and its inputs digest (docs/provenance.md)")
	fs.StringVar(&p.manifest, "provenance-manifest", "", "write the provenance manifest (JSON) to this file; implies --provenance")
	fs.StringVar(&p.workspaceRoot, "workspace-root", "", "provenance paths are relative to this directory (default: the current directory)")
	fs.StringArrayVar(&p.labelMap, "label-map", nil, "DIR=LABEL: the Bazel label of the kustomization in DIR, recorded in provenance (repeatable)")
}

// options returns the provenance options, or nil when provenance is off.
func (p *provenanceFlags) options() (*provenance.Options, error) {
	if !p.enabled && p.manifest == "" {
		if p.workspaceRoot != "" || len(p.labelMap) > 0 {
			return nil, fmt.Errorf("--workspace-root and --label-map need --provenance")
		}
		return nil, nil
	}
	labels, err := dirMap("label-map", "DIR=LABEL", p.labelMap)
	if err != nil {
		return nil, err
	}
	return &provenance.Options{WorkspaceRoot: p.workspaceRoot, Labels: labels}, nil
}

// shared parses the flags build and render share: provenance and --image.
func shared(p *provenanceFlags, imgs imageFlags) (*provenance.Options, []images.Spec, error) {
	prov, err := p.options()
	if err != nil {
		return nil, nil, err
	}
	specs, err := imgs.specs()
	if err != nil {
		return nil, nil, err
	}
	return prov, specs, nil
}

// dirMap parses the values of a repeatable DIR=VALUE flag.
func dirMap(flag, want string, values []string) (map[string]string, error) {
	m := map[string]string{}
	for _, v := range values {
		dir, val, ok := strings.Cut(v, "=")
		if !ok || dir == "" || val == "" {
			return nil, fmt.Errorf("--%s %q: want %s", flag, v, want)
		}
		m[dir] = val
	}
	return m, nil
}
