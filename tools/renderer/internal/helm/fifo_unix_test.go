//go:build unix

package helm

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testtree"
)

// A FIFO in a chart is refused with Helm's message instead of blocking the
// build on reading it.
func TestIrregularChartFile(t *testing.T) {
	root := t.TempDir()
	chart := filepath.Join(root, "charts", "demo")
	if err := os.CopyFS(chart, os.DirFS(testtree.Real(t, "testdata/dir/charts/demo"))); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(chart, "templates", "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := generateWith(t, helpersAt(t, root, true), "name: demo\n")
	if want := "cannot load irregular file " + filepath.Join(chart, "templates", "pipe.yaml"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error containing %q", err, want)
	}
}
