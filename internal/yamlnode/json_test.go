package yamlnode

import (
	"encoding/json"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestJSONAsDecoded: JSON gives what go-yaml's decoding gives, marshalled.
func TestJSONAsDecoded(t *testing.T) {
	src := "a: 1\nb: [true, ~, 1.5, 0x1F, 1_000, \"s\", '2']\nc: {d: null, e: .inf}\nf: 18446744073709551615\ng: 2001-12-14\n"
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(JSON(&n), &got); err != nil {
		t.Fatalf("%s: %v", JSON(&n), err)
	}
	var decoded map[string]any
	if err := n.Decode(&decoded); err != nil {
		t.Fatal(err)
	}
	// JSON has no infinity: the text as written; a timestamp stays its text, as the API
	// server's YAML reader keeps it.
	decoded["c"].(map[string]any)["e"] = ".inf"
	decoded["g"] = "2001-12-14"
	j, _ := json.Marshal(decoded)
	if err := json.Unmarshal(j, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("JSON = %s\nwant    %s", JSON(&n), j)
	}
}

func TestDuplicateKey(t *testing.T) {
	for src, want := range map[string]int{"a: 1\nb: {c: 1, d: 2}\n": 0, "a: 1\nb:\n  c: 1\n  c: 2\n": 4, "a: 1\na: 2\n": 2} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(src), &n); err != nil {
			t.Fatal(err)
		}
		k := DuplicateKey(&n)
		switch {
		case want == 0 && k != nil:
			t.Errorf("%q: duplicate %q at line %d, want none", src, k.Value, k.Line)
		case want != 0 && (k == nil || k.Line != want):
			t.Errorf("%q: got %v, want the key at line %d", src, k, want)
		}
	}
}

// TestJSONKeepsDuplicates: a key written twice is written twice, as kubectl sends it.
func TestJSONKeepsDuplicates(t *testing.T) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("a: 1\nb: 1.5\nc: \"1\"\nd: true\ne: null\nf: [x, 0x10]\na: 2\ng: .inf\n"), &n); err != nil {
		t.Fatal(err)
	}
	const want = `{"a":1,"b":1.5,"c":"1","d":true,"e":null,"f":["x",16],"a":2,"g":".inf"}`
	if got := string(JSON(&n)); got != want {
		t.Errorf("JSON: %s, want %s", got, want)
	}
}

// TestValueIsDecodedJSON: Value gives what encoding/json decodes from JSON, a key written
// twice its last value.
func TestValueIsDecodedJSON(t *testing.T) {
	src := "a: 1\nb: [true, ~, 1.5, 0x1F, 1_000, \"s\", '2', -7]\nc: {d: null, e: .inf, f: -.inf}\nf: 18446744073709551615\ng: 2001-12-14\nh: {x: 1, x: 2}\ni: 99999999999999999999999\n"
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	var want any
	if err := json.Unmarshal(JSON(&n), &want); err != nil {
		t.Fatalf("%s: %v", JSON(&n), err)
	}
	if got := Value(&n); !reflect.DeepEqual(got, want) {
		t.Errorf("Value = %#v\nwant    %#v", got, want)
	}
}
