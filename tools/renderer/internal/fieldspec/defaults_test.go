package fieldspec

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"testing"
)

//go:embed defaults.yaml
var defaultsYAML []byte

var updateDefaults = flag.Bool("update-defaults", false, "rewrite defaults.json from defaults.yaml")

// defaults.json must be defaults.yaml: same bytes as generated, same value decoded.
func TestDefaultsJSON(t *testing.T) {
	want, err := Parse(defaultsYAML)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := json.MarshalIndent(want, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	gen = append(gen, '\n')
	if *updateDefaults {
		if err := os.WriteFile("defaults.json", gen, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(gen, defaultsJSON) {
		t.Fatal("defaults.json is not defaults.yaml: run go test ./tools/renderer/internal/fieldspec -run TestDefaultsJSON -update-defaults")
	}
	got, err := parseJSON(defaultsJSON)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("defaults.json decodes to other field specs than defaults.yaml")
	}
}

func TestParseJSONStrict(t *testing.T) {
	if _, err := parseJSON([]byte(`{"namePrefix":[{"path":"a","bogus":1}]}`)); err == nil {
		t.Error("unknown field accepted")
	}
}
