//go:build bazel

package integration

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

// TestIncrementality checks that krm_kustomization builds are incremental, from Bazel's own
// execution log, on the package of testdata/incrementality.txtar (a target "renders" when
// its snapshot action, KrmRender, or its manifests action, KrmManifests, runs): one edit
// per step, and exactly the targets that must re-render do, none from a cache. Then
// stamping, and krm_validate_tests re-running only when their manifests or their policies
// change.
//
// It runs in a copy of the repository (the source tree is never edited) with its own output
// base, kept between runs; every run writes new values, so no cache can hold its actions.
func TestIncrementality(t *testing.T) {
	_, dir, ws, nonce := scratchCopy(t, "incrementality")
	pkg := filepath.Join(ws, "krm_incrementality")
	status := filepath.Join(dir, "status.txt")
	bazeltest.WriteTxtar(t, "testdata/incrementality.txtar", ws, "NONCE", nonce, "STATUS", status)
	bz := bazeltest.New(t, ws, filepath.Join(dir, "output_base"))
	cache := "--disk_cache=" + bazeltest.DiskCache(t)

	step := 0
	// run is `bazel COMMAND` of the targets with the flags, and the spawns of its log.
	run := func(what, command string, args ...string) []bazeltest.Spawn {
		t.Helper()
		step++
		log := filepath.Join(dir, fmt.Sprintf("exec%d.json", step))
		bz.Must(t, append([]string{command, cache, "--execution_log_json_file=" + log}, args...)...)
		return bazeltest.ExecLog(t, log)
	}
	var flags []string // extra build flags (stamping)
	// build builds the package and checks that exactly these targets rendered (ran
	// KrmRender, KrmManifests or both; none from a cache). A target's snapshot action runs
	// only when something needs the snapshot (a parent, or a component's own check), its
	// manifests action when the manifests are built.
	build := func(what string, targets ...string) []bazeltest.Spawn {
		t.Helper()
		spawns := run(what, "build", append(slices.Clone(flags), "//krm_incrementality:all")...)
		want := []string{}
		for _, n := range targets {
			want = append(want, "bazel-out/k8-fastbuild/bin/krm_incrementality/"+n)
		}
		slices.Sort(want)
		got, cached := bazeltest.Renders(spawns, false), bazeltest.Renders(spawns, true)
		if !slices.Equal(got, want) || len(cached) > 0 {
			t.Errorf("%s: targets rendered:\n  %s\nwant:\n  %s\nfrom a cache (a test bug: values should be new): %q",
				what, strings.Join(got, "\n  "), strings.Join(want, "\n  "), cached)
		} else {
			t.Logf("ok: %s: rendered %q (%d KrmRender, %d KrmManifests)", what, targets,
				bazeltest.Count(spawns, "KrmRender", false), bazeltest.Count(spawns, "KrmManifests", false))
		}
		return spawns
	}
	write := func(rel, text string) { bazeltest.WriteFile(t, filepath.Join(pkg, rel), text) }

	build("first build", "base", "mid", "top", "other", "fncomp", "fnuser", "star1", "star2", "star3", "pinned", "pinned_top", "stamped")

	write("top/patch.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mid-settings\ndata:\n  top: \"top-edited-"+nonce+"\"\n")
	build("edit of a top overlay file", "top")

	write("base/configmap.yaml", configMap("base-edited-"+nonce, "  "))
	build("edit of a base file", "base", "mid", "top")

	// Same content, so the same snapshot (snapshots carry no comments): Bazel does not
	// re-run what includes base.
	write("base/configmap.yaml", configMap("base-edited-"+nonce, "    "))
	build("reformatting of a base file (same snapshot)", "base")

	write("base/configmap.yaml", "# a comment-only edit "+nonce+"\n"+
		strings.Replace(configMap("base-edited-"+nonce, "    "), "\ndata:", "\ndata: # comment "+nonce, 1))
	build("comment-only edit of a base resource (same snapshot)", "base")

	write("base/kustomization.yaml", "# kustomization comment "+nonce+"\nresources:\n- configmap.yaml # comment\n")
	build("comment-only edit of a base kustomization file (same snapshot)", "base")

	write("star3/own.star", "for r in ctx.resource_list[\"items\"]:\n    r[\"metadata\"].setdefault(\"annotations\", {})[\"own\"] = \"own-edited-"+nonce+"\"\n")
	build("edit of a Starlark script", "star3")

	// fncomp's snapshot carries its files, so star1 and star2 re-render.
	write("fncomp/lib.star", "OWNER = \"owner-edited-"+nonce+"\"\n")
	build("edit of a .star file a component's script loads", "fncomp", "star1", "star2")

	write("mark.sh", strings.Replace(readFile(t, filepath.Join(pkg, "mark.sh")), "mark-"+nonce, "mark-edited-"+nonce, 1))
	build("edit of an exec function", "fnuser")

	write("app.txt", "app-edited-"+nonce+"\n")
	build("change of a pinned image's digest", "pinned", "pinned_top")

	// Stamping (--stamp with a --workspace_status_command printing STABLE_KRM_TEST and
	// BUILD_KRM_RUN, which stamped's annotations hold as placeholders): no render re-runs.
	// expectStamps: the build ran n KrmStamp actions, none from a cache.
	expectStamps := func(what string, spawns []bazeltest.Spawn, n int) {
		t.Helper()
		got, cached := bazeltest.Count(spawns, "KrmStamp", false), bazeltest.Count(spawns, "KrmStamp", true)
		if got != n || cached != 0 {
			t.Errorf("%s: ran %d KrmStamp actions (%d from a cache), want %d", what, got, cached, n)
		}
	}
	// Every krm_kustomization of the package stamps (fncomp, a component without kind,
	// declares empty manifests too).
	const kustomizations = 12
	flags = []string{"--stamp", "--workspace_status_command=" + filepath.Join(ws, "status.sh")}
	setStatus := func(stable, volatile string) {
		bazeltest.WriteFile(t, status, "STABLE_KRM_TEST "+stable+"\nBUILD_KRM_RUN "+volatile+"\n")
	}
	setStatus("stable-"+nonce, "run-"+nonce+"-1")
	expectStamps("first --stamp build", build("first --stamp build"), kustomizations)
	setStatus("stable-edited-"+nonce, "run-"+nonce+"-2")
	expectStamps("a changed STABLE_ value", build("a changed STABLE_ value"), kustomizations)
	setStatus("stable-edited-"+nonce, "run-"+nonce+"-3")
	expectStamps("a changed volatile value alone", build("a changed volatile value alone"), 0)
	stamped := readFile(t, filepath.Join(bz.Info(t, "bazel-bin", flags...), "krm_incrementality/stamped_manifests.stamped.yaml"))
	if !strings.Contains(stamped, "stable: stable-edited-"+nonce) || !strings.Contains(stamped, "volatile: run-"+nonce+"-2") {
		t.Errorf("stamped's stamped manifests lack the stable value and the volatile one of the last stamping:\n%s", stamped)
	}
	flags = nil
	expectStamps("back to --nostamp", build("back to --nostamp"), 0)

	// The edits show in the manifests.
	bin := bz.Info(t, "bazel-bin")
	appDigest := fmt.Sprintf("sha256:%x", sha256.Sum256([]byte("app-edited-"+nonce+"\n")))
	for _, c := range []struct{ target, text string }{
		{"top", "value: base-edited-" + nonce}, {"top", "top: top-edited-" + nonce},
		{"star3", "own: own-edited-" + nonce}, {"star1", "owner: owner-edited-" + nonce},
		{"star2", "owner: owner-edited-" + nonce}, {"fnuser", "value: mark-edited-" + nonce},
		{"pinned_top", "image: app@" + appDigest}, {"stamped", "stable: '{STABLE_KRM_TEST}'"},
	} {
		if m := readFile(t, filepath.Join(bin, "krm_incrementality", c.target+"_manifests.yaml")); !strings.Contains(m, c.text) {
			t.Errorf("%s's manifests lack %q:\n%s", c.target, c.text, m)
		}
	}

	// krm_validate_tests: Bazel's action cache skips those whose manifests did not change.
	testAndExpect := func(what string, want ...string) {
		t.Helper()
		spawns := run(what, "test", "//krm_incrementality:top_validate_test", "//krm_incrementality:other_validate_test")
		got := []string{}
		for _, s := range spawns {
			if s.Mnemonic != "TestRunner" || s.Cached {
				continue
			}
			for _, o := range s.Outputs {
				if _, rest, ok := strings.Cut(o, "/testlogs/krm_incrementality/"); ok {
					name, _, _ := strings.Cut(rest, "/")
					got = append(got, name)
				}
			}
		}
		slices.Sort(got)
		got = slices.Compact(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: validate tests run: %q, want %q", what, got, want)
		}
	}
	testAndExpect("validate tests, first run", "other_validate_test", "top_validate_test")
	write("base/configmap.yaml", configMap("base-validated-"+nonce, "  "))
	testAndExpect("validate tests after an edit of a base file", "top_validate_test")
	write("base/configmap.yaml", "# a comment-only edit "+nonce+"\n"+configMap("base-validated-"+nonce, "  "))
	testAndExpect("validate tests after a comment-only edit of a base file (same manifests)")
	// A policy is an input of the tests naming it (policies = [...]) only.
	write("policies/prod.yaml", strings.Replace(readFile(t, filepath.Join(pkg, "policies/prod.yaml")), "("+nonce+")", "(edited "+nonce+")", 1))
	testAndExpect("validate tests after an edit of a policy only top's names", "top_validate_test")
	testAndExpect("validate tests again (nothing changed)")
}

// configMap is the ConfigMap settings whose data.value is value, indented by indent.
func configMap(value, indent string) string {
	return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n%sname: settings\ndata:\n%svalue: %q\n", indent, indent, value)
}
