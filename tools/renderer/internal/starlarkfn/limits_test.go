package starlarkfn

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/krmfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// Scripts that would crash the Go runtime, run unbounded or print pages
// of backtrace fail with a short error instead.
func TestLimits(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	for _, tc := range []struct {
		name, config string
		want         []string
	}{
		{"allocation counts as steps", "maxSteps: 100000\nsource: |\n  for i in range(100000):\n    x = \"x\" * 1000000\n",
			[]string{"exceeded its limit of 100000 steps"}},
		{"recursion", "source: |\n  def f(n):\n    return f(n + 1)\n  f(0)\n",
			[]string{"recursion deeper than 1000 calls", "frames left out"}},
		{"json nesting", "source: |\n  load(\"encoding/json.star\", \"json\")\n  json.decode(\"[\" * 100000)\n",
			[]string{"json.decode: input nested deeper than 1000 levels"}},
		{"a list that contains itself", "source: |\n  x = []\n  x.append(x)\n  ctx.resource_list[\"items\"][0][\"spec\"] = x\n",
			[]string{"items[0].spec[0][0]", "nested deeper than 1000 levels"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := configure(t, h, "apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata: {name: s}\n"+tc.config)
			err := p.Transform(resMap(t, h, twoResources))
			wantErr(t, err, tc.want...)
			if len(err.Error()) > 8<<10 {
				t.Errorf("error is %d bytes; want a short one", len(err.Error()))
			}
		})
	}
	p := New(krmfn.Runtime{})
	err := p.Config(h, []byte("apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata: {name: s}\nmaxSteps: 200000001\nsource: x = 1\n"))
	wantErr(t, err, "maxSteps must be between 1 and 200000000, not 200000001")
}

func TestJSONDepth(t *testing.T) {
	for s, want := range map[string]int{
		`{}`:                   1,
		`[[1], {"a": [2]}]`:    3,
		`"[[[["`:               0,
		`["\"[[", [[]]]`:       3,
		strings.Repeat("[", 5): 5,
	} {
		if got := jsonDepth(s); got != want {
			t.Errorf("jsonDepth(%s) = %d, want %d", s, got, want)
		}
	}
}

// str.replace checks its result's size before Go allocates it (a
// terabyte crashed the runtime), and otherwise behaves as before, however
// a script reaches it.
func TestReplace(t *testing.T) {
	h := helpers(t, kustDir(t), load.RootOnly, nil)
	for _, tc := range []struct{ name, script, want string }{
		{"method", `s = "x" * 1000000` + "\n" + `s.replace("x", s)`, "2:10: replace: the result would be larger than the memory limit of 1024 MiB"},
		{"getattr", `s = "x" * 1000000` + "\n" + `getattr(s, "replace")("", s)`, "2:22: replace: the result would be larger"},
		{"same results", `f = "abc".replace
checks = [
  (f("b", "XX"), "aXXc"),
  ("a-b-c".replace("-", "+", 1), "a+b-c"),
  ("ab".replace("", "."), ".a.b."),
  (getattr("xy", "replace")("x", "z"), "zy"),
  (getattr([], "nope", 5), 5),
  ({"replace": 1}.get("replace"), 1),
]
for got, want in checks:
  if got != want:
    fail("got %r, want %r" % (got, want))
fail("all equal")`, "all equal"},
		{"not a string", `[].replace("a", "b")`, "list has no .replace field or method"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := configure(t, h, "apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata: {name: s}\nsource: |\n  "+strings.ReplaceAll(tc.script, "\n", "\n  ")+"\n")
			wantErr(t, p.Transform(resMap(t, h, twoResources)), tc.want)
		})
	}
	for _, tc := range []struct {
		s, old, new string
		count       int
	}{{"abcabc", "b", "XYZ", -1}, {"abcabc", "b", "", 1}, {"héllo", "", "-", -1}, {"aaaa", "aa", "b", -1}, {"", "", "x", -1}, {"abc", "", "x", 2}} {
		if got, ok := replacedSize(tc.s, tc.old, tc.new, tc.count); !ok || got != len(strings.Replace(tc.s, tc.old, tc.new, tc.count)) {
			t.Errorf("replacedSize(%q, %q, %q, %d) = %d, %v; want %d", tc.s, tc.old, tc.new, tc.count, got, ok, len(strings.Replace(tc.s, tc.old, tc.new, tc.count)))
		}
	}
}

// Runs that overlap leave the collector as they found it.
func TestPauseCollector(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	first := pauseCollector()
	second := pauseCollector()
	first()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("after the first of two runs, GC percent %d; want -1 (still paused)", got)
	}
	second()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after both runs, GC percent %d; want 100", got)
	}
}
