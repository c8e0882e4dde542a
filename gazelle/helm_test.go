package gazelle

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSymlinkedChartFiles: a chart directory that is a link (charts/web → a shared copy), a
// link to a file inside a chart, and a link cycle: the chart's files are listed by the paths
// the renderer reads them at (through the links), each once, as kustomize follows them.
func TestSymlinkedChartFiles(t *testing.T) {
	root := t.TempDir()
	for p, content := range map[string]string{
		"app/kustomization.yaml":                 "helmCharts:\n- name: web\n  releaseName: web\n",
		"shared/web/Chart.yaml":                  "name: web\n",
		"shared/web/templates/cm.yaml":           "kind: ConfigMap\n",
		"shared/common/_helpers.tpl":             "{{/* */}}\n",
		"shared/web/templates/values.schema.txt": "x\n",
	} {
		f := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"app/charts/web":                  "../../shared/web",
		"shared/web/templates/_helpers.tpl": "../../common/_helpers.tpl",
		"shared/web/templates/loop":         "..",
	} {
		f := filepath.Join(root, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, f); err != nil {
			t.Fatal(err)
		}
	}
	got := readKustomization(root, "app", "kustomization.yaml")
	if got.err != nil {
		t.Fatal(got.err)
	}
	want := []string{
		"app/charts/web/Chart.yaml",
		"app/charts/web/templates/_helpers.tpl",
		"app/charts/web/templates/cm.yaml",
		"app/charts/web/templates/values.schema.txt",
		"app/kustomization.yaml",
	}
	if !reflect.DeepEqual(got.files, want) {
		t.Errorf("files %q\nwant  %q\nwarnings %q", got.files, want, got.warnings)
	}
	if len(got.warnings) != 1 || !strings.Contains(got.warnings[0], "app/charts/web/templates/loop is a link back into its chart") {
		t.Errorf("warnings %q, want one about the cycle", got.warnings)
	}
}
