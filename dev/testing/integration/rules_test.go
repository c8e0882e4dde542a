//go:build bazel

package integration

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

// The errors of krm_kustomization that Bazel's own tests cannot check (a failing build; the
// analysis errors are bazel-skylib analysis tests in rules/tests/analysis), on fixtures
// tagged manual in the checkout, built in its own output base (shared with `bazel test
// //...` of dev/scripts/bazel-test.sh).

const hermetic = "//rules/tests/hermetic"

// buildFailure: `bazel build FLAGS TARGET` must fail and print every text.
type buildFailure struct {
	target string
	texts  []string
}

// Undeclared inputs: they fail the same way with and without a sandbox (the renderer reads
// only the files the action declares, its --input flags).
var undeclaredInputs = []buildFailure{
	// A base named in resources but not in deps.
	{hermetic + ":missing_dep", []string{"'../base' (resources of rules/tests/hermetic/missing_dep/kustomization.yaml) is not a declared input: add the krm_kustomization target of rules/tests/hermetic/base to deps of " + hermetic + ":missing_dep"}},
	// A file named in resources but not in srcs.
	{hermetic + ":missing_src", []string{"'configmap.yaml' (resources of rules/tests/hermetic/missing_src/kustomization.yaml) is not a declared input: add rules/tests/hermetic/missing_src/configmap.yaml to srcs of " + hermetic + ":missing_src"}},
	// A component's patch not in its srcs: the component's own target fails, naming itself.
	{hermetic + ":component_missing_patch", []string{`"color.yaml" is not a declared input: add rules/tests/hermetic/component_missing_patch/color.yaml to srcs of ` + hermetic + ":component_missing_patch"}},
	// A component named in components but not in deps.
	{hermetic + ":missing_component", []string{"'../component' (components of rules/tests/hermetic/missing_component/kustomization.yaml) is not a declared input: add the krm_kustomization target of rules/tests/hermetic/component to deps of " + hermetic + ":missing_component"}},
}

var otherFailures = []buildFailure{
	// A base kustomize cannot build alone: its manifests fail, while the target using it
	// builds (rules/tests/alone:top_golden_test).
	{"//rules/tests/alone:base_manifests", []string{"field specified in var '{IP Service.v1.[noGrp] {spec.clusterIP}}' not found in corresponding resource"}},
	// kind = "Component" on a Kustomization.
	{hermetic + ":kind_mismatch", []string{`rules/tests/hermetic/kind_mismatch/kustomization.yaml has kind Kustomization, but ` + hermetic + `:kind_mismatch says kind = "Component"`}},
	// openapi set in the file, not on the target: reading a base from its snapshot is refused.
	{hermetic + ":missing_openapi", []string{"rules/tests/hermetic/missing_openapi/kustomization.yaml sets openapi, whose schema kustomize applies to everything rendered after it: the bases cannot be read from snapshots: set openapi = True on " + hermetic + ":missing_openapi (Gazelle does)"}},
	// A Starlark script (path: of a StarlarkRun) not in srcs, and a .star file it loads not in srcs.
	{hermetic + ":missing_star", []string{`"set_owner.star" is not a declared input: add rules/tests/hermetic/missing_star/set_owner.star to srcs of ` + hermetic + ":missing_star"}},
	{hermetic + ":missing_star_load", []string{"cannot load lib/owner.star", `"lib/owner.star" is not a declared input: add rules/tests/hermetic/missing_star_load/lib/owner.star to srcs of ` + hermetic + ":missing_star_load"}},
	// An exec function not declared in functions: it does not run, even with its file in srcs.
	{hermetic + ":undeclared_function", []string{`exec path "./fn/set-owner"`, "is not a declared function", "add it to the functions attribute of " + hermetic + ":undeclared_function", `functions = {"./fn/set-owner": ":my_function"}`}},
	// images: a digest file without a digest (the error names the image, the file and the label).
	{"//rules/tests/images:bad_digest", []string{"image app: digest file bazel-out/", `/rules/tests/images/latest.digest (from //rules/tests/images:latest_digest): "latest" is not an image digest`}},
	// A chart inheriting the including kustomization's namespace, read from a snapshot: the
	// error names the attribute that makes the parents render it from sources.
	{"//rules/tests/helm:team_missing_attribute", []string{`base '../shared' inflates a helm chart without a namespace; kustomize gives it the namespace "team-a"`, "set helm_inherits_namespace = True on the krm_kustomization whose file has that helmCharts entry"}},
	// A chart whose files are not in srcs: the lean renderer (no Helm) ran, and says what to add.
	{"//rules/tests/helm:chart_not_in_srcs", []string{"rules/tests/helm/shared/kustomization.yaml", "add the chart's files (its Chart.yaml, or the packaged .tgz) to srcs of the krm_kustomization inflating it"}},
	// A tree that sets openapi renders bad_digest from its sources, with bad_digest's pins.
	{"//rules/tests/images:openapi", []string{"image app: digest file bazel-out/", `/rules/tests/images/latest.digest (from //rules/tests/images:latest_digest): "latest" is not an image digest`}},
	// The example validator (a Starlark validator in a component) rejects a :latest image
	// (Bazel prints the message quoted, hence the backslashes).
	{"//examples/functions:latest", []string{`StarlarkRun \"no-latest\"`, "images must be pinned to a version (not :latest, not untagged): Deployment shop/debug, container shell: busybox:latest; Deployment shop/debug, container setup: alpine"}},
}

