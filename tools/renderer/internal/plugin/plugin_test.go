package plugin

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

var rmf = krmtest.NewFactory()

func helpers(t *testing.T) *resmap.PluginHelpers {
	t.Helper()
	fs := krmtest.MemFS(t, map[string]string{
		"/app/patch.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 7\n",
		"/app/app.env":    "FROM_FILE=1\n",
	})
	ldr, err := load.NewLoader(fs, "/app", load.RootOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	return krmtest.PluginHelpers(ldr, types.DisabledPluginConfig())
}

func res(t *testing.T, y string) *resource.Resource {
	t.Helper()
	r, err := rmf.RF().FromBytes([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const objects = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: web
        image: nginx:1
---
apiVersion: v1
kind: Service
metadata:
  name: web
`

func objectMap(t *testing.T) resmap.ResMap { return krmtest.ResMap(t, rmf, objects) }

// TestConfigureBuiltins configures each builtin from a config object and
// checks it behaves as kustomize's plugin configured with the same object.
func TestConfigureBuiltins(t *testing.T) {
	for _, tc := range []struct {
		config string
		want   func() resmap.Configurable
		sees   string // a substring of the result
	}{
		{"kind: LabelTransformer\nlabels:\n  team: a\nfieldSpecs:\n- path: metadata/labels\n  create: true\n", func() resmap.Configurable { return builtins.NewLabelTransformerPlugin() }, "team: a"},
		{"kind: AnnotationsTransformer\nannotations:\n  note: x\nfieldSpecs:\n- path: metadata/annotations\n  create: true\n", func() resmap.Configurable { return builtins.NewAnnotationsTransformerPlugin() }, "note: x"},
		{"kind: PrefixTransformer\nprefix: p-\nfieldSpecs:\n- path: metadata/name\n", func() resmap.Configurable { return builtins.NewPrefixTransformerPlugin() }, "name: p-web"},
		{"kind: SuffixTransformer\nsuffix: -s\nfieldSpecs:\n- path: metadata/name\n", func() resmap.Configurable { return builtins.NewSuffixTransformerPlugin() }, "name: web-s"},
		{"kind: NamespaceTransformer\nmetadata:\n  namespace: ns\nfieldSpecs:\n- path: metadata/namespace\n  create: true\n", func() resmap.Configurable { return builtins.NewNamespaceTransformerPlugin() }, "namespace: ns"},
		{"kind: ImageTagTransformer\nimageTag:\n  name: nginx\n  newTag: \"2\"\n", func() resmap.Configurable { return builtins.NewImageTagTransformerPlugin() }, "image: nginx:2"},
		{"kind: ReplicaCountTransformer\nreplica:\n  name: web\n  count: 4\nfieldSpecs:\n- path: spec/replicas\n  kind: Deployment\n", func() resmap.Configurable { return builtins.NewReplicaCountTransformerPlugin() }, "replicas: 4"},
		{"kind: PatchTransformer\npatch: |-\n  apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: web\n  spec:\n    replicas: 9\n", func() resmap.Configurable { return builtins.NewPatchTransformerPlugin() }, "replicas: 9"},
		{"kind: PatchStrategicMergeTransformer\npaths:\n- patch.yaml\n", func() resmap.Configurable { return builtins.NewPatchStrategicMergeTransformerPlugin() }, "replicas: 7"},
		{"kind: PatchJson6902Transformer\ntarget:\n  group: apps\n  version: v1\n  kind: Deployment\n  name: web\njsonOp: '[{\"op\": \"replace\", \"path\": \"/spec/replicas\", \"value\": 5}]'\n", func() resmap.Configurable { return builtins.NewPatchJson6902TransformerPlugin() }, "replicas: 5"},
		{"kind: ValueAddTransformer\nvalue: added\ntargets:\n- fieldPath: metadata/annotations/added\n", func() resmap.Configurable { return builtins.NewValueAddTransformerPlugin() }, "added: added"},
		{"kind: ReplacementTransformer\nreplacements:\n- source:\n    kind: Service\n    name: web\n    fieldPath: metadata.name\n  targets:\n  - select:\n      kind: Deployment\n    fieldPaths:\n    - metadata.annotations.svc\n    options:\n      create: true\n", func() resmap.Configurable { return builtins.NewReplacementTransformerPlugin() }, "svc: web"},
		{"kind: HashTransformer\n", func() resmap.Configurable { return builtins.NewHashTransformerPlugin() }, "name: web"},
	} {
		kind := strings.TrimPrefix(strings.SplitN(tc.config, "\n", 2)[0], "kind: ")
		t.Run(kind, func(t *testing.T) {
			y := "apiVersion: builtin\n" + strings.Replace(tc.config, "\n", "\nmetadata:\n  name: cfg\n", 1)
			if strings.Contains(tc.config, "\nmetadata:\n") {
				y = "apiVersion: builtin\n" + strings.Replace(tc.config, "metadata:\n", "metadata:\n  name: cfg\n", 1)
			}
			r := res(t, y)
			if !IsBuiltin(r) {
				t.Fatalf("IsBuiltin = false for\n%s", y)
			}
			c, err := Configure(r, helpers(t), Functions{})
			if err != nil {
				t.Fatalf("Configure: %v\n%s", err, y)
			}
			tr, ok := c.(resmap.Transformer)
			if !ok {
				t.Fatalf("%T is not a transformer", c)
			}
			ours := objectMap(t)
			if err := tr.Transform(ours); err != nil {
				t.Fatal(err)
			}
			k := tc.want()
			b, _ := r.AsYAML()
			if err := k.Config(helpers(t), b); err != nil {
				t.Fatal(err)
			}
			theirs := objectMap(t)
			if err := k.(resmap.Transformer).Transform(theirs); err != nil {
				t.Fatal(err)
			}
			if a, b := krmtest.YAML(t, ours), krmtest.YAML(t, theirs); a != b {
				t.Errorf("ours:\n%s\nkustomize:\n%s", a, b)
			}
			if !strings.Contains(krmtest.YAML(t, ours), tc.sees) {
				t.Errorf("result lacks %q:\n%s", tc.sees, krmtest.YAML(t, ours))
			}
		})
	}
}

func TestConfigureGenerators(t *testing.T) {
	for _, tc := range []struct{ config, sees string }{
		{"apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: settings\nliterals:\n- a=b\nenvs:\n- app.env\n", "FROM_FILE: \"1\""},
		{"apiVersion: builtin\nkind: SecretGenerator\nmetadata:\n  name: creds\nliterals:\n- password=x\n", "password: eA=="},
	} {
		c, err := Configure(res(t, tc.config), helpers(t), Functions{})
		if err != nil {
			t.Fatal(err)
		}
		g, ok := c.(resmap.Generator)
		if !ok {
			t.Fatalf("%T is not a generator", c)
		}
		m, err := g.Generate()
		if err != nil {
			t.Fatal(err)
		}
		if out := krmtest.YAML(t, m); !strings.Contains(out, tc.sees) {
			t.Errorf("generated:\n%s\nlacks %q", out, tc.sees)
		}
		if _, isT := c.(resmap.Transformer); isT {
			t.Errorf("%T is also a transformer", c)
		}
	}
}

// PrefixSuffixTransformer is kustomize's pair of prefix and suffix
// transformers configured from one object.
func TestPrefixSuffixTransformer(t *testing.T) {
	c, err := Configure(res(t, "apiVersion: builtin\nkind: PrefixSuffixTransformer\nmetadata:\n  name: ps\nprefix: p-\nsuffix: -s\nfieldSpecs:\n- path: metadata/name\n"), helpers(t), Functions{})
	if err != nil {
		t.Fatal(err)
	}
	m := objectMap(t)
	if err := c.(resmap.Transformer).Transform(m); err != nil {
		t.Fatal(err)
	}
	if out := krmtest.YAML(t, m); strings.Count(out, "name: p-web-s") != 2 {
		t.Errorf("result:\n%s", out)
	}
	bad := prefixSuffix{builtins.NewPrefixTransformerPlugin(), builtins.NewSuffixTransformerPlugin()}
	if err := bad.Config(helpers(t), []byte("prefix: [\n")); err == nil {
		t.Errorf("bad config accepted")
	}
}

func TestConfigureErrors(t *testing.T) {
	for _, tc := range []struct{ name, config, want string }{
		{"unknown builtin", "apiVersion: builtin\nkind: FrobnicateTransformer\nmetadata:\n  name: x\n", "unable to load builtin FrobnicateTransformer.builtin.[noGrp]"},
		{"sort order is not a builtin plugin", "apiVersion: builtin\nkind: SortOrderTransformer\nmetadata:\n  name: x\n", "unable to load builtin SortOrderTransformer"},
		{"helm", "apiVersion: builtin\nkind: HelmChartInflationGenerator\nmetadata:\n  name: x\n", "must specify --enable-helm"},
		{"non-builtin", "apiVersion: example.com/v1\nkind: MyPlugin\nmetadata:\n  name: x\n", types.NewErrOnlyBuiltinPluginsAllowed("MyPlugin").Error()},
		{"builtin in a group", "apiVersion: example.com/builtin\nkind: LabelTransformer\nmetadata:\n  name: x\n", types.NewErrOnlyBuiltinPluginsAllowed("LabelTransformer").Error()},
		{"bad config", "apiVersion: builtin\nkind: LabelTransformer\nmetadata:\n  name: x\nlabels: [a, b]\n", "plugin LabelTransformer.builtin.[noGrp]/x.[noNs] fails configuration"},
		{"patch without content", "apiVersion: builtin\nkind: PatchTransformer\nmetadata:\n  name: x\n", "fails configuration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Configure(res(t, tc.config), helpers(t), Functions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

func TestSelectorsLimitBuiltins(t *testing.T) {
	c, err := Configure(res(t, `apiVersion: builtin
kind: LabelTransformer
metadata:
  name: x
labels:
  picked: "yes"
fieldSpecs:
- path: metadata/labels
  create: true
selectors:
- kind: Service
`), helpers(t), Functions{})
	if err != nil {
		t.Fatal(err)
	}
	m := objectMap(t)
	if err := c.(resmap.Transformer).Transform(m); err != nil {
		t.Fatal(err)
	}
	rs := m.Resources()
	if rs[0].GetLabels()["picked"] != "" || rs[1].GetLabels()["picked"] != "yes" {
		t.Errorf("labels: deployment %v, service %v", rs[0].GetLabels(), rs[1].GetLabels())
	}
	// A malformed selector names the plugin.
	_, err = Configure(res(t, "apiVersion: builtin\nkind: LabelTransformer\nmetadata:\n  name: x\nselectors: notalist\n"), helpers(t), Functions{})
	if err == nil || !strings.Contains(err.Error(), "plugin LabelTransformer.builtin.[noGrp]/x.[noNs]") {
		t.Errorf("bad selectors: error = %v", err)
	}
}

func TestOrigin(t *testing.T) {
	r := res(t, "apiVersion: builtin\nkind: LabelTransformer\nmetadata:\n  name: x\n  namespace: n\n  annotations:\n    config.kubernetes.io/origin: |\n      path: plugins/labels.yaml\n")
	o, err := Origin(r)
	if err != nil || o == nil {
		t.Fatalf("Origin = %v, %v", o, err)
	}
	if o.ConfiguredIn != "plugins/labels.yaml" || o.ConfiguredBy.Kind != "LabelTransformer" || o.ConfiguredBy.APIVersion != "builtin" || o.ConfiguredBy.Name != "x" || o.ConfiguredBy.Namespace != "n" {
		t.Errorf("Origin = %+v", o)
	}
	if o, err := Origin(res(t, "apiVersion: builtin\nkind: LabelTransformer\nmetadata:\n  name: x\n")); err != nil || o != nil {
		t.Errorf("no origin annotation: %+v, %v", o, err)
	}
}
