package finish

import (
	"bytes"
	"log"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/filters/nameref"
	"sigs.k8s.io/kustomize/api/provider"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

var rmf = krmtest.NewFactory()

func newEnv() *accumulate.Env {
	return &accumulate.Env{
		Factory:   rmf,
		Validator: provider.NewDefaultDepProvider().GetFieldValidator(),
		Plugins:   types.DisabledPluginConfig(),
		Observer:  observe.Nop{},
	}
}

// accumulateTree accumulates the kustomization in dir of an in-memory tree.
func accumulateTree(t *testing.T, files map[string]string, dir string) (*accumulate.Accumulation, *resmap.PluginHelpers) {
	t.Helper()
	ldr, err := load.NewLoader(krmtest.MemFS(t, files), dir, load.RootOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := newEnv()
	tg, err := accumulate.NewTarget(env, ldr)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := tg.Accumulate()
	if err != nil {
		t.Fatal(err)
	}
	return acc, resmap.NewPluginHelpers(ldr, env.Validator, env.Factory, env.Plugins)
}

func addHashes(t *testing.T, m resmap.ResMap, h *resmap.PluginHelpers) {
	t.Helper()
	p := builtins.NewHashTransformerPlugin()
	if err := p.Config(h, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.Transform(m); err != nil {
		t.Fatal(err)
	}
}

// kustomizeNameRefs is kustomize v5.8.2's nameReferenceTransformer
// (api/internal/accumulator/namereferencetransformer.go, Apache-2.0),
// rebuilt from its public filter: the oracle for fixNameReferences.
// kustomize visits referrers in map order; every referrer only changes
// itself, so visiting them in list order gives the same result.
func kustomizeNameRefs(m resmap.ResMap, backRefs fieldspec.NameBackReferences) error {
	type entry struct {
		r  *resource.Resource
		fs []nameref.Filter
	}
	var order []*entry
	byRes := map[*resource.Resource]*entry{}
	resources := m.Resources()
	for _, br := range backRefs {
		for _, spec := range br.Referrers {
			for _, r := range resources {
				if !r.OrgId().IsSelected(&spec.Gvk) {
					continue
				}
				e := byRes[r]
				if e == nil {
					e = &entry{r: r}
					byRes[r] = e
					order = append(order, e)
				}
				e.fs = append(e.fs, nameref.Filter{NameFieldToUpdate: spec, ReferralTarget: br.Gvk})
			}
		}
	}
	for _, e := range order {
		c, err := m.SubsetThatCouldBeReferencedByResource(e.r)
		if err != nil {
			return err
		}
		for _, f := range e.fs {
			f.Referrer = e.r
			f.ReferralCandidates = c
			if err := e.r.ApplyFilter(f); err != nil {
				return err
			}
		}
	}
	return nil
}

func yamlOf(t *testing.T, m resmap.ResMap) string {
	t.Helper()
	m.RemoveBuildAnnotations()
	return krmtest.YAML(t, m)
}

const nameRefApp = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      serviceAccountName: runner
      imagePullSecrets:
      - name: creds
      containers:
      - name: web
        image: nginx
        envFrom:
        - configMapRef:
            name: settings
        env:
        - name: PASSWORD
          valueFrom:
            secretKeyRef:
              name: creds
              key: password
        - name: MODE
          valueFrom:
            configMapKeyRef:
              name: settings
              key: mode
      volumes:
      - name: cfg
        configMap:
          name: settings
      - name: sec
        secret:
          secretName: creds
      - name: data
        persistentVolumeClaim:
          claimName: data
      - name: untouched
        configMap:
          name: not-ours
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  rules:
  - http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: 80
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: runner
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: reader
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: read
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: reader
subjects:
- kind: ServiceAccount
  name: runner
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
`

var nameRefCases = []struct {
	name    string
	files   map[string]string
	wantErr string
	want    []string // substrings of the result
}{
	{
		name: "prefix, suffix and hash",
		files: map[string]string{
			"/r/app/kustomization.yaml": `namePrefix: p-
nameSuffix: -s
namespace: prod
resources:
- app.yaml
configMapGenerator:
- name: settings
  literals:
  - mode=fast
secretGenerator:
- name: creds
  literals:
  - password=hunter2
`,
			"/r/app/app.yaml": nameRefApp,
		},
		want: []string{
			"serviceAccountName: p-runner-s",
			"claimName: p-data-s",
			"name: p-not-ours", // (negative check below)
		},
	},
	{
		name: "one base under two prefixes",
		files: map[string]string{
			"/r/app/kustomization.yaml":  "resources:\n- ../a\n- ../b\n",
			"/r/a/kustomization.yaml":    "namePrefix: a-\nresources:\n- ../base\n",
			"/r/b/kustomization.yaml":    "namePrefix: b-\nresources:\n- ../base\n",
			"/r/base/kustomization.yaml": "resources:\n- app.yaml\nconfigMapGenerator:\n- name: settings\n  literals:\n  - mode=slow\nsecretGenerator:\n- name: creds\n  literals:\n  - password=x\n",
			"/r/base/app.yaml":           nameRefApp,
		},
		want: []string{"serviceAccountName: a-runner", "serviceAccountName: b-runner", "name: a-reader", "name: b-reader"},
	},
	{
		name: "service accounts of one name in two namespaces",
		files: map[string]string{
			"/r/app/kustomization.yaml": "resources:\n- ../a\n- ../b\n",
			"/r/a/kustomization.yaml":   "namespace: a\nresources:\n- sa.yaml\n",
			"/r/b/kustomization.yaml":   "namespace: b\nresources:\n- sa.yaml\n",
			"/r/a/sa.yaml":              "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: crb-a\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: cr-a\nsubjects:\n- kind: ServiceAccount\n  name: sa\n",
			"/r/b/sa.yaml":              "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: crb-b\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: cr-b\nsubjects:\n- kind: ServiceAccount\n  name: sa\n",
		},
		wantErr: "found multiple possible referrals: ServiceAccount.v1.[noGrp]/sa.a, ServiceAccount.v1.[noGrp]/sa.b",
	},
	{
		name: "role binding subjects across namespaces",
		files: map[string]string{
			"/r/app/kustomization.yaml": "namePrefix: p-\nresources:\n- objs.yaml\n",
			"/r/app/objs.yaml": `apiVersion: v1
kind: ServiceAccount
metadata:
  name: sa
  namespace: other
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: sa
  namespace: mine
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: rb
  namespace: mine
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: view
subjects:
- kind: ServiceAccount
  name: sa
  namespace: other
- kind: ServiceAccount
  name: sa
  namespace: mine
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: view
`,
		},
		want: []string{"name: p-view"},
	},
	{
		name: "subject without namespace matching two service accounts",
		files: map[string]string{
			"/r/app/kustomization.yaml": "namePrefix: p-\nresources:\n- objs.yaml\n",
			"/r/app/objs.yaml":          "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n  namespace: other\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n  namespace: mine\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb\n  namespace: mine\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: view\nsubjects:\n- kind: ServiceAccount\n  name: sa\n  namespace: other\n- kind: User\n  name: sa\n",
		},
		wantErr: "found multiple possible referrals: ServiceAccount.v1.[noGrp]/p-sa.other, ServiceAccount.v1.[noGrp]/p-sa.mine",
	},
	{
		name: "namespace moved: references follow",
		files: map[string]string{
			"/r/app/kustomization.yaml":  "namespace: new\nresources:\n- ../base\n- crb.yaml\n",
			"/r/app/crb.yaml":            "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: crb\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: edit\nsubjects:\n- kind: ServiceAccount\n  name: sa\n  namespace: old\n",
			"/r/base/kustomization.yaml": "namespace: old\nnamePrefix: x-\nresources:\n- sa.yaml\n",
			"/r/base/sa.yaml":            "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n",
		},
		want: []string{"name: x-sa\n  namespace: new"},
	},
	{
		name: "a reference in an annotation",
		files: map[string]string{
			"/r/app/kustomization.yaml": "namePrefix: p-\nconfigurations:\n- refs.yaml\nresources:\n- objs.yaml\n",
			"/r/app/refs.yaml":          "nameReference:\n- kind: ConfigMap\n  version: v1\n  fieldSpecs:\n  - kind: Deployment\n    path: metadata/annotations/config-ref\n",
			"/r/app/objs.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n---\napiVersion: apps/v1\nkind: Deployment\n" +
				"metadata:\n  name: web\n  annotations:\n    config-ref: cm\nspec:\n  template:\n    spec:\n      volumes:\n      - name: c\n        configMap:\n          name: cm\n",
		},
		want: []string{"config-ref: p-cm", "name: p-cm"},
	},
}

func TestNameReferencesMatchKustomize(t *testing.T) {
	for _, tc := range nameRefCases {
		t.Run(tc.name, func(t *testing.T) {
			acc, h := accumulateTree(t, tc.files, "/r/app")

			ours := acc.DeepCopy()
			addHashes(t, ours.Resources, h)
			errOurs := fixNameReferences(ours.Resources, ours.Config.NameReference, observe.Nop{})

			theirs := resmap.New()
			for _, r := range acc.DeepCopy().Resources.Resources() {
				if err := theirs.Append(r); err != nil {
					t.Fatal(err)
				}
			}
			addHashes(t, theirs, h)
			errTheirs := kustomizeNameRefs(theirs, acc.Config.NameReference)

			if tc.wantErr != "" {
				if errOurs == nil || !strings.Contains(errOurs.Error(), tc.wantErr) {
					t.Errorf("error = %v, want %q", errOurs, tc.wantErr)
				}
				if errTheirs == nil {
					t.Fatalf("kustomize's transformer succeeds; the case is wrong")
				}
				// The first line must be kustomize's; the object dumps that
				// follow differ in kustomize's refBy bookkeeping annotations.
				first := func(err error) string { return strings.SplitN(err.Error(), "\n", 2)[0] }
				if first(errOurs) != first(errTheirs) {
					t.Errorf("error differs:\n ours:      %v\n kustomize: %v", first(errOurs), first(errTheirs))
				}
				return
			}
			if errOurs != nil || errTheirs != nil {
				t.Fatalf("errors: ours %v, kustomize %v", errOurs, errTheirs)
			}
			got, want := yamlOf(t, ours.Resources), yamlOf(t, theirs)
			if got != want {
				t.Errorf("ours:\n%s\nkustomize:\n%s", got, want)
			}
			for _, s := range tc.want {
				if strings.HasPrefix(s, "name: p-not-ours") {
					if strings.Contains(got, s) {
						t.Errorf("a name no object has was rewritten")
					}
					continue
				}
				if !strings.Contains(got, s) {
					t.Errorf("result lacks %q:\n%s", s, got)
				}
			}
		})
	}
}

// TestNameReferencesByHand pins the visible effect of the first case.
func TestNameReferencesByHand(t *testing.T) {
	acc, h := accumulateTree(t, nameRefCases[0].files, "/r/app")
	addHashes(t, acc.Resources, h)
	if err := fixNameReferences(acc.Resources, acc.Config.NameReference, observe.Nop{}); err != nil {
		t.Fatal(err)
	}
	out := yamlOf(t, acc.Resources)
	cm := regexp.MustCompile(`name: (p-settings-s-[a-z0-9]{10})\n`).FindStringSubmatch(out)
	sec := regexp.MustCompile(`name: (p-creds-s-[a-z0-9]{10})\n`).FindStringSubmatch(out)
	if cm == nil || sec == nil {
		t.Fatalf("no hashed names in:\n%s", out)
	}
	for _, want := range []string{
		"configMapRef:\n            name: " + cm[1],
		"configMapKeyRef:\n              key: mode\n              name: " + cm[1],
		"configMap:\n          name: " + cm[1],
		"secretKeyRef:\n              key: password\n              name: " + sec[1],
		"secretName: " + sec[1],
		"imagePullSecrets:\n      - name: " + sec[1],
		"service:\n            name: p-web-s",
		"scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: p-web-s",
		"kind: Role\n  name: p-reader-s",
		"name: p-runner-s\n  namespace: prod",
		"name: not-ours",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("result lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("result:\n%s", out)
	}
	// Nothing to do without back references.
	if err := fixNameReferences(acc.Resources, nil, observe.Nop{}); err != nil {
		t.Errorf("nil back references: %v", err)
	}
}

func TestVars(t *testing.T) {
	files := map[string]string{
		"/r/app/kustomization.yaml": `namePrefix: p-
resources:
- objs.yaml
vars:
- name: SVC
  objref:
    apiVersion: v1
    kind: Service
    name: web
- name: PORT
  objref:
    apiVersion: v1
    kind: Service
    name: web
  fieldref:
    fieldpath: spec.ports[0].port
- name: UNUSED
  objref:
    apiVersion: v1
    kind: Service
    name: web
  fieldref:
    fieldpath: metadata.name
`,
		"/r/app/objs.yaml": `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 8080
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: c
        image: nginx
        command: ["serve", "--at=$(SVC):$(PORT)"]
        args: ["$(PORT)", "$(NOT_A_VAR)", "$$(SVC)"]
        env:
        - name: URL
          value: http://$(SVC)/
`,
	}
	acc, h := accumulateTree(t, files, "/r/app")
	var logs bytes.Buffer
	saved := log.Writer()
	log.SetOutput(&logs)
	err := Run(acc, h, observe.Nop{}, nil)
	log.SetOutput(saved)
	if err != nil {
		t.Fatal(err)
	}
	out := yamlOf(t, acc.Resources)
	for _, want := range []string{
		"- --at=p-web:8080",
		"- 8080\n", // a whole-value var keeps its type
		"- $(NOT_A_VAR)",
		"- $(SVC)", // $$ escapes
		"value: http://p-web/",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("result lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(logs.String(), "well-defined vars that were never replaced: UNUSED") {
		t.Errorf("unused var not reported; log: %q", logs.String())
	}
}

func TestVarErrors(t *testing.T) {
	svc := "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n"
	for _, tc := range []struct {
		name, vars, want string
	}{
		{
			name: "missing field",
			vars: "vars:\n- name: X\n  objref:\n    apiVersion: v1\n    kind: Service\n    name: web\n  fieldref:\n    fieldpath: spec.nothing\n",
			// kustomize's words, after the file declaring the var.
			want: "/r/app/kustomization.yaml: vars: field specified in var '{X Service.v1.[noGrp] {spec.nothing}}' not found in corresponding resource",
		},
		{
			name: "no such object",
			vars: "vars:\n- name: YY\n  objref:\n    apiVersion: v1\n    kind: Service\n    name: nope\n",
			want: "/r/app/kustomization.yaml: vars: var '{YY Service.v1.[noGrp] {metadata.name}}' cannot be mapped to a field in the set of known resources",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acc, h := accumulateTree(t, map[string]string{
				"/r/app/kustomization.yaml": "resources:\n- svc.yaml\n" + tc.vars,
				"/r/app/svc.yaml":           svc,
			}, "/r/app")
			err := Run(acc, h, observe.Nop{}, nil)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error = %v\nwant    %s", err, tc.want)
			}
		})
	}
}

func TestDropLocalConfig(t *testing.T) {
	rs, err := rmf.RF().SliceFromBytes([]byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: keep
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: local
  annotations:
    config.kubernetes.io/local-config: "true"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: explicitly-not-local
  annotations:
    config.kubernetes.io/local-config: "false"
`))
	if err != nil {
		t.Fatal(err)
	}
	// The factory drops local objects on load (as kustomize does); a
	// transformer can add the annotation later, which is what finish sees.
	m, err := resourcemap.FromResources(rs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range m.Resources() {
		if r.GetName() == "keep" {
			a := r.GetAnnotations()
			a["other"] = "x"
			_ = r.SetAnnotations(a)
		}
	}
	extra, err := rmf.RF().FromBytes([]byte("apiVersion: v1\nkind: Secret\nmetadata:\n  name: later\n"))
	if err != nil {
		t.Fatal(err)
	}
	_ = extra.SetAnnotations(map[string]string{"config.kubernetes.io/local-config": ""})
	if err := m.Append(extra); err != nil {
		t.Fatal(err)
	}
	extra2, _ := rmf.RF().FromBytes([]byte("apiVersion: v1\nkind: Secret\nmetadata:\n  name: later-true\n"))
	_ = extra2.SetAnnotations(map[string]string{"config.kubernetes.io/local-config": "yes"})
	_ = m.Append(extra2)
	if err := dropLocalConfig(m); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range m.Resources() {
		names = append(names, r.GetName())
	}
	if got := strings.Join(names, " "); got != "keep explicitly-not-local" {
		t.Errorf("kept %q, want %q", got, "keep explicitly-not-local")
	}
}

func TestRunLocalConfigAfterReferences(t *testing.T) {
	// A local-config object still serves name references and vars before
	// it is dropped (kustomize drops it last).
	acc, h := accumulateTree(t, map[string]string{
		"/r/app/kustomization.yaml":  "namePrefix: p-\nresources:\n- ../base\n- deploy.yaml\n",
		"/r/base/kustomization.yaml": "resources:\n- cm.yaml\ncommonAnnotations:\n  config.kubernetes.io/local-config: \"true\"\n",
		"/r/base/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n",
		"/r/app/deploy.yaml":         "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      volumes:\n      - name: v\n        configMap:\n          name: cfg\n",
	}, "/r/app")
	if err := Run(acc, h, observe.Nop{}, nil); err != nil {
		t.Fatal(err)
	}
	out := yamlOf(t, acc.Resources)
	if strings.Contains(out, "kind: ConfigMap") {
		t.Errorf("local ConfigMap not dropped:\n%s", out)
	}
	if !strings.Contains(out, "name: p-cfg") {
		t.Errorf("reference to the local ConfigMap not fixed:\n%s", out)
	}
}

// A patch that renames an object to another's name leaves two objects with
// one ID; kustomize fails (it panics) when it rebuilds its resource map at
// the end of the top kustomization, and so does krm.
func TestRunFailsOnObjectsRenamedToOneID(t *testing.T) {
	acc, h := accumulateTree(t, map[string]string{
		"/r/kustomization.yaml": "resources:\n- svc.yaml\npatches:\n- patch: |-\n    - op: replace\n      path: /metadata/name\n      value: a\n  target:\n    name: b\n",
		"/r/svc.yaml":           "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\n",
	}, "/r")
	err := Run(acc, h, observe.Nop{}, nil)
	if want := "may not add resource with an already registered id: Service.v1.[noGrp]/a.[noNs]"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestSetNameAsFieldSetter: setName leaves a node as kustomize's
// FieldSetter leaves it, for scalars of every style and tag and for a
// mapping's existing name field.
func TestSetNameAsFieldSetter(t *testing.T) {
	for _, doc := range []string{
		"a", "'a' # c", `"true"`, "yes", "1", "~", "!!str 0x10", "|\n  x\n", "{k: v}",
	} {
		for _, name := range []string{"b", "true", "on", "010", "1e3", ""} {
			ours, err := yaml.Parse(doc)
			if err != nil {
				t.Fatal(err)
			}
			if ours.YNode().Kind != yaml.ScalarNode {
				continue // setScalar sees only scalars
			}
			theirs := ours.Copy()
			setName(ours.YNode(), name)
			if err := theirs.PipeE(yaml.FieldSetter{StringValue: name}); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ours.YNode(), theirs.YNode()) {
				t.Errorf("%q <- %q: setName\n%#v\nFieldSetter\n%#v", doc, name, *ours.YNode(), *theirs.YNode())
			}
		}
		m, err := yaml.Parse("name: " + doc + "\n")
		if err != nil {
			t.Fatal(err)
		}
		theirs := m.Copy()
		setName(m.Field("name").Value.YNode(), "n")
		if err := theirs.PipeE(yaml.FieldSetter{Name: "name", StringValue: "n"}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(m.YNode(), theirs.YNode()) {
			t.Errorf("name: %q: setName and FieldSetter differ", doc)
		}
	}
}

// Previous IDs are read afresh when a spec can write them: a step naming
// one of kustomize's build annotations, as kyaml reads the step.
func TestIsBuildAnnotation(t *testing.T) {
	for step, want := range map[string]bool{
		"internal.config.kubernetes.io/previousNames":      true,
		" internal.config.kubernetes.io/previousKinds []":  true,
		"internal.config.kubernetes.io/previousKinds[] ":   false, // the key "…[]"
		"internal.config.kubernetes.io/previousNamespaces": true,
		"annotations": false,
		"nginx.ingress.kubernetes.io/auth-secret": false,
	} {
		if got := isBuildAnnotation(step); got != want {
			t.Errorf("isBuildAnnotation(%q) = %v", step, got)
		}
	}
}
