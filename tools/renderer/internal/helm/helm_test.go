package helm

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/ifc"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/dev/testtree"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// helpers returns plugin helpers whose loader is rooted at testdata/dir.
func helpers(t *testing.T, dir string, enabled bool) *resmap.PluginHelpers {
	t.Helper()
	return helpersAt(t, testtree.Real(t, filepath.Join("testdata", dir)), enabled)
}

// helpersAt returns plugin helpers whose loader is rooted at root.
func helpersAt(t *testing.T, root string, enabled bool) *resmap.PluginHelpers {
	t.Helper()
	ldr, err := load.NewLoader(filesys.MakeFsOnDisk(), root, load.RootOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	return helpersWith(ldr, enabled)
}

func helpersWith(ldr ifc.Loader, enabled bool) *resmap.PluginHelpers {
	pc := types.DisabledPluginConfig()
	pc.HelmConfig = types.HelmConfig{Enabled: enabled, Command: "helm"}
	return krmtest.PluginHelpers(ldr, pc)
}

func generate(t *testing.T, dir, config string) (string, error) {
	t.Helper()
	return generateWith(t, helpers(t, dir, true), config)
}

func generateWith(t *testing.T, h *resmap.PluginHelpers, config string) (string, error) {
	t.Helper()
	g := New()
	if err := g.Config(h, []byte(config)); err != nil {
		return "", err
	}
	m, err := g.Generate()
	if err != nil {
		return "", err
	}
	y, err := m.AsYaml()
	return string(y), err
}

func TestPackagedChartRendersLikeItsDirectory(t *testing.T) {
	const config = "name: demo\nversion: 0.3.1\nreleaseName: web\n"
	fromDir, err := generate(t, "dir", "name: demo\nreleaseName: web\n")
	if err != nil {
		t.Fatal(err)
	}
	fromTgz, err := generate(t, "packaged", config)
	if err != nil {
		t.Fatal(err)
	}
	if fromDir != fromTgz {
		t.Errorf("chart from .tgz renders differently:\n--- dir\n%s\n--- tgz\n%s", fromDir, fromTgz)
	}
	for _, want := range []string{"kind: Deployment", "name: web-demo", "config.kubernetes.io/helm-generated"} {
		if !strings.Contains(fromDir, want) {
			t.Errorf("output lacks %q:\n%s", want, fromDir)
		}
	}
}

func TestInflatedChartNamesChartAndDigest(t *testing.T) {
	digests := map[string]string{}
	for _, dir := range []string{"dir", "packaged"} {
		g := New().(*Generator)
		if err := g.Config(helpers(t, dir, true), []byte("name: demo\nversion: 0.3.1\n")); err != nil {
			t.Fatal(err)
		}
		if _, err := g.Generate(); err != nil {
			t.Fatal(err)
		}
		name, version, digest := g.InflatedChart()
		if name != "demo" || version != "0.3.1" || len(digest) != 64 {
			t.Errorf("%s: InflatedChart() = %q, %q, %q; want demo, 0.3.1 and a sha256", dir, name, version, digest)
		}
		digests[dir] = digest
	}
	if digests["dir"] == digests["packaged"] {
		t.Error("a chart directory and an archive have the same digest")
	}
}

// TestChartHomeOutsideRoot: as in kustomize, the chart under chartHome is
// read without the load restrictor, while the values files go through it.
func TestChartHomeOutsideRoot(t *testing.T) {
	h := helpersAt(t, filepath.Join(testtree.Real(t, "testdata"), "elsewhere"), true)
	const globals = "chartHome: ../dir/charts\nname: demo\nreleaseName: web\n"
	out, err := generateWith(t, h, globals+"valuesFile: values.yaml\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"name: web-demo", "GREETING: hello from elsewhere"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, tc := range []struct{ name, config, want string }{
		{"default values file", globals, "charts/demo/values.yaml' is not in or below"},
		{"additional values file", globals + "valuesFile: values.yaml\nadditionalValuesFiles: [../dir/charts/demo/values.yaml]\n",
			"could not load additionalValuesFile: security; file"},
	} {
		if _, err := generateWith(t, h, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s outside the root: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// The chart's files, read past the loader, are still the step's inputs
// (provenance records them through the loader's Recorder).
func TestChartFilesAreRecorded(t *testing.T) {
	root, err := filepath.Abs(filepath.Join(testtree.Real(t, "testdata"), "elsewhere"))
	if err != nil {
		t.Fatal(err)
	}
	ldr, err := load.NewLoader(filesys.MakeFsOnDisk(), root, load.RootOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := load.NewRecorder(ldr)
	if _, err := generateWith(t, helpersWith(rec, true), "chartHome: ../dir/charts\nname: demo\nvaluesFile: values.yaml\n"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rec.Reads() {
		if r.Loaded {
			got = append(got, filepath.ToSlash(strings.TrimPrefix(r.Path, filepath.Dir(root)+string(filepath.Separator))))
		}
	}
	for _, want := range []string{"dir/charts/demo/.helmignore", "dir/charts/demo/Chart.yaml", "dir/charts/demo/templates/deployment.yaml", "elsewhere/values.yaml"} {
		if !slices.Contains(got, want) {
			t.Errorf("reads %v lack %s", got, want)
		}
	}
}

// symlinkedChart makes a kustomization root whose charts/demo is a
// symbolic link to the demo chart copied to vendor/demo, with a template
// directory and a template file linked from outside the root, and returns
// the root.
func symlinkedChart(t *testing.T) string {
	t.Helper()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "app")
	chart := filepath.Join(root, "vendor", "demo")
	if err := os.CopyFS(chart, os.DirFS(testtree.Real(t, "testdata/dir/charts/demo"))); err != nil {
		t.Fatal(err)
	}
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(tmp, "shared", "tpl", "linked.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-dirlink\n")
	write(filepath.Join(tmp, "shared", "file.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-filelink\n")
	for link, target := range map[string]string{
		filepath.Join(root, "charts", "demo"):               "../vendor/demo",
		filepath.Join(chart, "templates", "linked"):         "../../../../shared/tpl",
		filepath.Join(chart, "templates", "file-link.yaml"): "../../../../shared/file.yaml",
	} {
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// A chart directory that is a symbolic link, and links inside the chart
// (to files and directories, even out of the root), are followed as Helm's
// loader follows them under kustomize.
func TestSymlinkedChart(t *testing.T) {
	root := symlinkedChart(t)
	out, err := generateWith(t, helpersAt(t, root, true), "name: demo\nreleaseName: web\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"name: web-demo", "GREETING: hello from web", "name: web-dirlink", "name: web-filelink"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// A link to a directory that contains it is a cycle (helm walks it until
	// the OS says "too many levels of symbolic links").
	if err := os.Symlink("..", filepath.Join(root, "vendor", "demo", "templates", "loop")); err != nil {
		t.Fatal(err)
	}
	_, err = generateWith(t, helpersAt(t, root, true), "name: demo\nreleaseName: web\n")
	if want := "charts/demo/templates/loop is a symbolic link to a directory that contains it"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error containing %q", err, want)
	}
}

func TestHelmIgnoreAndHiddenTemplatesAreSkipped(t *testing.T) {
	ldr := helpers(t, "dir", true).Loader()
	ch, err := loadChart(ldr, filepath.Join(ldr.Root(), "charts"), types.HelmChart{Name: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ch.files {
		if strings.Contains(f, "/notes/") {
			t.Errorf("%s is listed in .helmignore but was loaded", f)
		}
	}
	if len(ch.Templates) != 5 {
		t.Errorf("got %d templates, want 5", len(ch.Templates))
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		want         []string
		remote       bool
	}{
		{"remote", "name: redis\nrepo: https://charts.example/stable\nversion: 1.2.3\n",
			[]string{`helm chart "redis" from https://charts.example/stable is not vendored`,
				"helm pull --untar --untardir charts/redis-1.2.3 --repo https://charts.example/stable redis --version 1.2.3", "sha256"}, true},
		{"oci", "name: redis\nrepo: oci://registry.example/charts/\n",
			[]string{"helm pull --untar --untardir charts oci://registry.example/charts/redis"}, true},
		{"missing", "name: absent\n", []string{"no repo specified for pull", "charts/absent"}, false},
		{"not a chart", "name: nochartyaml\n", []string{"loading helm chart charts/nochartyaml: Chart.yaml file is missing"}, false},
		{"bad merge", "name: demo\nvaluesMerge: deep\n", []string{"valuesMerge must be one of [merge override replace]"}, false},
		{"bad kube version", "name: demo\nkubeVersion: one\n", []string{"invalid kube version 'one'"}, false},
		{"name and template", "name: demo\nreleaseName: a\nnameTemplate: b\n", []string{"cannot set --name-template and also specify a name"}, false},
		{"template failure", "name: demo\nvaluesInline:\n  service:\n    port: ''\n",
			[]string{`helm chart "demo" (charts/demo)`, "demo/templates/NOTES.txt", "NOTES need a service port"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := generate(t, "dir", tc.config)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if errors.Is(err, load.ErrRemote) != tc.remote {
				t.Errorf("errors.Is(err, load.ErrRemote) = %v, want %v", !tc.remote, tc.remote)
			}
		})
	}
}

func TestNotEnabled(t *testing.T) {
	err := New().Config(helpers(t, "dir", false), []byte("name: demo\n"))
	if err == nil || err.Error() != "must specify --enable-helm" {
		t.Fatalf("got %v, want kustomize's --enable-helm error", err)
	}
}

func TestMergeMaps(t *testing.T) {
	base := map[string]interface{}{"a": map[string]interface{}{"x": 1, "y": 2}, "b": []interface{}{1}}
	over := map[string]interface{}{"a": map[string]interface{}{"y": 3}, "b": []interface{}{2}, "c": "new"}
	got := mergeMaps(base, over)
	want := map[string]interface{}{"a": map[string]interface{}{"x": 1, "y": 3}, "b": []interface{}{2}, "c": "new"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if base["a"].(map[string]interface{})["y"] != 2 {
		t.Error("mergeMaps changed its operand")
	}
}
