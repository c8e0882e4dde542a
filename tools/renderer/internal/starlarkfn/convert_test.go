package starlarkfn

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

func TestScalarTypesAndKeyOrder(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	m := resMap(t, h, `apiVersion: example.com/v1
kind: Thing
metadata:
  name: thing
spec:
  zeta: 1
  alpha: 1.5
  mid: true
  none: null
  quoted: "1"
  quotedBool: "true"
  text: hello
  big: 123456789012345678901234567890
  hex: 0x1F
  exp: 1e3
  date: 2024-01-02
  list: [3, "3", c]
  nested: {b: 1, a: 2}
`)
	// The script checks the Starlark types, then writes new values whose
	// types must come back as written, in insertion order.
	p := configure(t, h, inline("types", `
s = ctx.resource_list["items"][0]["spec"]
want = {
    "zeta": "int", "alpha": "float", "mid": "bool", "none": "NoneType",
    "quoted": "string", "quotedBool": "string", "text": "string", "big": "int",
    "hex": "int", "exp": "float", "date": "string", "list": "list", "nested": "dict",
}
for k, t in want.items():
    if type(s[k]) != t:
        fail("%s is a %s, want %s" % (k, type(s[k]), t))
if list(s.keys()) != list(want.keys()):
    fail("key order %s" % list(s.keys()))
if s["hex"] != 31 or s["big"] != 123456789012345678901234567890 or s["list"] != [3, "3", "c"]:
    fail("values")
if list(s["nested"].keys()) != ["b", "a"]:
    fail("nested order")
s["new"] = {"z": 1, "y": 2.0, "x": "2", "w": False, "v": None, "u": (1, "a"), "t": "line1\nline2\n", "s": 1e100}
`))
	if err := p.Transform(m); err != nil {
		t.Fatal(err)
	}
	wantEqual(t, rnodes(t, m), `
apiVersion: example.com/v1
kind: Thing
metadata:
  name: thing
spec:
  zeta: 1
  alpha: 1.5
  mid: true
  none: null
  quoted: "1"
  quotedBool: "true"
  text: hello
  big: 123456789012345678901234567890
  hex: 31
  exp: 1000.0
  date: "2024-01-02"
  list:
  - 3
  - "3"
  - c
  nested:
    b: 1
    a: 2
  new:
    z: 1
    "y": 2.0
    x: "2"
    w: false
    v: null
    u:
    - 1
    - a
    t: |
      line1
      line2
    s: 1e+100
`)
	// And kustomize's JSON view of it has the types right.
	js, err := m.Resources()[0].MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"quoted":"1"`, `"quotedBool":"true"`, `"y":2`, `"x":"2"`, `"w":false`, `"v":null`, `"zeta":1`, `"date":"2024-01-02"`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("JSON %s lacks %s", js, want)
		}
	}
}

func TestRoundTripKeepsFunctionConfigOrder(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	p := configure(t, h, `apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata:
  name: order
params:
  labels:
    zz: "1"
    aa: "2"
    mm: "3"
source: |
  for r in ctx.resource_list["items"]:
    r["metadata"]["labels"] = ctx.resource_list["functionConfig"]["params"]["labels"]
`)
	m := resMap(t, h, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n")
	if err := p.Transform(m); err != nil {
		t.Fatal(err)
	}
	wantEqual(t, rnodes(t, m), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels:\n    zz: \"1\"\n    aa: \"2\"\n    mm: \"3\"\n")
}

func TestConversionErrors(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	cases := map[string]string{
		`ctx.resource_list["items"][0]["spec"]["s"] = set([1])`:            "items[0].spec.s: a set cannot be converted to YAML",
		`ctx.resource_list["items"][0]["spec"][1] = "x"`:                   "items[0].spec: dict key 1 is a int; keys must be strings",
		`ctx.resource_list["items"].append("x")`:                           "items[2] is a string; each item must be a dict",
		`ctx.resource_list["items"] = None`:                                `ctx.resource_list["items"] is a NoneType after the script; it must be a list`,
		`ctx.resource_list["items"][0]["metadata"].pop("name")`:            "item 0: missing metadata.name",
		`ctx.resource_list["items"].append(ctx.resource_list["items"][0])`: "returned two resources with the id Deployment.v1.apps/web",
	}
	for script, want := range cases {
		p := configure(t, h, inline("conv", script))
		wantErr(t, p.Transform(resMap(t, h, twoResources)), want)
	}
}

func TestHiddenAnnotationsAndIdentity(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	m := resMap(t, h, `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  annotations:
    config.kubernetes.io/origin: |
      path: cm.yaml
data:
  a: b
`)
	cm := m.Resources()[0]
	cm.EnableHashSuffix()
	p := configure(t, h, inline("hidden", `
items = ctx.resource_list["items"]
r = items[0]
if "annotations" in r["metadata"]:
    fail("hidden annotations visible: %s" % r["metadata"]["annotations"])
r["data"]["a"] = "c"
copy = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "copy"}, "data": dict(r["data"])}
items.append(copy)
`))
	if err := p.Transform(m); err != nil {
		t.Fatal(err)
	}
	rs := m.Resources()
	if len(rs) != 2 || rs[0] != cm {
		t.Fatalf("the edited resource is not the original one: %v", m.AllIds())
	}
	if !cm.NeedHashSuffix() {
		t.Errorf("generator options lost")
	}
	if o, err := cm.GetOrigin(); err != nil || o == nil || o.Path != "cm.yaml" {
		t.Errorf("origin lost: %v %v", o, err)
	}
	if got := cm.GetDataMap()["a"]; got != "c" {
		t.Errorf("data.a = %q", got)
	}
	if o, _ := rs[1].GetOrigin(); o != nil {
		t.Errorf("new resource has an origin: %v", o)
	}
}

func TestToStarlarkAliases(t *testing.T) {
	n, err := yaml.Parse("a: &x {k: v}\nb: *x\n")
	if err != nil {
		t.Fatal(err)
	}
	v, err := toStarlark(n.YNode())
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != `{"a": {"k": "v"}, "b": {"k": "v"}}` {
		t.Errorf("got %s", got)
	}
	if _, err := toStarlark(yaml.MustParse("a: &x {k: v}\nb:\n  <<: *x\n").YNode()); err == nil || !strings.Contains(err.Error(), "merge keys") {
		t.Errorf("merge key: %v", err)
	}
}

func TestFormatFloat(t *testing.T) {
	for f, want := range map[float64]string{1: "1.0", 1.5: "1.5", 1e100: "1e+100", -2: "-2.0", 1e21: "1e+21"} {
		if got := formatFloat(f); got != want {
			t.Errorf("formatFloat(%v) = %s, want %s", f, got, want)
		}
		n := yaml.MustParse("v: " + formatFloat(f))
		if tag := n.Field("v").Value.YNode().ShortTag(); tag != yaml.NodeTagFloat {
			t.Errorf("%s reads back as %s", formatFloat(f), tag)
		}
	}
}

func TestIsPlainWordAgreesWithKyaml(t *testing.T) {
	for _, s := range []string{"web", "nginx", "app.kubernetes.io/name", "cm-1", "a_b", "yes", "Yes", "on", "OFF",
		"y", "n", "null", "True", "e10", "x1e3", "no-way", "NaN", "inf", "a.b.c", "A", "z"} {
		if isPlainWord(s) && yaml.IsValueNonString(s) {
			t.Errorf("%q: isPlainWord but kyaml reads it as a non-string", s)
		}
	}
	for _, s := range []string{"yes", "On", "NULL", "1", "-a", "a: b", "[a]", "", "a b", "a#b"} {
		if isPlainWord(s) {
			t.Errorf("%q: isPlainWord, want the full check", s)
		}
	}
}