// checkoutBazel is Bazel in the checkout with its default output base, and the shared disk
// cache flag.
func checkoutBazel(t *testing.T) (*bazeltest.Bazel, string, string) {
	root := bazeltest.Root(t)
	return bazeltest.New(t, root, ""), root, "--disk_cache=" + bazeltest.DiskCache(t)
}

func TestRulesBuildFailures(t *testing.T) {
	bz, root, cache := checkoutBazel(t)
	// The render actions run in a sandbox, as local processes, or in a persistent worker
	// (outside the sandbox; Bazel's default for them).
	for _, strategy := range []string{"sandboxed", "local", "worker,sandboxed"} {
		for _, c := range undeclaredInputs {
			expectBuildFailure(t, bz, root, cache, c, "--spawn_strategy="+strategy)
		}
	}
	for _, c := range otherFailures {
		expectBuildFailure(t, bz, root, cache, c)
	}
}

// absolutePath matches what an error must never name: a sandbox, the execution root or a
// temporary directory (the checkout's path is checked apart).
var absolutePath = regexp.MustCompile(`/execroot/|sandbox|/tmp/`)

func expectBuildFailure(t *testing.T, bz *bazeltest.Bazel, root, cache string, c buildFailure, flags ...string) {
	t.Helper()
	name := strings.Join(append(append([]string{"build"}, flags...), c.target), " ")
	r := bz.Run(t, append(append([]string{"build", cache}, flags...), c.target)...)
	out := r.Output()
	if r.ExitCode == 0 {
		t.Errorf("bazel %s succeeded, want it to fail", name)
		return
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "Error:") && (absolutePath.MatchString(line) || strings.Contains(line, root)) {
			t.Errorf("bazel %s: the error names an absolute path: %s", name, line)
		}
	}
	for _, text := range c.texts {
		if !strings.Contains(out, text) {
			t.Errorf("bazel %s: the error does not say:\n  %s\noutput:\n%s", name, text, out)
			return
		}
	}
	t.Logf("ok: bazel %s fails saying: %s", name, strings.Join(c.texts, " | "))
}

