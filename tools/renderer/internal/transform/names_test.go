package transform

import (
	"reflect"
	"testing"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
)

// affixObjects hold kinds the transformers skip, objects renamed before
// (previous IDs, prefixes, suffixes recorded) and fields a custom spec names.
const affixObjects = `apiVersion: v1
kind: ConfigMap
metadata:
  name: a
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: "b"
data:
  ref: ~
  other: 'yes'
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  namespace: ns
  annotations:
    x: y
spec:
  template:
    spec:
      serviceAccountName: sa
---
apiVersion: v1
kind: Namespace
metadata:
  name: ns
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crd.example.com
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1.x
---
apiVersion: v1
kind: Service
metadata:
  name: p-s
  annotations:
    internal.config.kubernetes.io/previousNames: s
    internal.config.kubernetes.io/previousNamespaces: default
    internal.config.kubernetes.io/previousKinds: Service
    internal.config.kubernetes.io/prefixes: p-
    internal.config.kubernetes.io/suffixes: "-x"
---
apiVersion: v1
kind: Secret
metadata:
  name: old-ns
  annotations:
    internal.config.kubernetes.io/previousNames: Namespace
    internal.config.kubernetes.io/previousNamespaces: default
    internal.config.kubernetes.io/previousKinds: Namespace
`

func TestAffixMatchesKustomize(t *testing.T) {
	custom := types.FieldSpec{Gvk: resid.Gvk{Group: "apps", Kind: "Deployment"}, Path: "spec/template/spec/serviceAccountName"}
	specs := map[string]types.FsSlice{
		"prefix defaults": fieldspec.Defaults().NamePrefix,
		"suffix defaults": fieldspec.Defaults().NameSuffix,
		"with custom":     append(fieldspec.Defaults().NamePrefix.DeepCopy(), custom),
		"custom only":     {custom},
		// Created where missing, set where null, quoted or flagged by YAML 1.1.
		"created": {{Gvk: resid.Gvk{Kind: "ConfigMap"}, Path: "data/ref", CreateIfNotPresent: true},
			{Gvk: resid.Gvk{Kind: "ConfigMap"}, Path: "data/other"}, {Path: "metadata/name"}},
	}
	for name, fss := range specs {
		for _, affix := range []string{"", "p-", "yes"} {
			for _, isPrefix := range []bool{true, false} {
				m, k := pair(t, affixObjects)
				var ours, theirs resmap.Transformer
				if isPrefix {
					ours = &prefixPlugin{PrefixTransformerPlugin: &builtins.PrefixTransformerPlugin{Prefix: affix, FieldSpecs: fss}}
					theirs = &builtins.PrefixTransformerPlugin{Prefix: affix, FieldSpecs: fss}
				} else {
					ours = &suffixPlugin{SuffixTransformerPlugin: &builtins.SuffixTransformerPlugin{Suffix: affix, FieldSpecs: fss}}
					theirs = &builtins.SuffixTransformerPlugin{Suffix: affix, FieldSpecs: fss}
				}
				// Twice, so the second run meets the first's annotations.
				for run := 0; run < 2; run++ {
					errM, errK := ours.Transform(m), theirs.Transform(k)
					if errText(errM) != errText(errK) {
						t.Fatalf("%s %q prefix=%v: error\n ours:      %s\n kustomize: %s", name, affix, isPrefix, errText(errM), errText(errK))
					}
				}
				for i, r := range m.Resources() {
					if want := k.GetByIndex(i); !reflect.DeepEqual(r.RNode.YNode(), want.RNode.YNode()) {
						a, _ := r.AsYAML()
						b, _ := want.AsYAML()
						t.Errorf("%s %q prefix=%v: ours\n%s\nkustomize\n%s", name, affix, isPrefix, a, b)
					}
				}
			}
		}
	}
}

// The plugins take kustomize's configuration, errors included.
func TestAffixConfig(t *testing.T) {
	y, err := yaml.Marshal(map[string]interface{}{"prefix": "p-", "fieldSpecs": fieldspec.Defaults().NamePrefix})
	if err != nil {
		t.Fatal(err)
	}
	p := &prefixPlugin{PrefixTransformerPlugin: &builtins.PrefixTransformerPlugin{}}
	if err := p.Config(nil, y); err != nil || p.Prefix != "p-" || len(p.FieldSpecs) == 0 {
		t.Errorf("Config: %v, %+v", err, p.PrefixTransformerPlugin)
	}
	s := &suffixPlugin{SuffixTransformerPlugin: &builtins.SuffixTransformerPlugin{}}
	if err := s.Config(nil, []byte("suffix: -s\n")); err == nil {
		t.Errorf("Config without fieldSpecs: no error")
	}
}
