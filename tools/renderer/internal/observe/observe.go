// Package observe is the one seam through which a build's pipeline tells
// whoever watches it what each step did: load (files read, bases copied or
// restored from snapshots), generate, transform and validate (each step
// run), finish (references and vars resolved) and emit (annotations to
// print). The steps call it unconditionally and never learn who watches;
// a build nobody watches has Nop. Provenance is the one Observer that
// records anything, and keeps all its state to itself.
//
// It is kio.Pipeline.ExecuteWithCallback's idea (kyaml), with a method per
// kind of report rather than one callback: each report carries typed
// facts, and Nop costs an empty call.
package observe

import (
	"sigs.k8s.io/kustomize/api/ifc"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/printer"
)

// Observer is told what one build's steps did. Its methods are called by
// one goroutine at a time, except Loader (files are read ahead in
// parallel) and Annotations (one call per object, in parallel).
type Observer interface {
	// Pinned: the build appended images to the `images` of the
	// kustomization file kustFile (absolute), as if written there.
	Pinned(kustFile string, images []PinnedImage)
	// Loader is the loader a step (or the reading of one file) gets: l,
	// or l telling the observer what is read through it.
	Loader(l *load.Loader) ifc.Loader
	// Read: the resources m were read through ldr (Loader's) for an entry
	// of the resources (or generators, transformers, validators) of the
	// kustomization in the absolute directory dir.
	Read(dir string, ldr ifc.Loader, m resmap.ResMap)
	// Copied: to is a deep copy of from (a base accumulated once, handed
	// to another parent).
	Copied(from, to resmap.ResMap)
	// Carry returns what the observer keeps of m in a snapshot (nil for
	// nothing); Restore gets it back for m, read from that snapshot.
	Carry(m resmap.ResMap) ([]byte, error)
	Restore(m resmap.ResMap, carried []byte) error

	// Step runs step s on m: run does the work, and the observer looks
	// before and after. It returns run's error.
	Step(s *Step, m resmap.ResMap, run func() error) error

	// Referred: a name reference in referrer was resolved to referral.
	Referred(referrer, referral *resource.Resource)
	// VarUsed: $(name) in r was replaced by value, read from source.
	VarUsed(r *resource.Resource, name string, source *resource.Resource, value interface{})

	// Finished: m holds the final objects in output order. It returns
	// what the observer writes beside the manifests (provenance: its
	// manifest), nil for nothing.
	Finished(m resmap.ResMap) ([]byte, error)
	// Annotations are the annotations emit adds to r, the i-th object of
	// Finished's m, as it prints it (r itself is left as it is).
	Annotations(i int, r *resource.Resource) ([]Annotation, error)
}

// Annotation is a metadata annotation emit adds to an object as it prints
// it (provenance's, which never reach the objects the steps see): the
// printer's, which prints it into the printed object.
type Annotation = printer.Annotation

// Role is what a step runs as.
type Role uint8

const (
	Generator Role = iota
	Transformer
	Validator
)

// Kustomization is the kustomization file that configures a step.
type Kustomization struct {
	Dir     string // absolute
	File    string // its name in Dir
	Content []byte
}

// Step is one generator, transformer or validator as a kustomization runs
// it. Only Role, Kind, In and Ordinal are always set; the functions are
// there for an observer that wants more, and cost nothing unless called.
type Step struct {
	Role Role
	Kind string
	// In is the kustomization that configures it (with its field, or by
	// naming Object in a generators/transformers/validators entry).
	In Kustomization
	// Object is the config object of a plugin configured by one.
	Object *resource.Resource
	// Builtin says Kind is one of kustomize's builtin plugins.
	Builtin bool
	// Ordinal is its position among its kustomization's steps of its role
	// (-1 for one the build adds).
	Ordinal int
	// Config returns its configuration (YAML); Redacted, when set, is that
	// configuration without secret values.
	Config   func() ([]byte, error)
	Redacted []byte
	// Loader is what it reads files through (Observer.Loader's), if any.
	Loader ifc.Loader
	// Schema is the OpenAPI schema file in effect, which rules how
	// patches merge lists.
	Schema *load.Read
	// Scope, when set, returns (right before the step runs) every object
	// of m it can change in place, by the selection it makes itself.
	Scope func(m resmap.ResMap) ([]*resource.Resource, error)
	// Report, when set and called before the step runs, has the step list
	// the objects whose printed content it changes (kustomize's internal
	// annotations included); the function it returns gives that list once
	// the step ran. Listing costs a little, hence the asking.
	Report func() func() []*resource.Resource
	// Chart, when set, names the Helm chart a generator inflated (once it ran).
	Chart func() (name, version, sha256 string)
}

// ConfigOf is a Step.Config giving y.
func ConfigOf(y []byte) func() ([]byte, error) { return func() ([]byte, error) { return y, nil } }

// PinnedImage is an `images` entry the build appended (krm --image) and
// the source of its digest (a Bazel label). Provenance prints it as a
// provmanifest.PinnedImage, which has the same fields.
type PinnedImage struct {
	Name    string
	NewName string
	Digest  string
	Source  string
}

// Nop is the observer of a build nobody watches.
type Nop struct{}

var _ Observer = Nop{}

func (Nop) Pinned(string, []PinnedImage)                                {}
func (Nop) Loader(l *load.Loader) ifc.Loader                            { return l }
func (Nop) Read(string, ifc.Loader, resmap.ResMap)                      {}
func (Nop) Copied(_, _ resmap.ResMap)                                   {}
func (Nop) Carry(resmap.ResMap) ([]byte, error)                         { return nil, nil }
func (Nop) Restore(resmap.ResMap, []byte) error                         { return nil }
func (Nop) Step(_ *Step, _ resmap.ResMap, run func() error) error       { return run() }
func (Nop) Referred(_, _ *resource.Resource)                            {}
func (Nop) VarUsed(*resource.Resource, string, *resource.Resource, any) {}
func (Nop) Finished(resmap.ResMap) ([]byte, error)                      { return nil, nil }
func (Nop) Annotations(int, *resource.Resource) ([]Annotation, error) {
	return nil, nil
}
