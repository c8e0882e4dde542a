// Package finish runs the steps kustomize performs once, on the top
// kustomization's accumulation only: content-hash suffixes, name-reference
// fixing, var substitution and dropping local-config objects.
package finish

import (
	"fmt"
	"log"
	"strings"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
)

// Run applies the finishing steps to acc in place, telling obs which
// objects each object came to depend on; warnings go to warn (nil: log's
// standard logger, through which kustomize prints them).
func Run(acc *accumulate.Accumulation, h *resmap.PluginHelpers, obs observe.Observer, warn *log.Logger) error {
	hash := builtins.NewHashTransformerPlugin()
	if err := hash.Config(h, nil); err != nil {
		return err
	}
	if err := hash.Transform(acc.Resources); err != nil {
		return err
	}
	if err := fixNameReferences(acc.Resources, acc.Config.NameReference, obs); err != nil {
		return err
	}
	if err := resolveVars(acc, obs, warn); err != nil {
		return err
	}
	return dropLocalConfig(acc.Resources)
}

// dropLocalConfig removes objects annotated config.kubernetes.io/local-config
// (unless the annotation says "false"). Like kustomize, which rebuilds its
// resource map at this point, it fails when two objects kept have come to
// the same ID (e.g. a patch renamed one to the other's name); kustomize
// panics there.
func dropLocalConfig(m resmap.ResMap) error {
	seen := map[string]bool{}
	for _, r := range m.Resources() {
		if r.RNode.IsNilOrEmpty() {
			continue
		}
		v, ok := r.GetAnnotations()[konfig.IgnoredByKustomizeAnnotation]
		if ok && v != "false" {
			if err := m.Remove(r.CurId()); err != nil {
				return err
			}
			continue
		}
		id := r.CurId()
		key := id.Gvk.String() + "|" + id.Name + "|" + id.EffectiveNamespace()
		if seen[key] {
			return fmt.Errorf("may not add resource with an already registered id: %s", id)
		}
		seen[key] = true
	}
	return nil
}

// resolveVars substitutes $(VAR) references with the values vars read.
func resolveVars(acc *accumulate.Accumulation, obs observe.Observer, warn *log.Logger) error {
	vars := acc.Vars.AsSlice()
	if len(vars) == 0 {
		return nil
	}
	values := map[string]interface{}{}
	sources := map[string]*resource.Resource{}
	for _, v := range vars {
		val, src, err := varValue(acc.Resources, v)
		if err != nil {
			if file := acc.VarFiles[v.Name]; file != "" {
				return fmt.Errorf("%s: vars: %w", file, err) // kustomize's words name no file
			}
			return err
		}
		values[v.Name] = val
		sources[v.Name] = src
	}
	unused, err := substituteVars(acc.Resources, values, sources, acc.Config.VarReference, obs)
	if err != nil {
		return err
	}
	if len(unused) > 0 {
		if warn == nil {
			warn = log.Default()
		}
		warn.Printf("well-defined vars that were never replaced: %s\n", strings.Join(unused, ","))
	}
	return nil
}

func varValue(m resmap.ResMap, v types.Var) (interface{}, *resource.Resource, error) {
	for _, r := range m.Resources() {
		for _, name := range r.GetRefVarNames() {
			if name != v.Name {
				continue
			}
			s, err := r.GetFieldValue(v.FieldRef.FieldPath)
			if err != nil {
				return "", nil, fmt.Errorf("field specified in var '%v' not found in corresponding resource", v)
			}
			return s, r, nil
		}
	}
	return "", nil, fmt.Errorf("var '%v' cannot be mapped to a field in the set of known resources", v)
}
