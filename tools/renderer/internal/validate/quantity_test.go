package validate

import (
	"strings"
	"testing"
)

// A Quantity field holds what the API server's resource.ParseQuantity accepts, after
// trimming the space around it: its odd zeros too ("+", "k"), not an exponent past int64.
func TestQuantityIsTheAPIServers(t *testing.T) {
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cpu   string
		valid bool
	}{
		{"500m", true},
		{"1.5", true},
		{" 2 ", true},
		{"1e3", true},
		{"+", true},
		{"k", true},
		{"lots", false},
		{"1e3m", false},
		{"1e99999999999999999999", false},
	} {
		objs, err := Parse("in.yaml", []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: i\n    resources: {limits: {cpu: '"+c.cpu+"'}}\n"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range v.Validate(objs)[0].Errors {
			got = append(got, e.Error())
		}
		if valid := len(got) == 0; valid != c.valid {
			t.Errorf("cpu %q: valid %v, want %v: %s", c.cpu, valid, c.valid, strings.Join(got, "; "))
		}
	}
}
