package accumulate

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"

	"sigs.k8s.io/kustomize/kyaml/openapi"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
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
	if len(s.Settings) > 0 && e.openAPI == nil {
		e.openAPI = s
	}
	return openapi.SetSchema(s.Settings, s.Schema, isRoot)
}

// kyaml's OpenAPI schema is a package variable of kyaml's that every merge
// and patch reads and that cannot be given per build; kyaml parses it on
// first use and reads some of it without its lock. So builds take turns
// until the built-in schema is parsed, then builds with the built-in
// schema share it; a build whose tree sets openapi has it to itself.
var (
	schemaGate sync.RWMutex
	// schemaShared says the built-in schema is parsed and in place
	// (guarded by schemaGate).
	schemaShared bool
	// schemaWaiting counts the builds waiting for their turn.
	schemaWaiting atomic.Int32
)

// HoldOpenAPI is called before a build reads or sets the schema and
// returns what ends its hold. A tree that sets openapi (customSchema)
// waits for every other build, starts from the schema state of a fresh
// process (kustomize runs one build per process) and leaves the built-in
// schema behind. A build must not start another while it holds the schema
// (levels.Chain renders bases one after the other). A lone build never
// pays for parsing a schema it does not use.
func HoldOpenAPI(customSchema bool) (release func()) {
	for !customSchema {
		schemaGate.RLock()
		if schemaShared {
			return schemaGate.RUnlock
		}
		schemaGate.RUnlock()
		if release, ok := holdAlone(false); ok {
			return release
		}
	}
	release, _ = holdAlone(true)
	return release
}

// holdAlone waits for the schema to itself; a build with the built-in
// schema that finds it shared by then shares it instead (false).
func holdAlone(customSchema bool) (release func(), ok bool) {
	schemaWaiting.Add(1)
	schemaGate.Lock()
	schemaWaiting.Add(-1)
	if !customSchema && schemaShared {
		schemaGate.Unlock()
		return nil, false
	}
	if customSchema {
		openapi.ResetOpenAPI()
		schemaShared = false
	}
	return func() {
		if customSchema {
			openapi.ResetOpenAPI()
			schemaShared = false
		}
		if !schemaShared && schemaWaiting.Load() > 0 {
			// Builds wait: parse the built-in schema for them to share.
			openapi.SchemaForResourceType(kyaml.TypeMeta{})
			schemaShared = true
		}
		schemaGate.Unlock()
	}, true
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

// schemaRead is the schema file in effect, if one was read: the schema
// decides how patches merge lists, so observers count it as read by every
// transformer it rules.
func (t *Target) schemaRead() *load.Read {
	if o := t.env.openAPI; o != nil && o.SchemaFile != "" {
		return &load.Read{Path: o.SchemaFile, Content: o.Schema, Loaded: true}
	}
	return nil
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
