package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/emit"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provenance"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
)

// Secret values of provTree: none of them, nor their sha256 or base64
// (nor the sha256 of that), nor the sha256 of a file holding one, may
// appear in provenance output.
var secrets = []string{"S3cr3tValue!", "tok-ABCDEF123\n", "SuperSecretKey42", "OverlaySecret99"}

// provTree is base -> overlay with a component, generators (a ConfigMap
// from a file, a Secret from a literal and a file), a multi-document file
// holding a Secret, patches by path and inline (one writing into a Secret),
// name references and a prefix.
var provTree = map[string]string{
	"/ws/base/kustomization.yaml": `resources:
- deploy.yaml
- objs.yaml
configMapGenerator:
- name: settings
  files:
  - app.properties
secretGenerator:
- name: creds
  literals:
  - password=S3cr3tValue!
  files:
  - token.txt
`,
	"/ws/base/deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: web
        image: nginx
        envFrom:
        - configMapRef:
            name: settings
        - secretRef:
            name: creds
`,
	"/ws/base/objs.yaml": `# objects
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: other
data:
  k: v
---
apiVersion: v1
kind: Secret
metadata:
  name: static
stringData:
  apiKey: SuperSecretKey42
`,
	"/ws/base/app.properties": "mode=fast\n",
	"/ws/base/token.txt":      "tok-ABCDEF123\n",
	"/ws/comp/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
patches:
- path: patch.yaml
  target:
    kind: Deployment
`,
	"/ws/comp/patch.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: any
  annotations:
    comp: "yes"
`,
	"/ws/overlay/kustomization.yaml": `namePrefix: prod-
resources:
- ../base
components:
- ../comp
patches:
- path: svc-patch.yaml
- patch: |-
    apiVersion: v1
    kind: Secret
    metadata:
      name: static
    stringData:
      apiKey: OverlaySecret99
`,
	"/ws/overlay/svc-patch.yaml": `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 8080
`,
}

var provLabels = map[string]string{
	"/ws/base": "//base", "/ws/comp": "//comp", "/ws/overlay": "//overlay",
}

func provOpts() Options {
	return Options{Provenance: &provenance.Options{WorkspaceRoot: "/ws", Labels: provLabels}}
}

func renderProv(t *testing.T, files map[string]string) *Result {
	t.Helper()
	res, err := Render(krmtest.MemFS(t, files), "/ws/overlay", provOpts())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func manifestOf(t *testing.T, res *Result) *provmanifest.Manifest {
	t.Helper()
	m, err := provmanifest.ReadManifest(res.ProvenanceManifest)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// object finds the entry of kind/name.
func object(t *testing.T, m *provmanifest.Manifest, kind, name string) *provmanifest.Object {
	t.Helper()
	for i := range m.Objects {
		if o := &m.Objects[i]; o.ID.Kind == kind && strings.HasPrefix(o.ID.Name, name) {
			return o
		}
	}
	t.Fatalf("no %s %s in the manifest", kind, name)
	return nil
}

func digests(t *testing.T, res *Result) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, o := range manifestOf(t, res).Objects {
		out[o.ID.Kind+"/"+o.ID.Name] = o.InputsDigest
	}
	return out
}

func TestProvenanceStable(t *testing.T) {
	a, b := renderProv(t, provTree), renderProv(t, provTree)
	if !bytes.Equal(a.Manifests, b.Manifests) || !bytes.Equal(a.ProvenanceManifest, b.ProvenanceManifest) {
		t.Fatal("two renders of the same inputs differ")
	}
	// Without provenance the output is exactly the plain build's.
	plain, err := Build(krmtest.MemFS(t, provTree), "/ws/overlay", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte(provmanifest.AnnotationPrefix)) {
		t.Error("provenance annotations without --provenance")
	}
	for _, s := range []string{"/ws", "\"/ws"} {
		if bytes.Contains(a.ProvenanceManifest, []byte(s)) {
			t.Errorf("manifest holds an absolute path (%q)", s)
		}
	}
}

func TestProvenanceOrigins(t *testing.T) {
	res := renderProv(t, provTree)
	m := manifestOf(t, res)
	if m.Kustomization != "overlay" || m.Label != "//overlay" {
		t.Errorf("top %q %q", m.Kustomization, m.Label)
	}
	step := func(i int) provmanifest.StepInfo { return m.Steps[i] }
	kinds := func(o *provmanifest.Object) []string {
		var out []string
		for _, i := range o.Transformers {
			s := step(i)
			out = append(out, fmt.Sprintf("%s@%s(%s)", s.Kind, s.ConfiguredIn, s.Label))
		}
		return out
	}

	dep := object(t, m, "Deployment", "prod-web")
	if o := dep.Origin; o == nil || o.Path != "base/deploy.yaml" || o.StartLine != 1 || o.EndLine != 16 || o.Label != "//base" {
		t.Errorf("Deployment origin %+v", dep.Origin)
	}
	want := []string{
		"PatchTransformer@comp/kustomization.yaml(//comp)",
		"PrefixTransformer@overlay/kustomization.yaml(//overlay)",
	}
	if got := kinds(dep); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Deployment transformers %v, want %v", got, want)
	}
	if s := step(dep.Transformers[0]); fmt.Sprint(s.Files) != "[comp/patch.yaml]" {
		t.Errorf("component patch files %v", s.Files)
	}
	if len(dep.References) != 2 {
		t.Errorf("Deployment references %v, want the ConfigMap and the Secret", dep.References)
	}

	svc := object(t, m, "Service", "prod-web")
	if o := svc.Origin; o == nil || o.Path != "base/objs.yaml" || o.StartLine != 2 || o.EndLine != 8 {
		t.Errorf("Service origin %+v", svc.Origin)
	}
	other := object(t, m, "ConfigMap", "prod-other")
	if o := other.Origin; o == nil || o.StartLine != 10 || o.EndLine != 15 {
		t.Errorf("ConfigMap origin %+v", other.Origin)
	}
	want = []string{ // kustomize runs patches before namePrefix
		"PatchTransformer@overlay/kustomization.yaml(//overlay)",
		"PrefixTransformer@overlay/kustomization.yaml(//overlay)",
	}
	if got := kinds(svc); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Service transformers %v, want %v", got, want)
	}

	cm := object(t, m, "ConfigMap", "prod-settings")
	if g := cm.Origin.Generator; g == nil {
		t.Errorf("settings origin %+v, want a generator", cm.Origin)
	} else if s := step(*g); s.Kind != "ConfigMapGenerator" || s.ConfiguredIn != "base/kustomization.yaml" || s.Label != "//base" ||
		fmt.Sprint(s.Files) != "[base/app.properties]" {
		t.Errorf("settings generator %+v", s)
	}

	// The annotations say the same, without line spans or hashes.
	for _, line := range []string{
		`provenance.rules-krm.dev/origin: '{"path":"base/deploy.yaml","label":"//base"}'`,
		`provenance.rules-krm.dev/transformers: '[{"configuredIn":"comp/kustomization.yaml","label":"//comp","kinds":["PatchTransformer"]},{"configuredIn":"overlay/kustomization.yaml","label":"//overlay","kinds":["PrefixTransformer"]}]'`,
		`provenance.rules-krm.dev/origin: '{"generator":"ConfigMapGenerator","configuredIn":"base/kustomization.yaml","label":"//base"}'`,
		"provenance.rules-krm.dev/inputs-digest: " + dep.InputsDigest,
	} {
		if !bytes.Contains(res.Manifests, []byte(line)) {
			t.Errorf("manifests lack %s", line)
		}
	}
}

func TestProvenanceWithoutBuildMetadataOrLabels(t *testing.T) {
	// Origins do not depend on buildMetadata; without a label map they
	// carry paths only.
	files := maps.Clone(provTree)
	files["/ws/overlay/kustomization.yaml"] += "buildMetadata: [originAnnotations, transformerAnnotations]\n"
	res, err := Render(krmtest.MemFS(t, files), "/ws/overlay", Options{Provenance: &provenance.Options{WorkspaceRoot: "/ws"}})
	if err != nil {
		t.Fatal(err)
	}
	m := manifestOf(t, res)
	dep := object(t, m, "Deployment", "prod-web")
	if dep.Origin.Path != "base/deploy.yaml" || dep.Origin.Label != "" || len(dep.Transformers) != 2 {
		t.Errorf("Deployment %+v", dep)
	}
	// kustomize's own annotations are still there, relative to the top.
	if !bytes.Contains(res.Manifests, []byte("path: ../base/deploy.yaml")) {
		t.Error("buildMetadata origin annotations missing")
	}
}

// TestProvenanceSensitivity edits one input at a time and checks which
// digests change: exactly the objects the input contributed to.
func TestProvenanceSensitivity(t *testing.T) {
	base := digests(t, renderProv(t, provTree))
	for _, tc := range []struct {
		name    string
		edit    func(map[string]string)
		changed []string // kind/name-prefix of the objects whose digest must change
	}{
		{"source document", func(f map[string]string) {
			f["/ws/base/deploy.yaml"] = strings.Replace(f["/ws/base/deploy.yaml"], "image: nginx", "image: nginx:2", 1)
		}, []string{"Deployment/prod-web"}},
		{"one document of a multi-document file", func(f map[string]string) {
			f["/ws/base/objs.yaml"] = strings.Replace(f["/ws/base/objs.yaml"], "k: v", "k: w", 1)
		}, []string{"ConfigMap/prod-other"}},
		{"comment before a document", func(f map[string]string) {
			f["/ws/base/objs.yaml"] = "# moved\n\n" + f["/ws/base/objs.yaml"]
		}, nil},
		{"patch that changes it", func(f map[string]string) {
			f["/ws/comp/patch.yaml"] = strings.Replace(f["/ws/comp/patch.yaml"], `"yes"`, `"no"`, 1)
		}, []string{"Deployment/prod-web"}},
		{"another object's patch", func(f map[string]string) {
			f["/ws/overlay/svc-patch.yaml"] = strings.Replace(f["/ws/overlay/svc-patch.yaml"], "8080", "9090", 1)
		}, []string{"Service/prod-web"}},
		{"generator source", func(f map[string]string) {
			f["/ws/base/app.properties"] = "mode=slow\n"
		}, []string{"ConfigMap/prod-settings", "Deployment/prod-web"}}, // the Deployment refers to the renamed ConfigMap
		{"unrelated patch added", func(f map[string]string) {
			f["/ws/overlay/kustomization.yaml"] += "- patch: |-\n    apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: other\n    data:\n      x: y\n"
		}, []string{"ConfigMap/prod-other"}},
		{"unrelated object added", func(f map[string]string) {
			f["/ws/base/objs.yaml"] += "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n"
		}, []string{"ConfigMap/prod-extra"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := maps.Clone(provTree)
			tc.edit(files)
			got := digests(t, renderProv(t, files))
			for id, d := range got {
				want := false
				for _, c := range tc.changed {
					want = want || strings.HasPrefix(id, c)
				}
				old, existed := base[id]
				if !existed {
					// Renamed (hash suffix) or new: compare by prefix.
					for oid, od := range base {
						if strings.SplitN(oid, "-", 3)[:2][1] == strings.SplitN(id, "-", 3)[:2][1] && strings.HasPrefix(oid, strings.Split(id, "/")[0]) {
							old, existed = od, true
						}
					}
				}
				if changed := !existed || old != d; changed != want {
					t.Errorf("%s: digest changed=%v, want %v", id, changed, want)
				}
			}
		})
	}
}

// The OpenAPI schema a tree sets decides how patches merge lists: editing
// it changes the digest of what a patch changed under it, and of nothing
// else; the manifest lists it as read by the patch step.
func TestProvenanceOpenAPISchema(t *testing.T) {
	files := map[string]string{
		"/ws/overlay/kustomization.yaml": "openapi:\n  path: schema.json\nresources:\n- objs.yaml\npatches:\n- patch: |-\n    apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: patched\n    data:\n      b: \"2\"\n",
		"/ws/overlay/objs.yaml":          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: patched\ndata:\n  a: \"1\"\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: untouched\n",
		"/ws/overlay/schema.json":        `{"definitions": {}}`,
	}
	before := renderProv(t, files)
	files["/ws/overlay/schema.json"] = `{"definitions": {"x": {"type": "object"}}}`
	after := digests(t, renderProv(t, files))
	for id, old := range digests(t, before) {
		if changed, want := after[id] != old, id == "ConfigMap/patched"; changed != want {
			t.Errorf("%s: digest changed=%v after editing the schema, want %v", id, changed, want)
		}
	}
	for _, s := range manifestOf(t, before).Steps {
		if s.Kind == "PatchTransformer" && !slices.Contains(s.Files, "overlay/schema.json") {
			t.Errorf("patch step files = %v, want overlay/schema.json among them", s.Files)
		}
	}
}

// TestProvenanceNoSecrets checks that no secret value, nor its sha256 or
// base64 encoding (nor the sha256 of that), nor the sha256 of a file or
// configuration holding one, appears in the provenance manifest, the
// annotations, the snapshot header or errors.
func TestProvenanceNoSecrets(t *testing.T) {
	res, err := Render(krmtest.MemFS(t, provTree), "/ws/overlay", snapshotOpts(provOpts()))
	if err != nil {
		t.Fatal(err)
	}
	var forbidden []string
	h := func(s string) string { x := sha256.Sum256([]byte(s)); return hex.EncodeToString(x[:]) }
	for _, s := range secrets {
		b64 := base64.StdEncoding.EncodeToString([]byte(s))
		forbidden = append(forbidden, strings.TrimSpace(s), h(s), b64, h(b64), h(strings.TrimSpace(s)))
	}
	for _, p := range []string{"/ws/base/kustomization.yaml", "/ws/base/token.txt", "/ws/base/objs.yaml", "/ws/overlay/kustomization.yaml"} {
		forbidden = append(forbidden, h(provTree[p]))
	}
	// The Secret documents themselves.
	doc := provTree["/ws/base/objs.yaml"]
	forbidden = append(forbidden, h(doc[strings.LastIndex(doc, "apiVersion"):]))
	var annotations bytes.Buffer
	for _, l := range bytes.SplitAfter(res.Manifests, []byte("\n")) {
		if bytes.Contains(l, []byte(provmanifest.AnnotationPrefix)) {
			annotations.Write(l)
		}
	}
	header, _, _ := bytes.Cut(res.Snapshot, []byte("\n---\n"))
	for what, out := range map[string][]byte{
		"provenance manifest": res.ProvenanceManifest, "annotations": annotations.Bytes(), "snapshot header": header,
	} {
		for _, f := range forbidden {
			if bytes.Contains(out, []byte(f)) {
				t.Errorf("%s contains %q", what, f)
			}
		}
	}
	m := manifestOf(t, res)
	files := m.FileIndex()
	for _, p := range []string{"base/kustomization.yaml", "base/token.txt", "base/objs.yaml", "overlay/kustomization.yaml"} {
		if f, ok := files[p]; !ok || !f.Redacted || f.Sha256 != "" {
			t.Errorf("file %s: %+v, want it listed, redacted", p, f)
		}
	}
	if f := files["base/deploy.yaml"]; f.Redacted || f.Sha256 != h(provTree["/ws/base/deploy.yaml"]) {
		t.Errorf("base/deploy.yaml: %+v, want its sha256", f)
	}
	sec := object(t, m, "Secret", "prod-static")
	if !sec.Origin.Redacted {
		t.Errorf("Secret origin %+v, want redacted", sec.Origin)
	}
	for _, i := range sec.Transformers {
		if s := m.Steps[i]; s.Kind == "PatchTransformer" && (!s.Redacted || s.ConfigSha256 != "") {
			t.Errorf("patch into a Secret %+v, want redacted", s)
		}
	}

	// Errors name files, never their content.
	files2 := maps.Clone(provTree)
	files2["/ws/overlay/kustomization.yaml"] += "- path: missing.yaml\n"
	_, err = Render(krmtest.MemFS(t, files2), "/ws/overlay", provOpts())
	if err == nil {
		t.Fatal("missing patch file: no error")
	}
	for _, f := range forbidden {
		if strings.Contains(err.Error(), f) {
			t.Errorf("error contains %q: %v", f, err)
		}
	}
}

// TestProvenanceThroughSnapshots renders base and overlay as Bazel does
// (each alone, the overlay reading the base's snapshot) and compares with
// the one-shot render.
func TestProvenanceThroughSnapshots(t *testing.T) {
	fs := krmtest.MemFS(t, provTree)
	base, err := Render(fs, "/ws/base", Options{Hermetic: true, Label: "//base", Provenance: provOpts().Provenance, Snapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.WriteFile("/out/base.snapshot", base.Snapshot); err != nil {
		t.Fatal(err)
	}
	opts := provOpts()
	opts.Hermetic, opts.Label, opts.Deps = true, "//overlay", map[string]string{"/ws/base": "/out/base.snapshot"}
	top, err := Render(fs, "/ws/overlay", snapshotOpts(opts))
	if err != nil {
		t.Fatal(err)
	}
	one := renderProv(t, provTree)
	if !bytes.Equal(top.Manifests, one.Manifests) || !bytes.Equal(top.ProvenanceManifest, one.ProvenanceManifest) {
		t.Errorf("through snapshots:\n%s\none-shot:\n%s", top.ProvenanceManifest, one.ProvenanceManifest)
	}

	// A snapshot rendered without provenance cannot feed a render with it.
	plain, err := Render(fs, "/ws/base", Options{Hermetic: true, Label: "//base", Snapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.WriteFile("/out/plain.snapshot", plain.Snapshot); err != nil {
		t.Fatal(err)
	}
	opts.Deps = map[string]string{"/ws/base": "/out/plain.snapshot"}
	if _, err := Render(fs, "/ws/overlay", snapshotOpts(opts)); err == nil || !strings.Contains(err.Error(), "render it with --provenance") {
		t.Errorf("plain snapshot: %v", err)
	}
}

func TestProvenanceManagedByLabel(t *testing.T) {
	files := maps.Clone(provTree)
	files["/ws/overlay/kustomization.yaml"] += "buildMetadata: [managedByLabel]\n"
	m := manifestOf(t, renderProv(t, files))
	o := object(t, m, "Service", "prod-web")
	last := m.Steps[o.Transformers[len(o.Transformers)-1]]
	if last.Kind != "LabelTransformer" || last.ConfiguredIn != "overlay/kustomization.yaml" {
		t.Errorf("last transformer %+v, want the %s managed-by label", last, emit.ManagedByValue)
	}
}

// TestProvenanceFunctions renders the function cases (Starlark, exec,
// selectors) with provenance: the output is unchanged but for the
// annotations, every object has an origin, and script files and exec
// executables are inputs of the steps that ran them.
func TestProvenanceFunctions(t *testing.T) {
	cases, err := filepath.Glob("testdata/functions/*")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, dir := range cases {
		want, err := os.ReadFile(filepath.Join(dir, "expected.yaml"))
		if err != nil {
			continue // an error case
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			tree := copyTree(t, filepath.Join(dir, "tree"))
			res, err := Render(filesys.MakeFsOnDisk(), tree, Options{Provenance: &provenance.Options{WorkspaceRoot: tree}, Functions: Functions{Alpha: true, Exec: true}})
			if err != nil {
				t.Fatal(err)
			}
			var stripped bytes.Buffer
			lines := strings.SplitAfter(string(res.Manifests), "\n")
			for i, l := range lines {
				if strings.HasPrefix(l, "    "+provmanifest.AnnotationPrefix) {
					continue
				}
				if l == "  annotations:\n" {
					j := i + 1
					for j < len(lines) && strings.HasPrefix(lines[j], "    "+provmanifest.AnnotationPrefix) {
						j++
					}
					if j == len(lines) || !strings.HasPrefix(lines[j], "    ") {
						continue
					}
				}
				stripped.WriteString(l)
			}
			if stripped.String() != string(want) {
				t.Errorf("without the annotations:\n%s\nwant:\n%s", stripped.String(), want)
			}
			m := manifestOf(t, res)
			for _, o := range m.Objects {
				if o.Origin == nil {
					t.Errorf("%s: no origin", o.ID)
				}
			}
			// Every script and executable in the tree that a step used is an input.
			var inputs []string
			for _, s := range m.Steps {
				inputs = append(inputs, s.Files...)
			}
			switch filepath.Base(dir) {
			case "starlark-file-selectors":
				if !slices.Contains(inputs, "scripts/sidecar.star") {
					t.Errorf("inputs %v lack the script", inputs)
				}
			case "exec-function":
				found := false
				for _, p := range inputs {
					found = found || strings.HasPrefix(p, "fn/")
				}
				if !found {
					t.Errorf("inputs %v lack the executable", inputs)
				}
			}
		})
	}
}
