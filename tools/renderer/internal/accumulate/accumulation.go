// Package accumulate turns one kustomization into an Accumulation: its
// resources (with bases and components folded in), the field-spec
// configuration and vars it carries, after its generators and transformers
// ran. It is the per-kustomization step; the finishing steps (hash suffixes,
// name references, vars, sorting) belong to package finish.
package accumulate

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// Accumulation is what a kustomization hands to the kustomization that
// includes it: kustomize's ResAccumulator.
type Accumulation struct {
	Resources resmap.ResMap
	Config    *fieldspec.Config
	Vars      types.VarSet
	// VarFiles maps the name of each var to the kustomization file that
	// declares it, as errors name files: kustomize's var errors do not.
	VarFiles map[string]string
	// Observed is what the observer of the build that wrote a snapshot
	// carried in it for Resources (observe.Observer.Carry: provenance's
	// records), until the build that reads it restores it.
	Observed []byte
	// OpenAPI is the first openapi setting met in the subtree of a base
	// read from a snapshot; merging the base applies it, as kustomize
	// applies a base's openapi to the build that includes it.
	OpenAPI *OpenAPISetting
	// HelmUnnamespaced says a helmCharts entry in this tree was rendered
	// without a namespace because no kustomization up to here sets one; an
	// including kustomization with a namespace would have given it its own.
	HelmUnnamespaced bool
	// Origins says Resources carry origin and transformation annotations:
	// they were accumulated with origin tracking (buildMetadata).
	Origins bool
}

// OpenAPISetting is a kustomization's openapi field with the schema it
// names (when it names a file).
type OpenAPISetting struct {
	Settings map[string]string
	Schema   []byte
	// SchemaFile is the absolute path of the schema file, if one was read
	// in this build (provenance lists it as read by the patches it rules).
	SchemaFile string
	// Label is the Bazel label of the snapshot that carried it, if any.
	Label string
}

// NewAccumulation returns an empty accumulation.
func NewAccumulation() *Accumulation {
	return &Accumulation{Resources: resourcemap.New(), Config: &fieldspec.Config{}, Vars: types.NewVarSet()}
}

// MergeConfig folds c into the accumulated configuration.
func (a *Accumulation) MergeConfig(c *fieldspec.Config) error {
	merged, err := a.Config.Merge(c)
	if err != nil {
		return err
	}
	a.Config = merged
	return nil
}

// Merge appends other's resources (an ID collision is an error) and merges
// its configuration and vars.
func (a *Accumulation) Merge(other *Accumulation) error {
	if err := a.Resources.AppendAll(other.Resources); err != nil {
		return err
	}
	if err := a.MergeConfig(other.Config); err != nil {
		return err
	}
	a.HelmUnnamespaced = a.HelmUnnamespaced || other.HelmUnnamespaced
	if err := a.Vars.MergeSet(other.Vars); err != nil {
		return err
	}
	for name, file := range other.VarFiles {
		a.AddVarFile(name, file)
	}
	return nil
}

// AddVarFile records the kustomization file that declares the var name.
func (a *Accumulation) AddVarFile(name, file string) {
	if a.VarFiles == nil {
		a.VarFiles = map[string]string{}
	}
	a.VarFiles[name] = file
}

// MergeVars records vars declared by the kustomization file and marks the
// resource each var reads from.
func (a *Accumulation) MergeVars(incoming []types.Var, file string) error {
	for _, v := range incoming {
		target := resid.NewResIdWithNamespace(v.ObjRef.GVK(), v.ObjRef.Name, v.ObjRef.Namespace)
		match := target.GvknEquals
		if target.Namespace != "" || target.IsClusterScoped() {
			match = target.Equals
		}
		found := a.Resources.GetMatchingResourcesByAnyId(match)
		if len(found) > 1 {
			return fmt.Errorf("found %d resId matches for var %s (unable to disambiguate)", len(found), v)
		}
		if len(found) == 1 {
			found[0].AppendRefVarName(v)
		}
	}
	if err := a.Vars.MergeSlice(incoming); err != nil {
		return err
	}
	for _, v := range incoming {
		a.AddVarFile(v.Name, file)
	}
	return nil
}

// DeepCopy returns an accumulation sharing nothing mutable with a.
func (a *Accumulation) DeepCopy() *Accumulation {
	c := &Accumulation{Resources: a.Resources.DeepCopy(), Config: a.Config.DeepCopy(), Vars: a.Vars.Copy(),
		HelmUnnamespaced: a.HelmUnnamespaced}
	for name, file := range a.VarFiles {
		c.AddVarFile(name, file)
	}
	return c
}
