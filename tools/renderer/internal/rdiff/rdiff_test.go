package rdiff

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

// diffStreams compares two YAML streams written to files.
func diffStreams(t *testing.T, old, new string) *Report {
	t.Helper()
	dir := t.TempDir()
	o, n := filepath.Join(dir, "old.yaml"), filepath.Join(dir, "new.yaml")
	writeFile(t, o, old)
	writeFile(t, n, new)
	r, err := Paths(o, n)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// objects returns the report's objects by ID string.
func objects(r *Report) map[string]Object {
	m := map[string]Object{}
	for _, f := range r.Files {
		for _, o := range f.Objects {
			m[o.ID.String()] = o
		}
	}
	return m
}

func allText(t *testing.T, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdown(&b, 60000); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

const cmTmpl = `apiVersion: v1
kind: ConfigMap
metadata:
  name: NAME
  namespace: app
data:
  LEVEL: VALUE
---
`

const deployTmpl = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: app
spec:
  template:
    spec:
      containers:
      - name: web
        image: IMAGE
        envFrom:
        - configMapRef:
            name: NAME
      volumes:
      - name: cfg
        configMap:
          name: NAME
`

func cm(name, value string) string {
	return strings.NewReplacer("NAME", name, "VALUE", value).Replace(cmTmpl)
}

func deploy(cmName, image string) string {
	return strings.NewReplacer("NAME", cmName, "IMAGE", image).Replace(deployTmpl)
}

func TestRenamePairedWithReferences(t *testing.T) {
	r := diffStreams(t,
		cm("cfg-5fb7k9h2bd", "info")+deploy("cfg-5fb7k9h2bd", "web:1"),
		cm("cfg-t8dkd72m5g", "debug")+deploy("cfg-t8dkd72m5g", "web:2"))
	if r.Added != 0 || r.Removed != 0 || r.Changed != 2 {
		t.Fatalf("counts %+v, want 2 changed", r.Counts)
	}
	objs := objects(r)
	c := objs["ConfigMap app/cfg-t8dkd72m5g"]
	if c.OldName != "cfg-5fb7k9h2bd" {
		t.Errorf("rename not noted: %+v", c)
	}
	if len(c.Fields) != 1 || c.Fields[0].Path != "data.LEVEL" || string(c.Fields[0].Old) != `"info"` || string(c.Fields[0].New) != `"debug"` {
		t.Errorf("renamed ConfigMap fields %+v", c.Fields)
	}
	wantRefs := []Reference{
		{ID{"apps", "Deployment", "app", "web"}, "spec.template.spec.containers[name=web].envFrom[0].configMapRef.name"},
		{ID{"apps", "Deployment", "app", "web"}, "spec.template.spec.volumes[name=cfg].configMap.name"},
	}
	if !reflect.DeepEqual(c.References, wantRefs) {
		t.Errorf("references %+v, want %+v", c.References, wantRefs)
	}
	d := objs["Deployment.apps app/web"]
	if len(d.Fields) != 1 || d.Fields[0].Path != "spec.template.spec.containers[name=web].image" {
		t.Errorf("Deployment fields %+v: want the image alone", d.Fields)
	}

	// Only the rename: the Deployment is no change of its own.
	r = diffStreams(t,
		cm("cfg-5fb7k9h2bd", "info")+deploy("cfg-5fb7k9h2bd", "web:1"),
		cm("cfg-t8dkd72m5g", "debug")+deploy("cfg-t8dkd72m5g", "web:1"))
	if r.Changed != 1 || len(objects(r)) != 1 {
		t.Errorf("a Deployment following the rename is reported on its own: %+v", objects(r))
	}
	if text := allText(t, r); !strings.Contains(text, "follows the rename: Deployment.apps app/web spec.template.spec.volumes[name=cfg].configMap.name") {
		t.Errorf("text lacks the folded reference:\n%s", text)
	}
}

func TestRenameNotPaired(t *testing.T) {
	for name, c := range map[string]struct{ old, new string }{
		"no hash suffix":        {cm("cfg-v1", "a"), cm("cfg-v2", "b")},
		"not the hash alphabet": {cm("cfg-5fb7k9h2ba", "a"), cm("cfg-t8dkd72m5g", "b")},
		"another base name":     {cm("cfg-5fb7k9h2bd", "a"), cm("conf-t8dkd72m5g", "b")},
		"two candidates":        {cm("cfg-5fb7k9h2bd", "a") + cm("cfg-hdhkkbk92g", "a"), cm("cfg-t8dkd72m5g", "b")},
		"another origin": {
			annotated(cm("cfg-5fb7k9h2bd", "a"), `{"generator":"ConfigMapGenerator","configuredIn":"a/kustomization.yaml"}`),
			annotated(cm("cfg-t8dkd72m5g", "b"), `{"generator":"ConfigMapGenerator","configuredIn":"b/kustomization.yaml"}`),
		},
	} {
		t.Run(name, func(t *testing.T) {
			r := diffStreams(t, c.old, c.new)
			if r.Changed != 0 || r.Added != 1 {
				t.Errorf("counts %+v: want no rename", r.Counts)
			}
		})
	}
}

// annotated adds krm's provenance annotations to the first object of a stream.
func annotated(stream, origin string) string {
	return strings.Replace(stream, "metadata:\n", "metadata:\n  annotations:\n    provenance.rules-krm.dev/origin: '"+origin+"'\n    provenance.rules-krm.dev/inputs-digest: sha256:"+strings.Repeat(origin[len(origin)-5:len(origin)-4], 64)+"\n", 1)
}

func TestProvenance(t *testing.T) {
	origin := `{"generator":"ConfigMapGenerator","configuredIn":"base/kustomization.yaml"}`
	r := diffStreams(t,
		annotated(cm("cfg-5fb7k9h2bd", "a"), origin)+annotated(deploy("x", "web:1"), `{"path":"base/deploy.yaml"}`),
		annotated(cm("cfg-t8dkd72m5g", "b"), origin)+annotated(deploy("x", "web:1"), `{"path":"base/deploy.yml"}`))
	objs := objects(r)
	if c := objs["ConfigMap app/cfg-t8dkd72m5g"]; c.Origin != "ConfigMapGenerator in base/kustomization.yaml" || c.OldName == "" {
		t.Errorf("renamed ConfigMap %+v: want its origin and the rename", c)
	}
	// Provenance annotations differ on the Deployment (origin, digest), and count for nothing.
	if _, ok := objs["Deployment.apps app/web"]; ok || len(objs) != 1 {
		t.Errorf("provenance annotations compared: %+v", objs)
	}
}

func TestSecretValuesNeverPrinted(t *testing.T) {
	secret := func(name, data, stringData string) string {
		return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: " + name + "\ndata:\n" + data + "stringData:\n" + stringData + "---\n"
	}
	r := diffStreams(t,
		secret("db", "  password: b2xkLXBhc3M=\n  gone: Z29uZS12YWx1ZQ==\n", "  token: old-token-value\n")+
			secret("removed-one", "  key: cmVtb3ZlZC12YWx1ZQ==\n", "  k: removed-string-value\n")+
			secret("gen-5fb7k9h2bd", "  k: aGFzaGVkLW9sZA==\n", "  multi: |\n    line1-old-value\n    line2\n"),
		secret("db", "  password: bmV3LXBhc3M=\n  user: YWRtaW4tdmFsdWU=\n", "  token: new-token-value\n")+
			secret("added-one", "  key: YWRkZWQtdmFsdWU=\n", "  k: added-string-value\n")+
			secret("gen-t8dkd72m5g", "  k: aGFzaGVkLW5ldw==\n", "  multi: |\n    line1-new-value\n    line2\n"))
	text := allText(t, r)
	for _, v := range []string{"b2xkLXBhc3M", "Z29uZS12YWx1ZQ", "old-token-value", "cmVtb3ZlZC12YWx1ZQ", "removed-string-value",
		"aGFzaGVkLW9sZA", "line1-old-value", "bmV3LXBhc3M", "YWRtaW4tdmFsdWU", "new-token-value", "YWRkZWQtdmFsdWU",
		"added-string-value", "aGFzaGVkLW5ldw", "line1-new-value"} {
		if strings.Contains(text, v) {
			t.Errorf("a Secret value is printed: %s", v)
		}
	}
	db := objects(r)["Secret db"]
	want := []Field{
		{Path: "data.gone", Change: Removed, Redacted: true},
		{Path: "data.password", Change: Changed, Redacted: true},
		{Path: "data.user", Change: Added, Redacted: true},
		{Path: "stringData.token", Change: Changed, Redacted: true},
	}
	if !reflect.DeepEqual(db.Fields, want) {
		t.Errorf("Secret db fields\n%+v\nwant\n%+v", db.Fields, want)
	}
	if gen := objects(r)["Secret gen-t8dkd72m5g"]; gen.OldName != "gen-5fb7k9h2bd" || len(gen.Fields) != 2 || !gen.Fields[0].Redacted || !gen.Fields[1].Redacted {
		t.Errorf("renamed Secret %+v", gen)
	}
	if !strings.Contains(text, "~   data.password: changed (Secret value hidden)") {
		t.Errorf("text does not name the changed key:\n%s", text)
	}
}

func TestNamedListsMatchedByName(t *testing.T) {
	pod := func(containers string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n" + containers
	}
	r := diffStreams(t,
		pod(`  - name: a
    image: a:1
    env: [{name: X, value: "1"}, {name: Y, value: "2"}]
    args: [--a, --b]
    volumeMounts: [{name: v, mountPath: /x}, {name: v, mountPath: /y}]
  - name: b
    image: b:1
    ports: [{containerPort: 80}]
`),
		pod(`  - name: b
    image: b:1
    ports: [{containerPort: 80, protocol: TCP}]
  - name: a
    image: a:2
    env: [{name: Y, value: "3"}, {name: X, value: "1"}, {name: Z, value: "4"}]
    args: [--a, --c]
    volumeMounts: [{name: v, mountPath: /x}, {name: v, mountPath: /y, readOnly: true}]
`))
	var got []string
	for _, f := range objects(r)["Pod p"].Fields {
		got = append(got, f.Change+" "+f.Path+" "+string(f.Old)+" "+string(f.New))
	}
	want := []string{
		`changed spec.containers[name=a].args[1] "--b" "--c"`,
		`changed spec.containers[name=a].env[name=Y].value "2" "3"`,
		`added spec.containers[name=a].env[name=Z]  {"name":"Z","value":"4"}`,
		`reordered spec.containers[name=a].env ["X","Y"] ["Y","X"]`,
		`changed spec.containers[name=a].image "a:1" "a:2"`,
		`added spec.containers[name=a].volumeMounts[mountPath=/y].readOnly  true`,
		`added spec.containers[name=b].ports[containerPort=80].protocol  "TCP"`,
		`reordered spec.containers ["a","b"] ["b","a"]`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestMultiLineStrings(t *testing.T) {
	lines := func(n int, changed map[int]string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			l := "line " + strings.Repeat("x", i%3) + string(rune('a'+i%26))
			if c, ok := changed[i]; ok {
				l = c
			}
			if c, ok := changed[i]; ok && c == "" {
				continue
			}
			b.WriteString("    " + l + "\n")
		}
		return b.String()
	}
	doc := func(body string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  conf: |\n" + body
	}
	r := diffStreams(t, doc(lines(20, nil)), doc(lines(20, map[int]string{2: "two", 16: ""})))
	f := objects(r)["ConfigMap c"].Fields
	want := []string{
		"@@ -1,5 +1,5 @@", " line xb", "-line xxc", "+two", " line d", " line xe", " line xxf",
		"@@ -13,7 +13,6 @@", " line xn", " line xxo", " line p", "-line xq", " line xxr", " line s", " line xt",
	}
	if len(f) != 1 || f[0].Old != nil || !reflect.DeepEqual(f[0].Lines, want) {
		t.Errorf("fields %+v\nwant lines %q", f, want)
	}
	// One side a single line: a line diff too.
	r = diffStreams(t, doc("    a\n"), doc("    a\n    b\n"))
	if f := objects(r)["ConfigMap c"].Fields; len(f) != 1 || !reflect.DeepEqual(f[0].Lines, []string{"@@ -1 +1,2 @@", " a", "+b"}) {
		t.Errorf("fields %+v", f)
	}
}

func TestNoDifference(t *testing.T) {
	a := cm("x", "1") + deploy("x", "web:1")
	b := "# reordered, restyled\n" + strings.Replace(deploy("x", "web:1"), "image: web:1", "image: 'web:1'", 1) + "\n---\n" + cm("x", "1")
	r := diffStreams(t, a, b)
	if !r.Empty() || r.Files == nil {
		t.Errorf("differences in equal sets: %+v", r.Files)
	}
	var out bytes.Buffer
	if err := r.WriteText(&out, false); err != nil || out.String() != "no differences\n" {
		t.Errorf("text %q, %v", out.String(), err)
	}
}

func TestTypesAndVersionsCompared(t *testing.T) {
	r := diffStreams(t,
		"apiVersion: apps/v1beta1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  replicas: 1\n  paused: ~\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  replicas: \"1\"\n  paused: null\n")
	var got []string
	for _, f := range objects(r)["Deployment.apps d"].Fields {
		got = append(got, f.Path+" "+string(f.Old)+" "+string(f.New))
	}
	if want := []string{`apiVersion "apps/v1beta1" "apps/v1"`, `spec.replicas 1 "1"`}; !reflect.DeepEqual(got, want) {
		t.Errorf("fields %q, want %q", got, want)
	}
}

func TestMalformedInputNamesTheFile(t *testing.T) {
	deep := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata: " + strings.Repeat("[", yamlread.MaxDepth+5) + strings.Repeat("]", yamlread.MaxDepth+5) + "\n"
	bomb := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
	for name, c := range map[string]struct{ content, msg string }{
		"bad yaml":    {"apiVersion: v1\nkind: [\n", "malformed input"},
		"alias":       {bomb, "aliases are not allowed"},
		"no kind":     {"apiVersion: v1\nmetadata:\n  name: c\n", "no kind"},
		"twice":       {cm("x", "1") + cm("x", "2"), "ConfigMap app/x appears twice"},
		"too deep":    {deep, "nested deeper than"},
		"not a map":   {"- a\n- b\n", "not a mapping"},
		"a key twice": {"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  name: d\n", `line 5: key "name" appears twice in one mapping`},
		"a list item": {"apiVersion: v1\nkind: SecretList\nitems: [a]\n", "item 1 of the SecretList is not a mapping"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			good, bad := filepath.Join(dir, "good.yaml"), filepath.Join(dir, "bad.yaml")
			writeFile(t, good, cm("x", "1"))
			writeFile(t, bad, c.content)
			_, err := Paths(good, bad)
			if err == nil || !strings.Contains(err.Error(), bad+": ") || !strings.Contains(err.Error(), c.msg) || !errors.Is(err, yamlread.ErrMalformed) {
				t.Errorf("error %v: want %s named, %q, ErrMalformed", err, bad, c.msg)
			}
		})
	}
}

func TestDirectories(t *testing.T) {
	dir := t.TempDir()
	old, new := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	writeFile(t, filepath.Join(old, "apps/web.yaml"), cm("x", "1"))
	writeFile(t, filepath.Join(new, "apps/web.yaml"), cm("x", "2"))
	writeFile(t, filepath.Join(old, "same.yml"), cm("s", "1"))
	writeFile(t, filepath.Join(new, "same.yml"), cm("s", "1"))
	writeFile(t, filepath.Join(old, "gone.yaml"), cm("g", "1")+cm("h", "1"))
	writeFile(t, filepath.Join(new, "new/added.yaml"), cm("n", "1"))
	writeFile(t, filepath.Join(new, "notes.txt"), "not a manifest")
	writeFile(t, filepath.Join(new, "provenance.json"), "{")
	r, err := Paths(old, new)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Files {
		got = append(got, f.Path+" "+f.Status+" "+f.Counts.String())
	}
	want := []string{"apps/web.yaml changed 1 changed", "gone.yaml removed 2 removed", "new/added.yaml added 1 added"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	if r.Counts != (Counts{Added: 1, Removed: 2, Changed: 1}) {
		t.Errorf("counts %+v", r.Counts)
	}
	if _, err := Paths(old, filepath.Join(new, "same.yml")); err == nil || !strings.Contains(err.Error(), "two files or two directories") {
		t.Errorf("a directory and a file: %v", err)
	}
}

func TestMarkdownBounded(t *testing.T) {
	dir := t.TempDir()
	old, new := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	for i := 0; i < 30; i++ {
		name := string(rune('a'+i%26)) + strings.Repeat("z", i/26) + ".yaml"
		writeFile(t, filepath.Join(old, name), cm("x", strings.Repeat("o", 500)))
		writeFile(t, filepath.Join(new, name), cm("x", strings.Repeat("n", 500)))
	}
	r, err := Paths(old, new)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b, 8000); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if b.Len() > 8000 {
		t.Errorf("markdown is %d bytes, over --max-bytes 8000", b.Len())
	}
	for _, s := range []string{"| `a.yaml` | 0 | 0 | 1 |", "<details><summary><code>a.yaml</code>: 1 changed</summary>", "files left out", "--max-bytes 8000"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
	b.Reset()
	if err := r.WriteMarkdown(&b, 1<<20); err != nil || strings.Contains(b.String(), "left out") || strings.Count(b.String(), "<details>") != 30 {
		t.Errorf("unbounded markdown:\n%s", b.String())
	}
}
