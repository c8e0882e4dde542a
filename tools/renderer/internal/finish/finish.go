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
	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
)

// Run applies the finishing steps to acc in place.
func Run(acc *accumulate.Accumulation, h *resmap.PluginHelpers) error {
	hash := builtins.NewHashTransformerPlugin()
	if err := hash.Config(h, nil); err != nil {
		return err
	}
	if err := hash.Transform(acc.Resources); err != nil {
		return err
	}
	if err := fixNameReferences(acc.Resources, acc.Config.NameReference); err != nil {
		return err
	}
	if err := resolveVars(acc); err != nil {
		return err
	}
	return dropLocalConfig(acc.Resources)
}

// dropLocalConfig removes objects annotated config.kubernetes.io/local-config
// (unless the annotation says "false").
func dropLocalConfig(m resmap.ResMap) error {
	for _, r := range m.Resources() {
		if r.RNode.IsNilOrEmpty() {
			continue
		}
		v, ok := r.GetAnnotations()[konfig.IgnoredByKustomizeAnnotation]
		if ok && v != "false" {
			if err := m.Remove(r.CurId()); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolveVars substitutes $(VAR) references with the values vars read.
func resolveVars(acc *accumulate.Accumulation) error {
	vars := acc.Vars.AsSlice()
	if len(vars) == 0 {
		return nil
	}
	values := map[string]interface{}{}
	for _, v := range vars {
		val, err := varValue(acc.Resources, v)
		if err != nil {
			return err
		}
		values[v.Name] = val
	}
	unused, err := substituteVars(acc.Resources, values, acc.Config.VarReference)
	if err != nil {
		return err
	}
	if len(unused) > 0 {
		log.Printf("well-defined vars that were never replaced: %s\n", strings.Join(unused, ","))
	}
	return nil
}

func varValue(m resmap.ResMap, v types.Var) (interface{}, error) {
	for _, r := range m.Resources() {
		for _, name := range r.GetRefVarNames() {
			if name != v.Name {
				continue
			}
			s, err := r.GetFieldValue(v.FieldRef.FieldPath)
			if err != nil {
				return "", fmt.Errorf("field specified in var '%v' not found in corresponding resource", v)
			}
			return s, nil
		}
	}
	return "", fmt.Errorf("var '%v' cannot be mapped to a field in the set of known resources", v)
}
