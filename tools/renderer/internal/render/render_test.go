package render

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/snapshot"
)

// layered is three levels: prod -> app -> base, plus a component and a
// second base, with generators, name references, vars and prefixes
// crossing the levels.
var layered = map[string]string{
	"/r/prod/kustomization.yaml": `namespace: prod
namePrefix: prod-
resources:
- ../app
- ../extra
components:
- ../comp
images:
- name: nginx
  newTag: "1.27"
configMapGenerator:
- name: settings
  behavior: merge
  literals:
  - env=prod
`,
	"/r/app/kustomization.yaml": `namePrefix: app-
commonLabels:
  app: web
resources:
- ../base
- svc.yaml
vars:
- name: SVC
  objref:
    apiVersion: v1
    kind: Service
    name: web
`,
	"/r/app/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n",
	"/r/base/kustomization.yaml": `resources:
- deploy.yaml
configMapGenerator:
- name: settings
  literals:
  - env=dev
  - mode=fast
`,
	"/r/base/deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx
        args: ["--upstream=$(SVC)"]
        envFrom:
        - configMapRef:
            name: settings
`,
	"/r/extra/kustomization.yaml": "resources:\n- cm.yaml\n",
	"/r/extra/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n",
	"/r/comp/kustomization.yaml":  "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonAnnotations:\n  comp: \"on\"\n",
}

func TestBuild(t *testing.T) {
	fs := krmtest.MemFS(t, layered)
	out, err := Build(fs, "/r/prod", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		"name: prod-app-web\n  namespace: prod",
		"image: nginx:1.27",
		"--upstream=prod-app-web",
		"comp: \"on\"",
		"app: web",
		"env: prod",
		"mode: fast",
		"name: prod-extra",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// The generated ConfigMap got its hash and the Deployment refers to it.
	if !strings.Contains(s, "configMapRef:\n            name: prod-app-settings-") {
		t.Errorf("envFrom does not refer to the hashed ConfigMap:\n%s", s)
	}
	// Legacy order: ConfigMaps, Service, Deployment.
	if i, j, k := strings.Index(s, "kind: ConfigMap"), strings.Index(s, "kind: Service"), strings.Index(s, "kind: Deployment"); !(i < j && j < k) {
		t.Errorf("not in legacy order:\n%s", s)
	}
	if strings.Contains(s, "internal.config.kubernetes.io") || strings.Contains(s, "config.kubernetes.io/origin") {
		t.Errorf("bookkeeping left in the output:\n%s", s)
	}
	// Deterministic.
	again, err := Build(fs, "/r/prod", Options{})
	if err != nil || string(again) != s {
		t.Errorf("second build differs: %v", err)
	}
}

// renderLevels renders base, app and prod one at a time, each from the
// snapshots of the levels below, and returns prod's manifests.
func renderLevels(t *testing.T, fs filesys.FileSystem) []byte {
	t.Helper()
	return renderLevelsWith(t, fs, false)
}

// renderLevelsWith is renderLevels with the snapshots rendered with origins
// (for a top whose buildMetadata asks).
func renderLevelsWith(t *testing.T, fs filesys.FileSystem, origins bool) []byte {
	t.Helper()
	levels := []struct {
		dir, label string
		deps       map[string]string
	}{
		{"/r/base", "//base:base", nil},
		{"/r/extra", "//extra:extra", nil},
		{"/r/app", "//app:app", map[string]string{"/r/base": "/snap/base.yaml"}},
		{"/r/prod", "//prod:prod", map[string]string{"/r/app": "/snap/app.yaml", "/r/extra": "/snap/extra.yaml"}},
	}
	var last []byte
	for _, l := range levels {
		res, err := Render(fs, l.dir, Options{Deps: l.deps, Hermetic: true, Label: l.label, Origins: origins, Snapshot: true})
		if err != nil {
			t.Fatalf("rendering %s: %v", l.dir, err)
		}
		if len(res.Snapshot) == 0 || len(res.Manifests) == 0 {
			t.Fatalf("rendering %s: empty snapshot or manifests", l.dir)
		}
		name := l.dir[strings.LastIndex(l.dir, "/")+1:]
		if err := fs.WriteFile("/snap/"+name+".yaml", res.Snapshot); err != nil {
			t.Fatal(err)
		}
		// Each level's own manifests equal a one-shot build of it.
		want, err := Build(fs, l.dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Manifests) != string(want) {
			t.Errorf("%s: Render manifests differ from Build:\n%s\nwant:\n%s", l.dir, res.Manifests, want)
		}
		last = res.Manifests
	}
	return last
}

func TestRenderWithSnapshotsEqualsBuild(t *testing.T) {
	for _, meta := range []string{"", "buildMetadata: [originAnnotations, transformerAnnotations]\n"} {
		files := map[string]string{}
		for k, v := range layered {
			files[k] = v
		}
		files["/r/prod/kustomization.yaml"] += meta
		fs := krmtest.MemFS(t, files)
		want, err := Build(fs, "/r/prod", Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := renderLevelsWith(t, fs, meta != "")
		if string(got) != string(want) {
			t.Errorf("buildMetadata %q: level by level:\n%s\none shot:\n%s", meta, got, want)
		}
		if meta != "" && !strings.Contains(string(got), "path: ../base/deploy.yaml") {
			t.Errorf("origins not rebased to the top:\n%s", got)
		}
	}
}

// A snapshot carries origins only when rendered with them: tracking them
// writes annotations later transformers see. A top whose buildMetadata
// asks for them refuses bases rendered without, naming what to set.
func TestOriginsOnlyWhenAsked(t *testing.T) {
	files := map[string]string{}
	for k, v := range layered {
		files[k] = v
	}
	files["/r/prod/kustomization.yaml"] += "buildMetadata: [originAnnotations]\n"
	fs := krmtest.MemFS(t, files)
	for _, l := range []struct{ dir, label, dep string }{{"base", "//base:base", ""}, {"app", "//app:app", "base"}, {"extra", "//extra:extra", ""}} {
		opts := Options{Hermetic: true, Label: l.label, SnapshotOnly: true}
		if l.dep != "" {
			opts.Deps = map[string]string{"/r/" + l.dep: "/snap/" + l.dep + ".yaml"}
		}
		res, err := Render(fs, "/r/"+l.dir, snapshotOpts(opts))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(res.Snapshot), "config.kubernetes.io/origin") {
			t.Errorf("snapshot of %s rendered without Origins carries origins:\n%s", l.dir, res.Snapshot)
		}
		if err := fs.WriteFile("/snap/"+l.dir+".yaml", res.Snapshot); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Render(fs, "/r/prod", Options{Deps: map[string]string{"/r/app": "/snap/app.yaml", "/r/extra": "/snap/extra.yaml"}, Hermetic: true, Label: "//prod:prod"})
	want := "base '../app' was rendered without origins, which the buildMetadata of /r/prod/kustomization.yaml needs: set build_metadata = True on //prod:prod (Gazelle does)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got error %v, want one containing %q", err, want)
	}
}

// The snapshots, not the sources, are read for declared bases.
func TestRenderReadsSnapshotsNotSources(t *testing.T) {
	fs := krmtest.MemFS(t, layered)
	want, err := Build(fs, "/r/prod", Options{})
	if err != nil {
		t.Fatal(err)
	}
	renderLevels(t, fs)
	for _, p := range []string{"/r/base/kustomization.yaml", "/r/app/kustomization.yaml", "/r/extra/kustomization.yaml"} {
		if err := fs.WriteFile(p, []byte("this is: [not a kustomization\n")); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Render(fs, "/r/prod", Options{
		Deps:     map[string]string{"/r/app": "/snap/app.yaml", "/r/extra": "/snap/extra.yaml"},
		Hermetic: true, Label: "//prod:prod",
	})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Manifests) != string(want) {
		t.Errorf("from snapshots:\n%s\nwant:\n%s", res.Manifests, want)
	}
	if res.Snapshot != nil {
		t.Errorf("snapshot produced without being asked")
	}
}

// A base read from a snapshot is found by its path alone: in Bazel's sandbox
// its directory does not exist. With --hermetic, an entry of resources that
// is neither a file nor a declared base is one error naming both fixes.
func TestRenderBasesWithoutDirectories(t *testing.T) {
	full := krmtest.MemFS(t, layered)
	want, err := Build(full, "/r/prod", Options{})
	if err != nil {
		t.Fatal(err)
	}
	renderLevels(t, full)
	files := map[string]string{}
	for _, p := range []string{"/r/prod/kustomization.yaml", "/r/comp/kustomization.yaml", "/snap/app.yaml", "/snap/extra.yaml"} {
		b, err := full.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = string(b)
	}
	fs := krmtest.MemFS(t, files)
	if fs.Exists("/r/app") || fs.Exists("/r/extra") {
		t.Fatal("the base directories exist")
	}
	deps := map[string]string{"/r/app": "/snap/app.yaml", "/r/extra": "/snap/extra.yaml"}
	res, err := Render(fs, "/r/prod", Options{Deps: deps, Hermetic: true, Label: "//prod:prod", Snapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Manifests) != string(want) {
		t.Errorf("without base directories:\n%s\nwant:\n%s", res.Manifests, want)
	}

	prod := files["/r/prod/kustomization.yaml"]
	for _, tc := range []struct {
		entry, kust string
		deps        map[string]string
		fix         string
	}{
		// A base missing from deps.
		{"../extra", prod, map[string]string{"/r/app": "/snap/app.yaml"},
			"add the krm_kustomization target of /r/extra to deps of //prod:prod (or, if it is a file, add it to srcs of //prod:prod)"},
		// A file missing from srcs.
		{"missing.yaml", strings.Replace(prod, "- ../extra\n", "- ../extra\n- missing.yaml\n", 1), deps,
			"add /r/prod/missing.yaml to srcs of //prod:prod"},
	} {
		if err := fs.WriteFile("/r/prod/kustomization.yaml", []byte(tc.kust)); err != nil {
			t.Fatal(err)
		}
		_, err := Render(fs, "/r/prod", Options{Deps: tc.deps, Hermetic: true, Label: "//prod:prod", Snapshot: true})
		msg := "'" + tc.entry + "' (resources of /r/prod/kustomization.yaml) is not a declared input: " + tc.fix
		if err == nil || !strings.HasSuffix(err.Error(), msg) {
			t.Errorf("%s: error = %v\nwant one ending in %s", tc.entry, err, msg)
		} else if strings.Count(err.Error(), "'"+tc.entry+"'") != 1 {
			t.Errorf("%s: error names the entry more than once: %v", tc.entry, err)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	fs := krmtest.MemFS(t, layered)
	renderLevels(t, fs)
	if err := fs.WriteFile("/snap/bad.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")); err != nil {
		t.Fatal(err)
	}
	comp, err := Render(fs, "/r/comp", Options{Label: "//comp:comp", Snapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.WriteFile("/snap/comp.yaml", comp.Snapshot); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		dir  string
		opts Options
		want []string
	}{
		{
			name: "hermetic base without a dep",
			dir:  "/r/prod",
			opts: Options{Hermetic: true, Label: "//prod:prod", Deps: map[string]string{"/r/extra": "/snap/extra.yaml"}},
			want: []string{"base '../app'", "is not a declared input", "add the krm_kustomization target of /r/app to deps of //prod:prod"},
		},
		{
			name: "hermetic missing file names the label",
			dir:  "/r/app",
			opts: Options{Hermetic: true, Label: "//app:app", Deps: map[string]string{"/r/base": "/snap/base.yaml"}},
			want: []string{`"missing.yaml" is not a declared input: add /r/app/missing.yaml to srcs of //app:app`},
		},
		{
			name: "not a snapshot",
			dir:  "/r/app",
			opts: Options{Deps: map[string]string{"/r/base": "/snap/bad.yaml"}},
			want: []string{"snapshot /snap/bad.yaml (of /r/base)", "not a snapshot of this krm version"},
		},
		{
			name: "missing snapshot file",
			dir:  "/r/app",
			opts: Options{Deps: map[string]string{"/r/base": "/snap/none.yaml"}},
			want: []string{"reading snapshot of /r/base"},
		},
		{
			name: "bad load restrictor",
			dir:  "/r/app",
			opts: Options{LoadRestrictor: "sometimes"},
			want: []string{"unknown load restrictor \"sometimes\""},
		},
		{
			name: "missing directory",
			dir:  "/r/nope",
			opts: Options{},
			want: []string{"must build at directory", "/r/nope"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "hermetic missing file names the label" {
				fs.WriteFile("/r/app/kustomization.yaml", []byte(layered["/r/app/kustomization.yaml"]+"patches:\n- path: missing.yaml\n")) //nolint:errcheck
				defer fs.WriteFile("/r/app/kustomization.yaml", []byte(layered["/r/app/kustomization.yaml"]))                              //nolint:errcheck
			}
			_, err := Render(fs, tc.dir, snapshotOpts(tc.opts))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
		})
	}
	// A Component snapshot may not stand for a base.
	if !strings.Contains(string(comp.Snapshot), "kustomizationKind: Component") {
		t.Errorf("component snapshot:\n%s", comp.Snapshot)
	}
	_, err = Render(fs, "/r/app", Options{Deps: map[string]string{"/r/base": "/snap/comp.yaml"}})
	if err == nil || !strings.Contains(err.Error(), "expected kind != 'Component'") {
		t.Errorf("component snapshot as a base: error = %v", err)
	}
}

