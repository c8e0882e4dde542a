package starlarkfn

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/krmfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// The example of kpt's documentation, as krm's issue states it.
const setOwner = `apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata: {name: set-owner}
params: {owner: team-a}
source: |
  def run(items, owner):
    for r in items:
      r["metadata"].setdefault("labels", {})["owner"] = owner
  run(ctx.resource_list["items"], ctx.resource_list["functionConfig"]["params"]["owner"])
`

func TestKptExample(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	m := resMap(t, h, twoResources)
	if err := configure(t, h, setOwner).Transform(m); err != nil {
		t.Fatal(err)
	}
	wantEqual(t, rnodes(t, m), `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    owner: team-a
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.25
---
apiVersion: v1
kind: Service
metadata:
  name: web
  labels:
    app: web
    owner: team-a
spec:
  ports:
  - port: 80
`)
}

func TestScriptFileWithLoads(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	m := resMap(t, h, twoResources)
	p := configure(t, h, `apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata:
  name: owner-from-file
params:
  owner: team-b
path: scripts/set_owner.star
`)
	if err := p.Transform(m); err != nil {
		t.Fatal(err)
	}
	for _, r := range m.Resources() {
		if got := r.GetLabels()["example.com/owner"]; got != "team-b" {
			t.Errorf("%s: owner label %q, want team-b", r.CurId(), got)
		}
	}
}

func TestAddAndRemoveItems(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	m := resMap(t, h, twoResources+`---
apiVersion: v1
kind: ConfigMap
metadata:
  name: drop-me
`)
	p := configure(t, h, inline("add-remove", `
items = ctx.resource_list["items"]
# Remove by mutating the list ...
for i in range(len(items) - 1, -1, -1):
    if items[i]["metadata"]["name"] == "drop-me":
        items.pop(i)
# ... and add a new resource first: new ones still come after the others.
items.insert(0, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "added"}, "data": {"k": "v"}})
# Reassigning the list works too (kpt scripts filter this way).
ctx.resource_list["items"] = [r for r in items if r["kind"] != "Service"]
`))
	if err := p.Transform(m); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range m.Resources() {
		ids = append(ids, r.GetKind()+"/"+r.GetName())
	}
	if got, want := strings.Join(ids, " "), "Deployment/web ConfigMap/added"; got != want {
		t.Errorf("resources %s, want %s", got, want)
	}
}

func TestGenerator(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	p := configure(t, h, `apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata:
  name: gen
params:
  names: [a, b]
source: |
  if len(ctx.resource_list["items"]) != 0:
    fail("a generator starts from no items")
  for n in ctx.resource_list["functionConfig"]["params"]["names"]:
    ctx.resource_list["items"].append({
      "apiVersion": "v1",
      "kind": "ConfigMap",
      "metadata": {
        "name": "cm-" + n,
        "annotations": {"kustomize.config.k8s.io/needs-hash": "true" if n == "a" else "false"},
      },
      "data": {"name": n},
    })
`)
	m, err := p.Generate()
	if err != nil {
		t.Fatal(err)
	}
	rs := m.Resources()
	if len(rs) != 2 || rs[0].GetName() != "cm-a" || rs[1].GetName() != "cm-b" {
		t.Fatalf("generated %v", m.AllIds())
	}
	if !rs[0].NeedHashSuffix() || rs[1].NeedHashSuffix() {
		t.Errorf("needs-hash: got %v %v, want true false", rs[0].NeedHashSuffix(), rs[1].NeedHashSuffix())
	}
	if _, ok := rs[0].GetAnnotations()["kustomize.config.k8s.io/needs-hash"]; ok {
		t.Errorf("needs-hash annotation left on the resource")
	}
}

