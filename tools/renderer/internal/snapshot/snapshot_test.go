package snapshot_test

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/emit"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/finish"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/snapshot"
)

// tree is a kustomization whose accumulation carries every kind of state a
// snapshot must keep: previous names, prefixes, generator behavior and
// pending hash suffixes, origins, vars and the resources they read, and a
// non-default configuration.
var tree = map[string]string{
	"/app/kustomization.yaml": `namePrefix: p-
namespace: ns
resources:
- deploy.yaml
- ../base
configurations:
- config.yaml
configMapGenerator:
- name: settings
  literals:
  - mode=fast
vars:
- name: SVC
  objref:
    apiVersion: v1
    kind: Service
    name: web
  fieldref:
    fieldpath: metadata.name
buildMetadata: [originAnnotations]
sortOptions:
  order: fifo
`,
	"/app/deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: app
        image: nginx
        args: ["--svc=$(SVC)"]
        envFrom:
        - configMapRef:
            name: settings
`,
	"/app/config.yaml": `nameReference:
- kind: Service
  version: v1
  fieldSpecs:
  - path: spec/serviceRef
    kind: Widget
`,
	"/base/kustomization.yaml": "resources:\n- svc.yaml\nnameSuffix: -s\n",
	"/base/svc.yaml":           "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n",
}

func accumulated(t *testing.T, files map[string]string, dir string) (*accumulate.Accumulation, *load.Kustomization) {
	t.Helper()
	ldr, err := load.NewLoader(krmtest.MemFS(t, files), dir, load.RootOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	tg, err := accumulate.NewTarget(render.NewEnv(), ldr)
	if err != nil {
		t.Fatal(err)
	}
	tg.EnableOrigins()
	acc, err := tg.Accumulate()
	if err != nil {
		t.Fatal(err)
	}
	return acc, tg.Kustomization()
}

func rawYAML(t *testing.T, m resmap.ResMap) string {
	t.Helper()
	b, err := emit.YAML(m, observe.Nop{})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func refVars(m resmap.ResMap) [][]string {
	var out [][]string
	for _, r := range m.Resources() {
		out = append(out, r.GetRefVarNames())
	}
	return out
}

func marshal(t *testing.T, v interface{}) string {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func header(k *load.Kustomization) snapshot.Header {
	return snapshot.Header{
		KustomizationKind: k.Kind,
		Label:             "//app:app",
		SortOptions:       k.SortOptions,
		BuildMetadata:     k.BuildMetadata,
	}
}

func TestRoundTrip(t *testing.T) {
	acc, k := accumulated(t, tree, "/app")
	data, err := snapshot.Encode(acc, header(k))
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Decode(data)
	if err != nil {
		t.Fatalf("Decode: %v\n%s", err, data)
	}
	got := s.Accumulation

	// Resources, with all their bookkeeping.
	if a, b := rawYAML(t, got.Resources), rawYAML(t, acc.Resources); a != b {
		t.Errorf("resources differ after the round trip:\n%s\nwant:\n%s", a, b)
	}
	for _, want := range []string{
		"internal.config.kubernetes.io/previousNames",
		"internal.config.kubernetes.io/prefixes",
		"internal.config.kubernetes.io/suffixes",
		"internal.config.kubernetes.io/needsHashSuffix",
		"internal.config.kubernetes.io/generatorBehavior",
		"config.kubernetes.io/origin",
		"path: ../base/svc.yaml",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("snapshot lacks %q", want)
		}
	}
	// Vars and the resources they read.
	if !reflect.DeepEqual(refVars(got.Resources), refVars(acc.Resources)) {
		t.Errorf("refVars = %v, want %v", refVars(got.Resources), refVars(acc.Resources))
	}
	nonEmpty := 0
	for _, rv := range refVars(acc.Resources) {
		nonEmpty += len(rv)
	}
	if nonEmpty != 1 {
		t.Errorf("the accumulation should mark one resource for SVC: %v", refVars(acc.Resources))
	}
	if !reflect.DeepEqual(got.Vars.AsSlice(), acc.Vars.AsSlice()) || len(got.Vars.AsSlice()) != 1 {
		t.Errorf("vars = %v, want %v", got.Vars.AsSlice(), acc.Vars.AsSlice())
	}
	// The non-default configuration is kept, and says so in the header.
	if marshal(t, got.Config) != marshal(t, acc.Config) {
		t.Errorf("config differs after the round trip")
	}
	if s.Config == nil || !strings.Contains(string(data), "spec/serviceRef") {
		t.Errorf("non-default config not recorded in the header")
	}
	// Header fields.
	if s.APIVersion != snapshot.APIVersion || s.Kind != snapshot.Kind || s.KustomizationKind != types.KustomizationKind ||
		s.Label != "//app:app" || s.SortOptions == nil || s.SortOptions.Order != types.FIFOSortOrder ||
		!reflect.DeepEqual(s.BuildMetadata, []string{types.OriginAnnotations}) || s.Resources != acc.Resources.Size() {
		t.Errorf("header = %+v", s.Header)
	}
	// Encoding the decoded snapshot gives the same bytes.
	again, err := snapshot.Encode(got, s.Header)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, data) {
		t.Errorf("re-encoding differs:\n%s\nfirst:\n%s", again, data)
	}
	// Finishing the decoded accumulation gives the same manifests.
	if a, b := finished(t, got), finished(t, acc.DeepCopy()); a != b {
		t.Errorf("finished output differs:\n%s\nwant:\n%s", a, b)
	}
}

func finished(t *testing.T, acc *accumulate.Accumulation) string {
	t.Helper()
	env := render.NewEnv()
	ldr, err := load.NewLoader(krmtest.MemFS(t, tree), "/app", load.RootOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := finish.Run(acc, resmap.NewPluginHelpers(ldr, env.Validator, env.Factory, env.Plugins), observe.Nop{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := emit.Prepare(acc.Resources, emit.Options{}, observe.Nop{}); err != nil {
		t.Fatal(err)
	}
	return rawYAML(t, acc.Resources)
}

func TestDefaultConfigOmitted(t *testing.T) {
	acc, k := accumulated(t, map[string]string{
		"/c/kustomization.yaml": "resources:\n- cm.yaml\n",
		"/c/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n",
	}, "/c")
	data, err := snapshot.Encode(acc, header(k))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "\nconfig:") || strings.Contains(string(data), "refVars") || strings.Contains(string(data), "\nvars:") {
		t.Errorf("default config / empty vars recorded:\n%s", data)
	}
	s, err := snapshot.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Config != nil {
		t.Errorf("header config = %+v, want nil", s.Config)
	}
	if marshal(t, s.Accumulation.Config) != marshal(t, acc.Config) {
		t.Errorf("decoded default config differs from the accumulated one")
	}
	want, err := (&fieldspec.Config{}).Merge(fieldspec.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if marshal(t, s.Accumulation.Config) != marshal(t, want) {
		t.Errorf("decoded config is not kustomize's defaults")
	}
}

func TestDeterministic(t *testing.T) {
	var first []byte
	for i := 0; i < 3; i++ {
		acc, k := accumulated(t, tree, "/app")
		data, err := snapshot.Encode(acc, header(k))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = data
			continue
		}
		if !bytes.Equal(data, first) {
			t.Fatalf("encoding %d differs:\n%s\nfirst:\n%s", i, data, first)
		}
	}
	if !strings.HasPrefix(string(first), "apiVersion: "+snapshot.APIVersion+"\n") {
		t.Errorf("snapshot does not start with its header:\n%s", first)
	}
	if regexp.MustCompile(`[ '"]/(app|base)`).Match(first) {
		t.Errorf("snapshot records absolute paths:\n%s", first)
	}
}