// krm_validate_test: a misspelt field or a broken CEL rule (rules/tests/validate, manual)
// fails the test; the log names the object, the field and the line, and test.xml is krm's
// JUnit report (a test case per object), not the one Bazel writes for a test that writes none.
func TestRulesValidateFailures(t *testing.T) {
	bz, _, cache := checkoutBazel(t)
	for _, c := range []struct {
		target string
		texts  []string
	}{
		{"//rules/tests/validate:misspelt_validate_test", []string{
			`rules/tests/validate/misspelt_manifests.yaml:7: Deployment/shop/web: spec.replica: unknown field "spec.replica"`,
			"1 objects, 1 invalid", `<testcase name="Deployment/shop/web"`, `<failure message="1 errors; first: spec.replica: unknown field`}},
		// With provenance, the error starts with the source line of the field.
		{"//rules/tests/validate:misspelt_provenance_validate_test", []string{
			`rules/tests/validate/misspelt/deploy.yaml:6: Deployment/shop/web: spec.replica: unknown field "spec.replica" (rendered at rules/tests/validate/misspelt_provenance_manifests.yaml:`}},
		// The CRD's CEL rule, checked by the API server's code in the full renderer; the
		// transition rule noted.
		{"//rules/tests/validate:celbad_validate_test", []string{
			"rules/tests/validate/celbad_manifests.yaml:8: Gauge/shop/g: spec.min: Invalid value: min must not exceed max",
			"note: rules/tests/validate/gauge-crd.yaml:25: CustomResourceDefinition/gauges.example.com: spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[1]: not checked offline: transition rule (needs the old object): self.max >= oldSelf.max",
			"1 objects, 1 invalid"}},
		// A real CRD's CEL rule (Gateway API's HTTPRoute), broken by a patch: the patch's lines.
		{"//rules/tests/validate:route_validate_test", []string{
			"rules/tests/validate/route/path-patch.yaml:8-10: HTTPRoute/shop/web: spec.rules[0].matches[0].path: Invalid value: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix'] (rendered at rules/tests/validate/route_manifests.yaml:",
			"1 objects, 1 invalid"}},
		// A ValidatingAdmissionPolicy's denial, at the source line of the field its rule reads.
		{"//rules/tests/validate:scaled_validate_test", []string{
			"rules/tests/validate/scaled/deploy.yaml:6: Deployment/shop/web: spec.replicas: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: at most 3 replicas, not 5 (rendered at rules/tests/validate/scaled_manifests.yaml:",
			"1 objects, 1 invalid"}},
		{"//rules/tests/validate:custom_strict_validate_test", []string{
			"Widget/shop/blue: no schema for example.com/v1 Widget", "Gadget/shop/anything: no schema for gadgets.example.com/v1alpha1 Gadget",
			"2 objects, 2 invalid"}},
	} {
		if r := bz.Run(t, "test", cache, c.target); r.ExitCode == 0 {
			t.Errorf("bazel test %s passed, want it to fail", c.target)
			continue
		}
		dir := filepath.Join(bz.Info(t, "bazel-testlogs"), strings.Replace(strings.TrimPrefix(c.target, "//"), ":", "/", 1))
		logs := readFile(t, filepath.Join(dir, "test.log")) + readFile(t, filepath.Join(dir, "test.xml"))
		for _, text := range c.texts {
			if !strings.Contains(logs, text) {
				t.Errorf("bazel test %s: its test.log and test.xml do not say:\n  %s\nthey hold:\n%s", c.target, text, logs)
			}
		}
	}
}

// Generated inputs (rules/tests/generated): the manifests equal what kustomize prints for
// the same tree with the generated files written in place.
func TestRulesGeneratedInputs(t *testing.T) {
	bz, root, cache := checkoutBazel(t)
	const gen = "rules/tests/generated"
	bz.Must(t, "build", cache, "//"+gen+":app_manifests", "//"+gen+":app_kustomization",
		"//"+gen+":build_info", "//"+gen+":replicas_patch", "//"+gen+":app_env")
	bin := bz.Info(t, "bazel-bin")
	tree := t.TempDir()
	if err := os.CopyFS(filepath.Join(tree, gen), os.DirFS(filepath.Join(root, gen))); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"app/kustomization.yaml", "app/build-info.yaml", "app/replicas-patch.yaml", "app/app.env"} {
		bazeltest.WriteFile(t, filepath.Join(tree, gen, f), readFile(t, filepath.Join(bin, gen, f)))
	}
	want := kustomizeBuild(t, root, filepath.Join(tree, gen, "app"))
	if got := readFile(t, filepath.Join(bin, gen, "app_manifests.yaml")); got != want {
		t.Errorf("//%s:app differs from kustomize build with the generated files in place:\n%s", gen, lineDiff(want, got))
	}
}

// Persistent workers: the render actions may run in one (no sandbox needed: the renderer
// reads only declared inputs), except those running an exec function, a process of its own
// that only the sandbox confines; the lean renderer's in a multiplex worker, several at once,
// the renderer with Helm's one at a time (Helm's libraries log through the process).
func TestRulesWorkers(t *testing.T) {
	bz, _, _ := checkoutBazel(t)
	for target, want := range map[string]struct{ worker, multiplex bool }{
		"//rules/tests/images:app":  {true, true},
		"//examples/helm:helm":      {true, false},
		"//examples/functions:exec": {false, false},
	} {
		r := bz.Must(t, "aquery", `mnemonic("KrmManifests", `+target+`)`)
		if !strings.Contains(r.Stdout, "Mnemonic: KrmManifests") {
			t.Fatalf("%s: no KrmManifests action:\n%s", target, r.Stdout)
		}
		worker, multiplex := strings.Contains(r.Stdout, "supports-workers: 1"), strings.Contains(r.Stdout, "supports-multiplex-workers: 1")
		if worker != want.worker || multiplex != want.multiplex {
			t.Errorf("%s: KrmManifests may run in a persistent worker: %v, a multiplex one: %v; want %v, %v", target, worker, multiplex, want.worker, want.multiplex)
		}
	}
}
