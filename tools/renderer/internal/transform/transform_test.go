package transform

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/fingerprint"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

var rf = resource.NewFactory(&hasher.Hasher{})

// pair returns a Map and a kustomize ResMap holding separate copies of y.
func pair(t *testing.T, y string) (*resourcemap.Map, resmap.ResMap) {
	t.Helper()
	a, err := rf.SliceFromBytes([]byte(y))
	if err != nil {
		t.Fatalf("%v\n%s", err, y)
	}
	b, err := rf.SliceFromBytes([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	m, err := resourcemap.FromResources(a)
	if err != nil {
		t.Fatal(err)
	}
	k := resmap.New()
	for _, r := range b {
		if err := k.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	return m, k
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// kustomizeImages applies each entry with kustomize's ImageTagTransformer,
// one after the other, as `kustomize build` does.
func kustomizeImages(m resmap.ResMap, images []types.Image, fss types.FsSlice) error {
	for _, img := range images {
		p := builtins.NewImageTagTransformerPlugin()
		c, err := yaml.Marshal(struct {
			ImageTag   types.Image
			FieldSpecs []types.FieldSpec
		}{img, fss})
		if err != nil {
			return err
		}
		if err := p.Config(nil, c); err != nil {
			return err
		}
		if err := p.Transform(m); err != nil {
			return err
		}
	}
	return nil
}

func compareImages(t *testing.T, objs string, images []types.Image, fss types.FsSlice) {
	t.Helper()
	compareImagesReporting(t, objs, images, fss, false)
	compareImagesReporting(t, objs, images, fss, true)
}

// compareImagesReporting is compareImages, with the changes listed when
// report is set (as provenance asks): the output must not depend on it, and
// the list must be exactly the objects whose fingerprint moved.
func compareImagesReporting(t *testing.T, objs string, images []types.Image, fss types.FsSlice, report bool) {
	t.Helper()
	m, k := pair(t, objs)
	it := newImageTags(images, fss)
	it.changes.on = report
	list := m.Resources()
	before := make([]uint64, len(list))
	for i, r := range list {
		before[i] = fingerprint.Of(r.RNode.YNode())
	}
	errM := it.Transform(m)
	errK := kustomizeImages(k, images, fss)
	if errText(errM) != errText(errK) {
		t.Errorf("images %+v\nerror:\n ours:      %s\n kustomize: %s\nobjects:\n%s", images, errText(errM), errText(errK), objs)
		return
	}
	if errM != nil {
		return
	}
	if a, b := krmtest.YAML(t, m), krmtest.YAML(t, k); a != b {
		t.Errorf("images %+v\nours:\n%s\nkustomize:\n%s", images, a, b)
	}
	if !report {
		return
	}
	reported := map[*resource.Resource]bool{}
	for _, r := range it.changes.list() {
		if reported[r] {
			t.Errorf("images %+v: %s reported twice", images, r.CurId())
		}
		reported[r] = true
	}
	for i, r := range list {
		if moved := fingerprint.Of(r.RNode.YNode()) != before[i]; moved != reported[r] {
			t.Errorf("images %+v: %s changed %v, reported %v\nobjects:\n%s", images, r.CurId(), moved, reported[r], objs)
		}
	}
}

var imagePool = []string{
	"nginx", "nginx:1.25", "nginx:latest", "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	"nginx:1.25@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	"docker.io/library/nginx:1.2", "library/nginx", "nginx-ingress:1", "nginxx", "my-nginx",
	"localhost:5000/app:v1", "localhost:5000/app", "localhost:5000/app@sha256:abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789",
	"my.registry:443/team/app:{{TAG}}", "busybox", "busybox:1.36", "gcr.io/proj/busybox:v2", "app",
	"registry.example.com/app:sha512-tag", "app@sha512:" + strings.Repeat("ab", 64), "ngin.x", "",
}

var entryPool = []types.Image{
	{Name: "nginx", NewTag: "1.27"},
	{Name: "nginx", NewName: "mirror.local/nginx"},
	{Name: "nginx", Digest: "sha256:fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"},
	{Name: "nginx", NewTag: "1.27", Digest: "sha256:1111111111111111111111111111111111111111111111111111111111111111"},
	{Name: "nginx", TagSuffix: "-alpine"},
	{Name: "localhost:5000/app", NewTag: "v2"},
	{Name: "localhost:5000/app", NewName: "registry.prod:443/app"},
	{Name: "my.registry:443/team/app", NewTag: "final"},
	{Name: "busybox", NewName: "busybox", NewTag: "stable"},
	{Name: "gcr.io/proj/busybox", NewName: "busybox"},
	{Name: "mirror.local/nginx", NewTag: "chained"},
	{Name: "ngin.", NewTag: "regex"},
	{Name: "nginx.*", NewTag: "greedy"},
	{Name: "[", NewTag: "invalid-regex"},
	{Name: "app", NewName: "renamed-app"},
	{Name: "registry.example.com/app", TagSuffix: "-x"},
	{Name: "app", Digest: "sha512:" + strings.Repeat("cd", 64)},
	{Name: "not-present", NewTag: "x"},
}

func container(rng *rand.Rand, name string) string {
	img := imagePool[rng.Intn(len(imagePool))]
	return fmt.Sprintf("      - name: %s\n        image: %q\n", name, img)
}

// randomObject draws a workload, a pod, a cron job, a custom resource
// with containers somewhere, or a CRD.
func randomObject(rng *rand.Rand, i int) string {
	containers := func(indent string) string {
		var b strings.Builder
		for j := 0; j <= rng.Intn(3); j++ {
			b.WriteString(strings.ReplaceAll(container(rng, fmt.Sprintf("c%d", j)), "      ", indent))
		}
		return b.String()
	}
	switch rng.Intn(6) {
	case 0:
		return fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d%d\nspec:\n  template:\n    spec:\n      initContainers:\n%s      containers:\n%s",
			i, containers("      "), containers("      "))
	case 1:
		return fmt.Sprintf("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p%d\nspec:\n  containers:\n%s", i, containers("  "))
	case 2:
		return fmt.Sprintf("apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: cj%d\nspec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n%s", i, containers("          "))
	case 3:
		return fmt.Sprintf("apiVersion: example.com/v1\nkind: Runner\nmetadata:\n  name: r%d\nspec:\n  deep:\n    nested:\n      containers:\n%s  image: %q\n", i, containers("      "), imagePool[rng.Intn(len(imagePool))])
	case 4:
		return fmt.Sprintf("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crd%d.example.com\nspec:\n  containers:\n%s", i, containers("  "))
	default:
		return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm%d\ndata:\n  image: %q\n", i, imagePool[rng.Intn(len(imagePool))])
	}
}

// TestImageTagsMatchKustomize is a property test: on random objects and
// random `images` lists, the prefiltered transformer gives exactly what
// kustomize's ImageTagTransformer gives, entry by entry.
func TestImageTagsMatchKustomize(t *testing.T) {
	fss := fieldspec.Defaults().Images
	rng := rand.New(rand.NewSource(42))
	for trial := 0; trial < 300; trial++ {
		var objs []string
		for i := 0; i <= rng.Intn(4); i++ {
			objs = append(objs, randomObject(rng, i))
		}
		var images []types.Image
		for i := 0; i <= rng.Intn(4); i++ {
			images = append(images, entryPool[rng.Intn(len(entryPool))])
		}
		compareImages(t, strings.Join(objs, "---\n"), images, fss)
		if t.Failed() {
			t.Fatalf("trial %d failed", trial)
		}
	}
}

// unusualShapes are objects on which kustomize's image filters fail or
// behave unexpectedly. skipBug marks the shapes for which the prefilter
// wrongly skips the filters when no entry matches (see
// TestImageTagsPrefilterSkipsFailingShapes).
var unusualShapes = []struct {
	name, obj string
	skipBug   bool
}{
	{name: "image is a map", obj: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image:\n          a: b\n"},
	{name: "image is a list", obj: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: [nginx]\n"},
	{name: "image map in a custom kind", obj: "apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  containers:\n  - image: {a: b}\n"},
	{name: "containers is a map", obj: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers:\n        c:\n          image: nginx\n"},
	{name: "containers is a string", obj: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: nginx\n"},
	{name: "image is a number", obj: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: 42\n"},
	{name: "image is null", obj: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: null\n  - name: d\n    image: nginx\n"},
	{name: "anchors", obj: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: &img nginx\n  - name: d\n    image: *img\n"},
	{name: "init containers only", obj: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  initContainers:\n  - name: c\n    image: nginx:1\n"},
	{name: "containers of strings", obj: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - nginx\n  - busybox\n", skipBug: true},
	{name: "containers of strings and maps", obj: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - nginx\n  - image: nginx\n", skipBug: true},
	{name: "template is a string", obj: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template: nginx\n", skipBug: true},
	{name: "template spec is a list", obj: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec: [nginx]\n", skipBug: true},
}

// TestImageTagsUnusualShapes: on odd objects the transformer fails (or
// not) exactly like kustomize, with kustomize's message.
func TestImageTagsUnusualShapes(t *testing.T) {
	fss := fieldspec.Defaults().Images
	for _, tc := range unusualShapes {
		t.Run(tc.name, func(t *testing.T) {
			compareImages(t, tc.obj, []types.Image{{Name: "nginx", NewTag: "2"}}, fss)
			compareImages(t, tc.obj, []types.Image{{Name: "busybox", NewName: "bb"}, {Name: "nginx", Digest: "sha256:" + strings.Repeat("0", 64)}}, fss)
			if !tc.skipBug {
				compareImages(t, tc.obj, []types.Image{{Name: "absent", NewTag: "2"}}, fss)
			}
		})
	}
}

// Regression: the prefilter assumes an object holding no string an entry matches
// is left alone without error by kustomize's filters. kustomize's filters
// fail on some shapes whatever the entry: a containers/initContainers list
// holding scalars (LegacyFilter: "wrong node kind: expected MappingNode"),
// or a default image field-spec path crossing a scalar or list
// (spec.template: nginx; spec.template.spec: [..]): "expected sequence or
// mapping node". krm then succeeds where kustomize fails.
func TestImageTagsPrefilterSkipsFailingShapes(t *testing.T) {
	fss := fieldspec.Defaults().Images
	for _, tc := range unusualShapes {
		if tc.skipBug {
			compareImages(t, tc.obj, []types.Image{{Name: "absent", NewTag: "2"}}, fss)
		}
	}
}

// Configured image fields: values are rewritten like `image` fields, and
// non-scalar values fail like kustomize when a value in the object could
// match.
func TestImageTagsCustomFieldSpecs(t *testing.T) {
	cfg, err := fieldspec.Parse([]byte("images:\n- path: spec/runner/imageRef\n  kind: Runner\n- path: spec/runner/picture\n  kind: Runner\n"))
	if err != nil {
		t.Fatal(err)
	}
	merged, err := fieldspec.Defaults().Merge(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, obj := range []string{
		"apiVersion: example.com/v1\nkind: Runner\nmetadata:\n  name: r\nspec:\n  runner:\n    imageRef: nginx:1\n    picture: busybox\n",
		"apiVersion: example.com/v1\nkind: Runner\nmetadata:\n  name: r\nspec:\n  runner:\n    picture: [nginx, b]\n",
		"apiVersion: example.com/v1\nkind: Runner\nmetadata:\n  name: r\nspec:\n  runner:\n    imageRef:\n      image: nginx\n",
	} {
		// Entries some value matches: the filters run and fail or succeed
		// like kustomize's.
		for _, images := range [][]types.Image{{{Name: "nginx", NewTag: "2"}}, {{Name: "busybox", NewName: "bb"}, {Name: "nginx", NewTag: "3"}}} {
			compareImages(t, obj, images, merged.Images)
		}
	}
	obj := "apiVersion: example.com/v1\nkind: Runner\nmetadata:\n  name: r\nspec:\n  runner:\n    imageRef: nginx:1\n    picture: busybox\n"
	for _, images := range [][]types.Image{{{Name: "busybox", NewName: "bb"}}, {{Name: "other", NewTag: "3"}}} {
		compareImages(t, obj, images, merged.Images)
	}
}

// Regression: a configured image field (not named `image`) that holds a map or a
// list is not flagged as unusual by imageCandidates, so when no string in
// the object matches an entry the filters are skipped, while kustomize's
// field-spec filter fails with "wrong node kind".
func TestImageTagsCustomFieldSpecNonScalarErrors(t *testing.T) {
	cfg, err := fieldspec.Parse([]byte("images:\n- path: spec/runner/imageRef\n  kind: Runner\n"))
	if err != nil {
		t.Fatal(err)
	}
	merged, err := fieldspec.Defaults().Merge(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, obj := range []string{
		"apiVersion: example.com/v1\nkind: Runner\nmetadata:\n  name: r\nspec:\n  runner:\n    imageRef:\n      name: nginx\n",
		"apiVersion: example.com/v1\nkind: Runner\nmetadata:\n  name: r\nspec:\n  runner:\n    imageRef: [a, b]\n",
	} {
		compareImages(t, obj, []types.Image{{Name: "busybox", NewTag: "2"}}, merged.Images)
	}
}

func namespaceOracle(m resmap.ResMap, ns string, fss types.FsSlice) error {
	p := builtins.NewNamespaceTransformerPlugin()
	c, err := yaml.Marshal(struct {
		types.ObjectMeta `json:"metadata,omitempty"`
		FieldSpecs       []types.FieldSpec
	}{types.ObjectMeta{Namespace: ns}, fss})
	if err != nil {
		return err
	}
	if err := p.Config(nil, c); err != nil {
		return err
	}
	return p.Transform(m)
}

func TestSetNamespaceMatchesKustomize(t *testing.T) {
	fss := fieldspec.Defaults().NameSpace
	for _, tc := range []struct{ name, objs string }{
		{"plain", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  namespace: other\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: cr\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns\n"},
		{"role binding subjects", "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb\nsubjects:\n- kind: ServiceAccount\n  name: default\n  namespace: old\n- kind: ServiceAccount\n  name: other\n  namespace: old\n- kind: User\n  name: u\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: crb\nsubjects:\n- kind: ServiceAccount\n  name: default\n"},
		{"webhook and apiservice", "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: v\nwebhooks:\n- name: w\n  clientConfig:\n    service:\n      name: s\n      namespace: old\n---\napiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: v1.x\nspec:\n  service:\n    name: s\n    namespace: old\n"},
		{"helm generated objects are skipped", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: h\n  annotations:\n    kustomize.config.k8s.io/helm-generated: \"true\"\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"},
		{"conflict after the move", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: x\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: y\n"},
		{"conflict with an object already there", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: target\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n"},
		{"swap is no conflict for the last", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: target\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  namespace: x\n"},
		{"previous ids", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: p-a\n  annotations:\n    internal.config.kubernetes.io/previousNames: a\n    internal.config.kubernetes.io/previousNamespaces: default\n    internal.config.kubernetes.io/previousKinds: ConfigMap\n"},
	} {
		for _, ns := range []string{"target", "default"} {
			t.Run(tc.name+" to "+ns, func(t *testing.T) {
				m, k := pair(t, tc.objs)
				errM := (&setNamespace{namespace: ns, fss: fss}).Transform(m)
				errK := namespaceOracle(k, ns, fss)
				if errText(errM) != errText(errK) {
					t.Fatalf("error:\n ours:      %s\n kustomize: %s", errText(errM), errText(errK))
				}
				if errM == nil {
					if a, b := krmtest.YAML(t, m), krmtest.YAML(t, k); a != b {
						t.Errorf("ours:\n%s\nkustomize:\n%s", a, b)
					}
				}
			})
		}
	}
	// The conflict error is kustomize's.
	m, _ := pair(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: x\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: y\n")
	if err := (&setNamespace{namespace: "z", fss: fss}).Transform(m); err == nil || !strings.HasPrefix(err.Error(), "namespace transformation produces ID conflict: [") {
		t.Errorf("conflict error = %v", err)
	}
}

func helpers(t *testing.T, files map[string]string) *resmap.PluginHelpers {
	t.Helper()
	fs := krmtest.MemFS(t, files)
	if err := fs.MkdirAll("/app"); err != nil {
		t.Fatal(err)
	}
	ldr, err := load.NewLoader(fs, "/app", load.RootOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	return krmtest.PluginHelpers(ldr, types.DisabledPluginConfig())
}

func kustomization(t *testing.T, y string) *types.Kustomization {
	t.Helper()
	var k types.Kustomization
	if err := k.Unmarshal([]byte(y)); err != nil {
		t.Fatal(err)
	}
	k.FixKustomization()
	return &k
}

func TestBuiltinsOrder(t *testing.T) {
	k := kustomization(t, `
images:
- name: a
  newTag: "1"
- name: b
  newTag: "2"
replacements:
- source:
    kind: ConfigMap
    name: x
  targets:
  - select:
      kind: Secret
    fieldPaths: [metadata.name]
replicas:
- name: web
  count: 3
patchesJson6902:
- target:
    kind: Deployment
    name: web
  patch: '[{"op": "add", "path": "/spec/replicas", "value": 2}]'
commonAnnotations:
  a: b
labels:
- pairs:
    l: "1"
- pairs:
    m: "2"
  includeSelectors: true
commonLabels:
  c: d
nameSuffix: -s
namePrefix: p-
namespace: ns
patches:
- patch: '[{"op": "add", "path": "/spec/replicas", "value": 2}]'
  target:
    kind: Deployment
- path: p.yaml
patchesStrategicMerge:
- p.yaml
`)
	ts, err := Builtins(k, fieldspec.Defaults(), func() *resmap.PluginHelpers {
		return helpers(t, map[string]string{"/app/p.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"})
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range ts {
		got = append(got, tr.Step.Kind+"("+tr.Field+")")
	}
	want := []string{
		"PatchStrategicMergeTransformer(patchesStrategicMerge [p.yaml])",
		"PatchTransformer(patches[0] (inline) target Deployment.[noVer].[noGrp]/[noName].[noNs]:a=:l=)",
		"PatchTransformer(patches[1] (path: p.yaml))",
		"NamespaceTransformer(namespace)",
		"PrefixTransformer(PrefixTransformer)",
		"SuffixTransformer(SuffixTransformer)",
		"LabelTransformer(LabelTransformer)",
		"LabelTransformer(LabelTransformer)",
		"LabelTransformer(LabelTransformer)",
		"AnnotationsTransformer(AnnotationsTransformer)",
		"PatchJson6902Transformer(patchesJson6902[0] (inline) target Deployment.[noVer].[noGrp]/web.[noNs]:a=:l=)",
		"ReplicaCountTransformer(ReplicaCountTransformer)",
		"ImageTagTransformer(images)",
		"ReplacementTransformer(ReplacementTransformer)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("transformers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, tr := range ts {
		if tr.Step.Kind == "ImageTagTransformer" && tr.Steps != 2 {
			t.Errorf("images Steps = %d, want 2 (one per entry)", tr.Steps)
		}
	}
	// Nothing asked, nothing configured.
	if ts, err := Builtins(kustomization(t, "resources: [a.yaml]\n"), fieldspec.Defaults(), func() *resmap.PluginHelpers { return helpers(t, nil) }); err != nil || len(ts) != 0 {
		t.Errorf("empty kustomization: %d transformers, %v", len(ts), err)
	}
	// commonLabels alone still makes one LabelTransformer; labels alone
	// adds the (empty) commonLabels one, like kustomize.
	ts, err = Builtins(kustomization(t, "labels:\n- pairs:\n    a: b\n"), fieldspec.Defaults(), func() *resmap.PluginHelpers { return helpers(t, nil) })
	if err != nil || len(ts) != 2 {
		t.Errorf("labels only: %d transformers, %v", len(ts), err)
	}
}

func TestBuiltinsErrors(t *testing.T) {
	for _, tc := range []struct{ name, kust, want string }{
		{"patch file missing", "patches:\n- path: missing.yaml\n", "patches[0] (path: missing.yaml)"},
		{"patch without target or content", "patches:\n- target:\n    kind: Deployment\n", "patches[0] (inline) target Deployment"},
		{"json6902 without name", "patchesJson6902:\n- path: p.json\n  target:\n    kind: Deployment\n", "patchesJson6902[0] (path: p.json) target Deployment"},
		{"json6902 empty", "patchesJson6902:\n- target:\n    kind: Deployment\n    name: web\n", "empty file path and empty jsonOp"},
		{"strategic merge file missing", "patchesStrategicMerge:\n- missing.yaml\n", "patchesStrategicMerge [missing.yaml]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Builtins(kustomization(t, tc.kust), fieldspec.Defaults(), func() *resmap.PluginHelpers { return helpers(t, nil) })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want it to name %q", err, tc.want)
			}
		})
	}
}

func TestDescribePatch(t *testing.T) {
	sel := &types.Selector{}
	sel.Kind = "Deployment"
	sel.Name = "web"
	for _, tc := range []struct {
		field, path string
		target      *types.Selector
		want        string
	}{
		{"patches", "", nil, "patches[3] (inline)"},
		{"patches", "p.yaml", nil, "patches[3] (path: p.yaml)"},
		{"patchesJson6902", "p.json", sel, "patchesJson6902[3] (path: p.json) target Deployment.[noVer].[noGrp]/web.[noNs]:a=:l="},
	} {
		if got := describePatch(tc.field, 3, tc.path, tc.target); got != tc.want {
			t.Errorf("describePatch = %q, want %q", got, tc.want)
		}
	}
}
