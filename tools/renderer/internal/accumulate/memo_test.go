package accumulate_test

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/emit"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/finish"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
)

// unmemoized renders dir the way kustomize does: every base accumulated
// from its sources for every path that includes it.
func unmemoized(t *testing.T, fs filesys.FileSystem, dir string) (string, error) {
	t.Helper()
	ldr, err := load.NewLoader(fs, dir, load.RootOnly, nil)
	if err != nil {
		return "", err
	}
	env := render.NewEnv()
	if env.Memoize {
		t.Fatal("NewEnv memoizes by default")
	}
	tg, err := accumulate.NewTarget(env, ldr)
	if err != nil {
		return "", err
	}
	defer accumulate.HoldOpenAPI(true)()
	if err := tg.SetRootOpenAPI(); err != nil {
		return "", err
	}
	k := tg.Kustomization()
	if len(k.BuildMetadata) > 0 {
		tg.EnableOrigins()
	}
	acc, err := tg.Accumulate()
	if err != nil {
		return "", err
	}
	if err := finish.Run(acc, resmap.NewPluginHelpers(ldr, env.Validator, env.Factory, env.Plugins), observe.Nop{}, nil); err != nil {
		return "", err
	}
	if err := emit.Prepare(acc.Resources, emit.Options{SortOptions: k.SortOptions, BuildMetadata: k.BuildMetadata}, observe.Nop{}); err != nil {
		return "", err
	}
	out, err := emit.YAML(acc.Resources, observe.Nop{})
	return string(out), err
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx
        envFrom:
        - configMapRef:
            name: settings
        volumeMounts:
        - name: cfg
          mountPath: /cfg
      volumes:
      - name: cfg
        configMap:
          name: settings
`

// diamond includes base twice (through a and b, with different prefixes
// and namespaces), base2 three times and a component once.
func diamond(buildMetadata string) map[string]string {
	return map[string]string{
		"/r/top/kustomization.yaml": `resources:
- ../a
- ../b
- ../c
components:
- ../comp
commonLabels:
  top: "yes"
` + buildMetadata,
		"/r/a/kustomization.yaml":      "namePrefix: a-\nnamespace: ns-a\nresources:\n- ../base\n",
		"/r/b/kustomization.yaml":      "namePrefix: b-\nnamespace: ns-b\nresources:\n- ../base\n- ../base2\npatches:\n- patch: |-\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: web\n    spec:\n      replicas: 3\n",
		"/r/c/kustomization.yaml":      "nameSuffix: -c\nresources:\n- ../base2\n- ../nested\n",
		"/r/nested/kustomization.yaml": "namePrefix: n-\nresources:\n- ../base2\n",
		"/r/base/kustomization.yaml": `resources:
- deploy.yaml
configMapGenerator:
- name: settings
  literals:
  - mode=fast
images:
- name: nginx
  newTag: "1.25"
`,
		"/r/base/deploy.yaml":            deployment,
		"/r/base2/kustomization.yaml":    "resources:\n- svc.yaml\ncommonAnnotations:\n  owner: base2\n",
		"/r/base2/svc.yaml":              "apiVersion: v1\nkind: Service\nmetadata:\n  name: svc\nspec:\n  selector:\n    app: web\n",
		"/r/comp/kustomization.yaml":     "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n- ../compbase\nlabels:\n- pairs:\n    comp: \"on\"\n",
		"/r/compbase/kustomization.yaml": "namePrefix: cb-\nresources:\n- ../base2\n",
	}
}

func TestMemoizedBuildEqualsUnmemoized(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
	}{
		{"diamond", diamond("")},
		{"diamond with origins", diamond("buildMetadata: [originAnnotations]\n")},
		{"diamond with origins and transformations", diamond("buildMetadata: [originAnnotations, transformerAnnotations]\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := krmtest.MemFS(t, tc.files)
			want, err := unmemoized(t, fs, "/r/top")
			if err != nil {
				t.Fatal(err)
			}
			got, err := render.Build(fs, "/r/top", render.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want {
				t.Errorf("memoized:\n%s\nunmemoized:\n%s", got, want)
			}
			// The test means something: base is used by both a and b.
			for _, s := range []string{"name: a-web", "name: b-web", "namespace: ns-a", "replicas: 3", "name: b-svc", "name: svc-c", "name: n-svc-c", "name: cb-svc"} {
				if !strings.Contains(want, s) {
					t.Errorf("output lacks %q", s)
				}
			}
			if strings.Contains(tc.name, "origins") && !strings.Contains(want, "path: ../base/deploy.yaml") {
				t.Errorf("origins not recorded relative to the top:\n%s", want)
			}
			// A second build in the same process gives the same bytes.
			again, err := render.Build(fs, "/r/top", render.Options{})
			if err != nil || string(again) != string(got) {
				t.Errorf("second build differs: %v", err)
			}
		})
	}
}

func TestMemoizedErrorsEqualUnmemoized(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
	}{
		{
			name: "collision between two uses of one base",
			files: map[string]string{
				"/r/top/kustomization.yaml":  "resources:\n- ../a\n- ../b\n",
				"/r/a/kustomization.yaml":    "resources:\n- ../base\n",
				"/r/b/kustomization.yaml":    "resources:\n- ../base\n",
				"/r/base/kustomization.yaml": "resources:\n- cm.yaml\n",
				"/r/base/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n",
			},
		},
		{
			name: "error inside a shared base",
			files: map[string]string{
				"/r/top/kustomization.yaml":  "resources:\n- ../a\n- ../base\n",
				"/r/a/kustomization.yaml":    "namePrefix: a-\nresources:\n- ../base\n",
				"/r/base/kustomization.yaml": "resources:\n- missing.yaml\n",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := krmtest.MemFS(t, tc.files)
			_, want := unmemoized(t, fs, "/r/top")
			_, got := render.Build(fs, "/r/top", render.Options{})
			if want == nil || got == nil {
				t.Fatalf("want errors, got memoized %v, unmemoized %v", got, want)
			}
			if got.Error() != want.Error() {
				t.Errorf("memoized error:\n%v\nunmemoized:\n%v", got, want)
			}
		})
	}
}
