package fieldspec

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
)

// defaultsJSON is defaults.yaml as JSON (defaults_test.go checks it, and
// rewrites it with -update-defaults): decoding JSON takes a tenth of the time
// the YAML takes, which every render paid.
//
//go:embed defaults.json
var defaultsJSON []byte

var defaults = sync.OnceValue(func() *Config {
	c, err := parseJSON(defaultsJSON)
	if err != nil {
		panic(fmt.Sprintf("embedded default field specs: %v", err))
	}
	return c
})

// Defaults returns a fresh copy of kustomize's default field specs.
func Defaults() *Config {
	return defaults().DeepCopy()
}

// parseJSON reads field specs from JSON as strictly as Parse reads YAML.
func parseJSON(data []byte) (*Config, error) {
	var c Config
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		return nil, err
	}
	c.sort()
	return &c, nil
}