type fakePrebuilt struct {
	acc    *accumulate.Accumulation
	looked []string
}

func (f *fakePrebuilt) Lookup(dir string) (*accumulate.Accumulation, string, bool, error) {
	f.looked = append(f.looked, dir)
	if dir != "/r/base" {
		return nil, "", false, nil
	}
	return f.acc.DeepCopy(), "Kustomization", true, nil
}

func TestPrebuiltOption(t *testing.T) {
	fs := krmtest.MemFS(t, layered)
	base, err := Render(fs, "/r/base", Options{Snapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Decode(base.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	pre := &fakePrebuilt{acc: s.Accumulation}
	got, err := Build(fs, "/r/prod", Options{Prebuilt: pre, Deps: map[string]string{"/r/app": "/ignored"}})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Build(fs, "/r/prod", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("with Prebuilt:\n%s\nwant:\n%s", got, want)
	}
	found := false
	for _, d := range pre.looked {
		found = found || d == "/r/base"
	}
	if !found {
		t.Errorf("Prebuilt never asked for /r/base: %v", pre.looked)
	}
}

func TestLoadRestrictorOption(t *testing.T) {
	fs := krmtest.MemFS(t, map[string]string{
		"/r/app/kustomization.yaml": "resources:\n- ../shared/cm.yaml\n",
		"/r/shared/cm.yaml":         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n",
	})
	for _, r := range []string{"", LoadRestrictionsRootOnly} {
		if _, err := Build(fs, "/r/app", Options{LoadRestrictor: r}); err == nil || !strings.Contains(err.Error(), "is not in or below") {
			t.Errorf("restrictor %q: error = %v", r, err)
		}
	}
	out, err := Build(fs, "/r/app", Options{LoadRestrictor: LoadRestrictionsNone})
	if err != nil || !strings.Contains(string(out), "name: shared") {
		t.Errorf("LoadRestrictionsNone: %v\n%s", err, out)
	}
}

// Regression: a referrer whose metadata.namespace is null (`namespace: null`) is
// treated by krm as living in namespace "null" (resourcemap.readMeta takes
// the scalar text), so its references to objects in the default namespace
// are not updated. kustomize v5.8.2 prints `name: p-cfg` here; krm keeps
// `name: cfg`.
func TestNullNamespaceReferrer(t *testing.T) {
	fs := krmtest.MemFS(t, map[string]string{
		"/r/app/kustomization.yaml": "namePrefix: p-\nresources:\n- r.yaml\n",
		"/r/app/r.yaml":             "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: null\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: nginx\n        envFrom:\n        - configMapRef:\n            name: cfg\n",
	})
	out, err := Build(fs, "/r/app", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "configMapRef:\n            name: p-cfg") {
		t.Errorf("reference not updated:\n%s", out)
	}
}

// A comment-only edit of a base leaves its snapshot byte-identical, so
// Bazel re-runs nothing above it (kustomize prints no comments either).
func TestSnapshotsCarryNoComments(t *testing.T) {
	plain := map[string]string{
		"/r/base/kustomization.yaml": "resources:\n- cm.yaml\n",
		"/r/base/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: b\n",
	}
	commented := map[string]string{
		"/r/base/kustomization.yaml": "# the base\nresources:\n- cm.yaml # one file\n",
		"/r/base/cm.yaml":            "# head\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x # name\ndata:\n  # data\n  a: b # inline\n# foot\n",
	}
	var snaps [2][]byte
	for i, files := range []map[string]string{plain, commented} {
		res, err := Render(krmtest.MemFS(t, files), "/r/base", Options{Snapshot: true})
		if err != nil {
			t.Fatal(err)
		}
		snaps[i] = res.Snapshot
	}
	if string(snaps[0]) != string(snaps[1]) {
		t.Errorf("a comment-only edit changed the snapshot:\n%s\nvs\n%s", snaps[0], snaps[1])
	}
	if strings.Contains(string(snaps[1]), "#") {
		t.Errorf("snapshot carries comments:\n%s", snaps[1])
	}
}

// A tree that sets openapi renders its bases from sources: from snapshots
// it fails naming the attribute to set, on the base that sets it or on the
// top. testdata/openapi-tree/app.kustomize.yaml is kustomize's output.
func TestOpenAPIBasesFromSources(t *testing.T) {
	tree, err := filepath.Abs("testdata/openapi-tree")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(tree, "app.kustomize.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fs := filesys.MakeFsOnDisk()
	snaps := t.TempDir()
	deps := map[string]string{}
	for _, base := range []string{"crds", "widgets"} {
		res, err := Render(fs, filepath.Join(tree, base), Options{Hermetic: true, Label: "//" + base, SnapshotOnly: true, Snapshot: true})
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(snaps, base)
		if err := os.WriteFile(file, res.Snapshot, 0o644); err != nil {
			t.Fatal(err)
		}
		deps[filepath.Join(tree, base)] = file
	}
	app := filepath.Join(tree, "app")
	_, err = Render(fs, app, Options{Hermetic: true, Label: "//app", Deps: deps})
	if !errors.Is(err, accumulate.ErrOpenAPISnapshot) || !strings.Contains(err.Error(), "set openapi = True on //crds") {
		t.Errorf("from snapshots: got error %v, want %v naming //crds", err, accumulate.ErrOpenAPISnapshot)
	}
	res, err := Render(fs, app, Options{Hermetic: true, Label: "//app", Deps: deps, BasesFromSources: true})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Manifests) != string(want) {
		t.Errorf("from sources: got\n%s\nwant (kustomize)\n%s", res.Manifests, want)
	}
	if ok, err := NeedsBaseSources(fs, app); err != nil || !ok {
		t.Errorf("NeedsBaseSources(app) = %v, %v; want true (its base crds sets openapi)", ok, err)
	}
	if ok, err := NeedsBaseSources(fs, filepath.Join(tree, "widgets")); err != nil || ok {
		t.Errorf("NeedsBaseSources(widgets) = %v, %v; want false", ok, err)
	}
}

// snapshotOpts is opts asking for the snapshot too.
func snapshotOpts(opts Options) Options {
	opts.Snapshot = true
	return opts
}

// TestVarErrorNamesItsDeclaration checks that a var whose object is missing
// is reported in kustomize's words after the kustomization file declaring
// it, or the label of the base's snapshot (snapshots hold no paths).
func TestVarErrorNamesItsDeclaration(t *testing.T) {
	files := map[string]string{
		"/r/base/kustomization.yaml": "resources:\n- cm.yaml\nvars:\n- name: SVC\n  objref:\n    apiVersion: v1\n    kind: Service\n    name: missing\n",
		"/r/base/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: $(SVC)\n",
		"/r/app/kustomization.yaml":  "resources:\n- ../base\n",
	}
	const words = "vars: var '{SVC Service.v1.[noGrp] {metadata.name}}' cannot be mapped to a field in the set of known resources"
	fs := krmtest.MemFS(t, files)
	if _, err := Build(fs, "/r/app", Options{}); err == nil || err.Error() != "/r/base/kustomization.yaml: "+words {
		t.Errorf("from sources: %v", err)
	}
	base, err := Render(fs, "/r/base", Options{Hermetic: true, Label: "//base", SnapshotOnly: true, Snapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.WriteFile("/snap/base.yaml", base.Snapshot); err != nil {
		t.Fatal(err)
	}
	_, err = Render(fs, "/r/app", Options{Hermetic: true, Label: "//app", Deps: map[string]string{"/r/base": "/snap/base.yaml"}})
	if err == nil || err.Error() != "//base: "+words {
		t.Errorf("from a snapshot: %v", err)
	}
}

// An object nesting deeper than kustomize can print fails the build, as
// kustomize's does: when its file is read (naming the file and the object),
// or, made that deep by a patch, when it is printed (naming the object).
func TestMaxDepth(t *testing.T) {
	lists := func(depth int) string { // depth collections, the root counted
		return "spec: " + strings.Repeat("[", depth-1) + "1" + strings.Repeat("]", depth-1) + "\n"
	}
	const head = "apiVersion: v1\nkind: Foo\nmetadata:\n  name: deep\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"read", map[string]string{
			"/app/kustomization.yaml": "resources: [deep.yaml]\n",
			"/app/deep.yaml":          head + lists(10001),
		}, `accumulating resources from 'deep.yaml': deep.yaml: Foo "deep": yaml: exceeded max depth of 10000`},
		{"patched", map[string]string{
			"/app/kustomization.yaml": "resources: [deep.yaml]\npatches: [{path: patch.yaml}]\n",
			"/app/deep.yaml":          head + lists(3),
			"/app/patch.yaml":         head + lists(10001),
		}, "Foo.v1.[noGrp]/deep.[noNs]: yaml: exceeded max depth of 10000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(krmtest.MemFS(t, tc.files), "/app", Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || len(err.Error()) > 400 {
				t.Errorf("got %.400v, want a short error containing %q", err, tc.want)
			}
		})
	}
	at := map[string]string{"/app/kustomization.yaml": "resources: [deep.yaml]\n", "/app/deep.yaml": head + lists(10000)}
	if out, err := Build(krmtest.MemFS(t, at), "/app", Options{}); err != nil || !strings.HasPrefix(string(out), head+"spec:\n- - - ") {
		t.Errorf("at the bound: %.200s, %v; want it printed", out, err)
	}
}
