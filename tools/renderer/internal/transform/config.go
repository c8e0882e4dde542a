package transform

import (
	"bytes"
	"encoding/json"
	"sync"

	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"
)

// configYAML is yaml.Marshal(config(fss)) for a configuration with a
// `FieldSpecs` field (no omitempty). The field specs are most of it and the
// same for many kustomizations, so their YAML is made once per distinct
// list and put in place of the `FieldSpecs: null` that marshalling
// config(nil) prints: top-level keys print one after another, so that is
// the same bytes.
func configYAML(config func([]types.FieldSpec) interface{}, fss []types.FieldSpec) ([]byte, error) {
	if len(fss) == 0 {
		return yaml.Marshal(config(fss))
	}
	y, err := yaml.Marshal(config(nil))
	if err != nil {
		return nil, err
	}
	const null = "FieldSpecs: null\n"
	at := 0
	if !bytes.HasPrefix(y, []byte(null)) {
		if at = bytes.Index(y, []byte("\n"+null)); at < 0 {
			return yaml.Marshal(config(fss))
		}
		at++
	}
	list, err := fieldSpecsYAML(fss)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(y)+len(list))
	out = append(out, y[:at]...)
	out = append(out, "FieldSpecs:\n"...)
	out = append(out, list...)
	return append(out, y[at+len(null):]...), nil
}

// fieldSpecYAMLs are the YAML of field spec lists, by their JSON (the
// YAML is a function of it).
var fieldSpecYAMLs sync.Map

func fieldSpecsYAML(fss []types.FieldSpec) ([]byte, error) {
	j, err := json.Marshal(fss)
	if err != nil {
		return nil, err
	}
	if y, ok := fieldSpecYAMLs.Load(string(j)); ok {
		return y.([]byte), nil
	}
	y, err := yaml.JSONToYAML(j)
	if err != nil {
		return nil, err
	}
	fieldSpecYAMLs.Store(string(j), y)
	return y, nil
}