func TestValidatorFail(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	m := resMap(t, h, twoResources)
	p := configure(t, h, inline("no-single-replica", `
def check(items):
    for r in items:
        if r["kind"] == "Deployment" and r["spec"].get("replicas", 1) < 2:
            fail("Deployment %s has fewer than 2 replicas" % r["metadata"]["name"])

check(ctx.resource_list["items"])
`))
	err := p.Transform(m)
	wantErr(t, err,
		`StarlarkRun "no-single-replica": StarlarkRun(no-single-replica).source:4:17: fail: Deployment web has fewer than 2 replicas`,
		"(lines count from the first line of source)",
		"Traceback (most recent call last):",
		"StarlarkRun(no-single-replica).source:6:6: in <toplevel>",
		"StarlarkRun(no-single-replica).source:4:17: in check",
		"Error in fail: fail: Deployment web has fewer than 2 replicas")

	// A validator that passes leaves the resources as they were.
	before := rnodes(t, m)
	ok := configure(t, h, inline("ok", `
for r in ctx.resource_list["items"]:
    if r["kind"] == "Secret":
        fail("no secrets")
`))
	if err := ok.Transform(m); err != nil {
		t.Fatal(err)
	}
	wantEqual(t, rnodes(t, m), before)
}

func TestErrorPositionAndBacktrace(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	p := configure(t, h, `apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata:
  name: bad
path: scripts/bad.star
`)
	err := p.Transform(resMap(t, h, twoResources))
	wantErr(t, err,
		`StarlarkRun "bad": scripts/bad.star:2:21: key "missing" not in dict`,
		"Traceback (most recent call last):",
		"scripts/bad.star:8:4: in <toplevel>",
		"scripts/bad.star:6:15: in run",
		"scripts/bad.star:2:21: in lookup")
	if strings.Contains(err.Error(), "lines count") {
		t.Errorf("note about inline source on a script file: %v", err)
	}

	// Syntax errors name the position too.
	p = configure(t, h, inline("syntax", "def f(:\n  pass"))
	wantErr(t, p.Transform(resMap(t, h, twoResources)), `StarlarkRun "syntax": StarlarkRun(syntax).source:1:8: got ':'`)
}

func TestSandbox(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	for _, name := range []string{"open", "time", "os", "random", "exec", "eval", "http", "env", "getenv", "now", "sleep", "input", "__import__", "struct", "json"} {
		p := configure(t, h, inline("sandbox-"+name, fmt.Sprintf("x = %s", name)))
		wantErr(t, p.Transform(resMap(t, h, twoResources)), "undefined: "+name)
	}
	// ctx offers the resource list only: no environment, no OpenAPI lookups.
	for _, attr := range []string{"environment", "open_api"} {
		p := configure(t, h, inline("ctx-"+attr, "x = ctx."+attr))
		wantErr(t, p.Transform(resMap(t, h, twoResources)), "has no ."+attr)
	}
	// No module gives them back either.
	for _, mod := range []string{"time.star", "os.star", "http.star"} {
		p := configure(t, h, inline("load-"+mod, fmt.Sprintf("load(%q, \"x\")", mod)))
		wantErr(t, p.Transform(resMap(t, h, twoResources)), "cannot load "+mod)
	}
	// kpt's pure modules are there.
	p := configure(t, h, inline("pure", `
load("encoding/json.star", "json")
load("math.star", "math")
if json.encode({"a": [1]}) != '{"a":[1]}' or math.sqrt(4) != 2:
    fail("json/math")
`))
	if err := p.Transform(resMap(t, h, twoResources)); err != nil {
		t.Error(err)
	}
}