func TestEncodeEmpty(t *testing.T) {
	data, err := snapshot.Encode(accumulate.NewAccumulation(), snapshot.Header{KustomizationKind: types.ComponentKind})
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Decode(data)
	if err != nil {
		t.Fatalf("Decode: %v\n%s", err, data)
	}
	if s.Resources != 0 || s.Accumulation.Resources.Size() != 0 || s.KustomizationKind != types.ComponentKind {
		t.Errorf("decoded %+v", s.Header)
	}
}

// A scalar a transformer made without a tag (a replacement creating a
// field) comes back untagged, not as the null or bool its text reads as.
func TestUntaggedScalars(t *testing.T) {
	r, err := resource.NewFactory(nil).FromBytes([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  s: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := r.Pipe(kyaml.Lookup("data"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"", "true", "1"} {
		data.YNode().Content = append(data.YNode().Content,
			&kyaml.Node{Kind: kyaml.ScalarNode, Value: "k" + v},
			&kyaml.Node{Kind: kyaml.ScalarNode, Value: v})
	}
	back, enc := roundTrip(t, r)
	got, err := back[0].Pipe(kyaml.Lookup("data"))
	if err != nil {
		t.Fatal(err)
	}
	c := got.YNode().Content
	if c[1].Tag != "!!str" {
		t.Errorf("tagged scalar: tag %q, want !!str", c[1].Tag)
	}
	for i, v := range []string{"", "true", "1"} {
		n := c[3+2*i]
		if n.Tag != "" || n.Style != 0 || n.Value != v {
			t.Errorf("untagged %q came back as tag %q, style %v, value %q\n%s", v, n.Tag, n.Style, n.Value, enc)
		}
	}
}

// encode writes a snapshot of the objects.
func encode(t *testing.T, objects ...*resource.Resource) []byte {
	t.Helper()
	acc := accumulate.NewAccumulation()
	for _, r := range objects {
		if err := acc.Resources.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	data, err := snapshot.Encode(acc, snapshot.Header{KustomizationKind: types.KustomizationKind})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// roundTrip encodes the objects and decodes them back.
func roundTrip(t *testing.T, objects ...*resource.Resource) ([]*resource.Resource, []byte) {
	t.Helper()
	data := encode(t, objects...)
	s, err := snapshot.Decode(data)
	if err != nil {
		t.Fatalf("Decode: %v\n%s", err, data)
	}
	return s.Accumulation.Resources.Resources(), data
}

// body returns the resources of a snapshot of the objects in text, as
// Encode writes them.
func body(t *testing.T, text string) string {
	t.Helper()
	objects, err := resource.NewFactory(nil).SliceFromBytes([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	_, b, _ := strings.Cut(string(encode(t, objects...)), "\n---\n")
	return "---\n" + b
}

func TestDecodeErrors(t *testing.T) {
	cm := body(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n")
	head := func(apiVersion, kind string, n int) string {
		return "apiVersion: " + apiVersion + "\nkind: " + kind + "\nkustomizationKind: Kustomization\nresources: " + string(rune('0'+n)) + "\n"
	}
	v := snapshot.APIVersion
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "malformed snapshot: empty"},
		{"not yaml", "a: [\n", "malformed snapshot"},
		{"wrong apiVersion", head("rules-krm.dev/v0", snapshot.Kind, 0), "not a snapshot of this krm version: got rules-krm.dev/v0 KustomizationSnapshot"},
		{"wrong kind", head(v, "Kustomization", 0), "not a snapshot of this krm version"},
		{"a plain resource", "apiVersion: v1\nkind: ConfigMap\n", "not a snapshot of this krm version"},
		{"too few resources", head(v, snapshot.Kind, 2) + cm, "malformed snapshot: header says 2 resources, found 1"},
		{"too many resources", head(v, snapshot.Kind, 0) + cm, "malformed snapshot: header says 0 resources, found more"},
		{"duplicate resources", head(v, snapshot.Kind, 2) + cm + cm, "malformed snapshot: may not add resource with an already registered id"},
		{"negative resources", strings.Replace(head(v, snapshot.Kind, 0), "resources: 0", "resources: -1", 1), "header says -1 resources"},
		{"huge resources", strings.Replace(head(v, snapshot.Kind, 0), "resources: 0", "resources: 99999999999", 1) + cm, "found 1"},
		{"bad header field", head(v, snapshot.Kind, 0) + "vars: 3\n", "malformed snapshot header"},
		{"YAML resource", head(v, snapshot.Kind, 1) + "---\nkind: ConfigMap\n", "malformed snapshot: resource 0: bad node kind"},
		{"truncated", head(v, snapshot.Kind, 1) + cm[:len(cm)-4], "malformed snapshot: resource 0"},
		{"cycle", head(v, snapshot.Kind, 1) + "---\nm-0*2\ns-0=1:a\nr0\n", "malformed snapshot: resource 0: bad node reference 0"},
		{"bad reference", head(v, snapshot.Kind, 1) + "---\nm-0*2\ns-0=1:a\nr7\n", "bad node reference 7"},
		{"empty document", head(v, snapshot.Kind, 1) + "---\nd-0\n", "resource 0 is not a mapping"},
		{"scalar", head(v, snapshot.Kind, 1) + "---\nd-0*1\nss0=1:a\n", "resource 0 is not a mapping"},
		{"too many children", head(v, snapshot.Kind, 1) + "---\nm-0*99999\n", "truncated node"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := snapshot.Decode([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Decode error = %v, want %q", err, tc.want)
			}
		})
	}
	// A valid minimal snapshot decodes.
	s, err := snapshot.Decode([]byte(head(v, snapshot.Kind, 1) + cm))
	if err != nil || s.Accumulation.Resources.Size() != 1 {
		t.Errorf("minimal snapshot: %v", err)
	}
}

// Every field of a node but comments, line and column comes back as it
// was, whatever YAML text would make of it; so do nodes an object shares
// between paths, and between objects.
func TestNodesKept(t *testing.T) {
	shared := &kyaml.Node{Kind: kyaml.ScalarNode, Value: "prod"}
	anchored := &kyaml.Node{Kind: kyaml.MappingNode, Tag: "!!map", Anchor: "a", Content: []*kyaml.Node{
		{Kind: kyaml.ScalarNode, Tag: "!!str", Value: "k"}, {Kind: kyaml.ScalarNode, Tag: "!!int", Value: "1"}}}
	object := func(name string, extra ...*kyaml.Node) *kyaml.Node {
		return &kyaml.Node{Kind: kyaml.DocumentNode, Content: []*kyaml.Node{{Kind: kyaml.MappingNode, Content: append([]*kyaml.Node{
			{Kind: kyaml.ScalarNode, Tag: "!!str", Value: "apiVersion"}, {Kind: kyaml.ScalarNode, Tag: "!!str", Value: "v1"},
			{Kind: kyaml.ScalarNode, Tag: "!!str", Value: "kind"}, {Kind: kyaml.ScalarNode, Tag: "!!str", Value: "ConfigMap"},
			{Kind: kyaml.ScalarNode, Tag: "!!str", Value: "metadata"}, {Kind: kyaml.MappingNode, Tag: "!!map", Content: []*kyaml.Node{
				{Kind: kyaml.ScalarNode, Tag: "!!str", Value: "name"}, {Kind: kyaml.ScalarNode, Tag: "!!str", Value: name},
				{Kind: kyaml.ScalarNode, Value: "labels"}, {Kind: kyaml.MappingNode, Content: []*kyaml.Node{
					{Kind: kyaml.ScalarNode, Value: "env"}, shared}}}},
		}, extra...)}}}
	}
	first := object("a",
		&kyaml.Node{Kind: kyaml.ScalarNode, Tag: "!!str", Value: "data"}, &kyaml.Node{Kind: kyaml.MappingNode, Style: kyaml.FlowStyle, Content: []*kyaml.Node{
			{Kind: kyaml.ScalarNode, Value: "empty"}, {Kind: kyaml.ScalarNode},
			{Kind: kyaml.ScalarNode, Value: "bool"}, {Kind: kyaml.ScalarNode, Value: "true"},
			{Kind: kyaml.ScalarNode, Value: "quoted"}, {Kind: kyaml.ScalarNode, Tag: "!!str", Style: kyaml.DoubleQuotedStyle | kyaml.TaggedStyle, Value: "1"},
			{Kind: kyaml.ScalarNode, Value: "text"}, {Kind: kyaml.ScalarNode, Tag: "!Custom tag", Style: kyaml.LiteralStyle, Value: "a\n---\nr0\n\n"},
			{Kind: kyaml.ScalarNode, Value: "anchored"}, anchored,
			{Kind: kyaml.ScalarNode, Value: "alias"}, {Kind: kyaml.AliasNode, Value: "a", Alias: anchored},
			{Kind: kyaml.ScalarNode, Value: "seq"}, {Kind: kyaml.SequenceNode, Tag: "!!seq", Content: []*kyaml.Node{shared, {Kind: kyaml.ScalarNode, Tag: "!!null", Value: "~"}}},
		}})
	second := object("b")
	got, data := roundTrip(t, &resource.Resource{RNode: *kyaml.NewRNode(first)}, &resource.Resource{RNode: *kyaml.NewRNode(second)})
	for i, want := range []*kyaml.Node{first, second} {
		if n := got[i].RNode.Document(); !reflect.DeepEqual(n, want) {
			a, _ := yaml.Marshal(n)
			b, _ := yaml.Marshal(want)
			t.Errorf("object %d differs after the round trip:\n%s\nwant:\n%s\nsnapshot:\n%s", i, a, b, data)
		}
	}
	label := func(r *resource.Resource) *kyaml.Node {
		return r.RNode.YNode().Content[5].Content[3].Content[1]
	}
	data0 := got[0].RNode.YNode().Content[7]
	if label(got[0]) != label(got[1]) || label(got[0]) != data0.Content[13].Content[0] || data0.Content[11].Alias != data0.Content[9] {
		t.Errorf("shared nodes not kept shared:\n%s", data)
	}
}

// A snapshot of a few hundred bytes whose shared nodes a walk would visit
// 2^40 times is refused; the same nodes shared a few times are not.
func TestDecodeBoundsSharedNodes(t *testing.T) {
	crafted := func(levels int) string {
		// Value i is a sequence whose two items are both value i-1.
		var b strings.Builder
		fmt.Fprintf(&b, "apiVersion: %s\nkind: %s\nkustomizationKind: Kustomization\nresources: 1\n---\n", snapshot.APIVersion, snapshot.Kind)
		fmt.Fprintf(&b, "m-0*%d\nss0=4:kind\nss0=9:ConfigMap\nss0=4:leaf\nss0=1:x\n", 2*levels+4)
		prev := 4 // the index of value i-1 (the scalar x first)
		for i := 0; i < levels; i++ {
			key := fmt.Sprintf("k%d", i)
			fmt.Fprintf(&b, "ss0=%d:%s\nq-0*2\nr%d\nr%d\n", len(key), key, prev, prev)
			prev += 2
		}
		return b.String()
	}
	if _, err := snapshot.Decode([]byte(crafted(3))); err != nil {
		t.Fatalf("a little sharing: %v", err)
	}
	_, err := snapshot.Decode([]byte(crafted(40)))
	if err == nil || !strings.Contains(err.Error(), "shared nodes expand to more than") {
		t.Errorf("Decode of nodes shared 2^40 times: error = %v, want the expansion bound", err)
	}
}
