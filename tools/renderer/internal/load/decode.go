package load

import (
	"bytes"
	"encoding/json"
	"reflect"

	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"
)

// decodeKustomization is types.Kustomization.Unmarshal, cheaper for the files most trees hold.
// On the first decode into a struct type, encoding/json builds the field tables and encoders
// of every type the struct reaches: for Kustomization's (helm charts, replacements, vars, ...)
// a tenth of a small render's CPU, in every process. So the file is first decoded into a
// struct with only the fields such files use, with Kustomization's names, types and tags
// (decode_test.go checks): the same JSON through the same decoder gives the same values. A
// key that struct lacks, or any error, decodes it as kustomize does.
func decodeKustomization(content []byte) (types.Kustomization, error) {
	var k types.Kustomization
	if decodeSubset(content, &k) >= 0 {
		return k, nil
	}
	err := k.Unmarshal(content)
	return k, err
}

// subsets are the structs tried in turn, the smaller first: a tree's leaves mostly list
// resources.
var subsets = []reflect.Type{reflect.TypeFor[plainKustomization](), reflect.TypeFor[commonKustomization]()}

// decodeSubset decodes content into k through the first of subsets that holds every key, and
// returns its index; -1 if none does (k is then untouched).
func decodeSubset(content []byte, k *types.Kustomization) int {
	j, err := yaml.YAMLToJSON(content)
	if err != nil {
		return -1
	}
	for n, t := range subsets {
		v := reflect.New(t)
		d := json.NewDecoder(bytes.NewReader(j))
		d.DisallowUnknownFields()
		if d.Decode(v.Interface()) == nil {
			copyFields(reflect.ValueOf(k).Elem(), v.Elem())
			return n
		}
	}
	return -1
}

// copyFields sets each field of dst (a Kustomization) that the subset src has, by name;
// src's embedded subsets are read through.
func copyFields(dst, src reflect.Value) {
	for i := range src.NumField() {
		f := src.Type().Field(i)
		if !f.IsExported() {
			copyFields(dst, src.Field(i))
			continue
		}
		dst.FieldByName(f.Name).Set(src.Field(i))
	}
}

// plainKustomization reaches no struct type but TypeMeta's and ObjectMeta's.
type plainKustomization struct {
	types.TypeMeta    `json:",inline" yaml:",inline"`
	MetaData          *types.ObjectMeta `json:"metadata,omitempty" yaml:"metadata,omitempty"`
	NamePrefix        string            `json:"namePrefix,omitempty" yaml:"namePrefix,omitempty"`
	NameSuffix        string            `json:"nameSuffix,omitempty" yaml:"nameSuffix,omitempty"`
	Namespace         string            `json:"namespace,omitempty" yaml:"namespace,omitempty"`
	CommonLabels      map[string]string `json:"commonLabels,omitempty" yaml:"commonLabels,omitempty"`
	CommonAnnotations map[string]string `json:"commonAnnotations,omitempty" yaml:"commonAnnotations,omitempty"`
	Resources         []string          `json:"resources,omitempty" yaml:"resources,omitempty"`
	Components        []string          `json:"components,omitempty" yaml:"components,omitempty"`
	Crds              []string          `json:"crds,omitempty" yaml:"crds,omitempty"`
	Bases             []string          `json:"bases,omitempty" yaml:"bases,omitempty"`
	Configurations    []string          `json:"configurations,omitempty" yaml:"configurations,omitempty"`
	BuildMetadata     []string          `json:"buildMetadata,omitempty" yaml:"buildMetadata,omitempty"`
}

// commonKustomization adds labels, patches, images, replicas and generators.
type commonKustomization struct {
	plainKustomization
	Labels                []types.Label               `json:"labels,omitempty" yaml:"labels,omitempty"`
	PatchesStrategicMerge []types.PatchStrategicMerge `json:"patchesStrategicMerge,omitempty" yaml:"patchesStrategicMerge,omitempty"`
	PatchesJson6902       []types.Patch               `json:"patchesJson6902,omitempty" yaml:"patchesJson6902,omitempty"`
	Patches               []types.Patch               `json:"patches,omitempty" yaml:"patches,omitempty"`
	Images                []types.Image               `json:"images,omitempty" yaml:"images,omitempty"`
	Replicas              []types.Replica             `json:"replicas,omitempty" yaml:"replicas,omitempty"`
	ConfigMapGenerator    []types.ConfigMapArgs       `json:"configMapGenerator,omitempty" yaml:"configMapGenerator,omitempty"`
	SecretGenerator       []types.SecretArgs          `json:"secretGenerator,omitempty" yaml:"secretGenerator,omitempty"`
	GeneratorOptions      *types.GeneratorOptions     `json:"generatorOptions,omitempty" yaml:"generatorOptions,omitempty"`
}