func TestLoadRestrictions(t *testing.T) {
	hint := func(_, path string) string { return "add " + path + " to srcs" }
	h := helpers(t, kustDir(t), load.RootOnly, hint)
	cases := []struct {
		name, script string
		want         []string
	}{
		{"outside-root", `load("../outside.star", "VALUE")`, []string{"cannot load ../outside.star", "security; file", "is not in or below"}},
		{"outside-via-file", `load("scripts/escape.star", "VALUE")`, []string{"cannot load scripts/escape.star", "cannot load ../../outside.star", "is not in or below"}},
		{"absolute", `load("/etc/passwd", "x")`, []string{"absolute paths cannot be loaded"}},
		{"other-repo", `load("@other//starlark:x.star", "x")`, []string{"only @rules_krm//starlark labels"}},
		{"other-package", `load("@rules_krm//rules:defs.bzl", "x")`, []string{"only the @rules_krm//starlark package"}},
		{"lib-escape", `load("@rules_krm//starlark:../go.mod", "x")`, []string{"not a file of the library"}},
		{"lib-missing", `load("@rules_krm//starlark:nope.star", "x")`, []string{"@rules_krm//starlark:nope.star: no such file in the rules_krm Starlark library"}},
		{"undeclared", `load("scripts/undeclared.star", "x")`, []string{"cannot load scripts/undeclared.star", "scripts/undeclared.star to srcs"}},
		{"cycle", `load("scripts/cycle_a.star", "A")`, []string{"cycle in load graph"}},
		{"failing-module", `load("scripts/broken_lib.star", "boom")`, []string{"StarlarkRun \"failing-module\": scripts/broken_lib.star:2:9: cannot load scripts/broken_lib.star: fail: broken library\n", "StarlarkRun(failing-module).source:1:1: in <toplevel>", "scripts/broken_lib.star:2:9: in boom"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := configure(t, h, inline(c.name, c.script))
			wantErr(t, p.Transform(resMap(t, h, twoResources)), c.want...)
		})
	}

	// With LoadRestrictionsNone a file outside the root may be loaded.
	h = helpers(t, kustDir(t), load.None, nil)
	p := configure(t, h, inline("none", `
load("../outside.star", "VALUE")
if VALUE != "outside":
    fail(VALUE)
`))
	if err := p.Transform(resMap(t, h, twoResources)); err != nil {
		t.Error(err)
	}

	// A missing script file gets the loader's hint.
	p = New(krmfn.Runtime{})
	err := p.Config(helpers(t, kustDir(t), load.RootOnly, hint), []byte(`apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata: {name: missing}
path: scripts/missing.star
`))
	wantErr(t, err, `StarlarkRun "missing": reading script`, "scripts/missing.star to srcs")
}

func TestStepLimit(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	p := configure(t, h, `apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata: {name: forever}
maxSteps: 5000
source: |
  def spin():
    n = 0
    while True:
      n += 1
  spin()
`)
	wantErr(t, p.Transform(resMap(t, h, twoResources)),
		"the script exceeded its limit of 5000 steps (operations, and one per 256 bytes allocated); raise maxSteps (at most 200000000) in the StarlarkRun config if it really needs more",
		"StarlarkRun(forever).source:", "in spin")
	if p.maxSteps != 5000 {
		t.Errorf("maxSteps %d", p.maxSteps)
	}
	if d := configure(t, h, setOwner); d.maxSteps != DefaultMaxSteps {
		t.Errorf("default maxSteps %d, want %d", d.maxSteps, DefaultMaxSteps)
	}

	// Steps spent in loaded modules count against the same budget.
	p = configure(t, h, `apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata: {name: budget}
maxSteps: 200
source: |
  load("scripts/heavy.star", "N")
`)
	wantErr(t, p.Transform(resMap(t, h, twoResources)), "exceeded its limit of 200 steps")
}

func TestConfigErrors(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	cases := map[string]string{
		"source: x\npath: y\n":     "set either source or path, not both",
		"params: {}\n":             "needs the script",
		"source: x\nsorce: y\n":    `unknown field "sorce"`,
		"path: /abs/x.star\n":      "must be relative",
		"source: x\nmaxSteps: 0\n": "maxSteps must be between 1 and 200000000, not 0",
	}
	for body, want := range cases {
		err := New(krmfn.Runtime{}).Config(h, []byte("apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata: {name: c}\n"+body))
		wantErr(t, err, `StarlarkRun "c"`, want)
	}
}

func TestPrint(t *testing.T) {
	var buf bytes.Buffer
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	rt := krmfn.Runtime{Stderr: &buf}
	if err := configureWith(t, h, inline("hello", `print("items:", len(ctx.resource_list["items"]))`), rt).Transform(resMap(t, h, twoResources)); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "StarlarkRun \"hello\": items: 2\n" {
		t.Errorf("printed %q", got)
	}
}
