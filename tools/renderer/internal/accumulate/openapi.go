package accumulate

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provenance"

	"sigs.k8s.io/kustomize/kyaml/openapi"
)

// kustomize installs the first `openapi` schema it meets (the top
// kustomization's first, then in the order it enters kustomizations) for
// the rest of the build, in kyaml's process-wide state: a base's schema
// applies to the sibling bases listed after it, the top's to every base,
// and whether a custom schema replaces the built-in one or adds to it
// depends on whether the built-in one was read before. A base rendered on
// its own into a snapshot cannot know any of that, so a tree that sets
// openapi renders its bases from sources (Env.BasesFromSources), and a
// render from snapshots refuses one.

// ErrOpenAPISnapshot is the error for a render from snapshots of a tree
// that sets openapi.
var ErrOpenAPISnapshot = errors.New("sets openapi, whose schema kustomize applies to everything rendered after it: the bases cannot be read from snapshots")

// OpenAPI is the first openapi setting met in this build (the root's, else
// a base's), which a snapshot of this kustomization carries to its parents.
func (e *Env) OpenAPI() *OpenAPISetting { return e.openAPI }

// applyOpenAPI installs s unless a schema is set already (kyaml keeps the
// first one, the root's first) and remembers it as met.
func (e *Env) applyOpenAPI(s *OpenAPISetting, isRoot bool) error {
	if len(s.Settings) > 0 {
		customSchemaUsed = true
		if e.openAPI == nil {
			e.openAPI = s
		}
	}
	return openapi.SetSchema(s.Settings, s.Schema, isRoot)
}

// customSchemaUsed records that a build in this process changed kyaml's
// process-wide OpenAPI schema.
var customSchemaUsed bool

// ResetOpenAPI gives the next build the schema state of a fresh process
// (kustomize runs one build per process) when this build or the previous
// one sets a custom schema; otherwise the parsed default schema is kept.
func ResetOpenAPI(treeUsesOpenAPI bool) {
	if customSchemaUsed || treeUsesOpenAPI {
		openapi.ResetOpenAPI()
		customSchemaUsed = false
	}
}

// setOpenAPI installs the schema a kustomization names under `openapi`
// (kyaml keeps the first one set for the whole build, the root's first).
func setOpenAPI(t *Target, isRoot bool) error {
	settings := t.kust.OpenAPI
	if len(settings) == 0 && !isRoot {
		return nil
	}
	s := &OpenAPISetting{Settings: settings}
	if p, ok := settings["path"]; ok {
		var err error
		if s.Schema, err = t.ldr.Load(p); err != nil {
			return fmt.Errorf("%s: openapi: %w", t.kustPath(), err)
		}
		s.SchemaFile = p
		if !filepath.IsAbs(p) {
			s.SchemaFile = filepath.Join(t.ldr.Root(), p)
		}
	}
	if err := t.env.applyOpenAPI(s, isRoot); err != nil {
		return fmt.Errorf("%s: openapi %v: %w", t.kustPath(), settings, err)
	}
	return nil
}

// recordSchema lists the schema file in effect as read by transformer step
// s: the schema decides how patches merge lists, so it is an input of what
// they change.
func (t *Target) recordSchema(s *provenance.Step) {
	if o := t.env.openAPI; o != nil && o.SchemaFile != "" {
		t.env.Prov.AddReads(s, []load.Read{{Path: o.SchemaFile, Content: o.Schema, Loaded: true}})
	}
}

// SetRootOpenAPI installs the top kustomization's schema settings.
func (t *Target) SetRootOpenAPI() error { return setOpenAPI(t, true) }

// openAPIAcrossSnapshots is the error for merging the snapshot of the base
// at path into a tree that sets openapi (pre's subtree, or this build).
func (t *Target) openAPIAcrossSnapshots(path string, pre *Accumulation) error {
	who, label := t.kustPath(), t.env.Label
	if pre.OpenAPI != nil {
		who, label = fmt.Sprintf("base '%s' (or a base it includes)", path), pre.OpenAPI.Label
	}
	hint := "render the bases from sources (krm render --bases-from-sources)"
	if label != "" {
		hint = "set openapi = True on " + label + " (Gazelle does)"
	}
	return fmt.Errorf("%s %w: %s", who, ErrOpenAPISnapshot, hint)
}

// schemaKey identifies the schema installed so far in this build: a base
// accumulated under one is not reused under another.
func (e *Env) schemaKey() string {
	if e.openAPI == nil {
		return ""
	}
	return fmt.Sprintf("%p", e.openAPI)
}
