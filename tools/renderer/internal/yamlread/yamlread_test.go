package yamlread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestNodes(t *testing.T) {
	nodes, err := Nodes([]byte("a: 1\n---\n# only a comment\n---\nb: [x, y]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 2 || nodes[0].Kind != yaml.MappingNode || nodes[1].Content[0].Value != "b" {
		t.Errorf("nodes %v: want the two mappings", nodes)
	}
	deep := "a: " + strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5) + "\n"
	bomb := "a: &a [x, x, x]\nb: [*a, *a, *a]\n"
	for name, c := range map[string]struct{ in, msg string }{
		"bad yaml":  {"kind: [\n", "malformed input: "},
		"alias":     {bomb, "malformed input: object 1: line 2: YAML alias *a: aliases are not allowed in rendered manifests"},
		"too deep":  {deep, "malformed input: object 1: nested deeper than 1000 levels"},
		"not a map": {"a: 1\n---\n- a\n- b\n", "malformed input: object 2 is not a mapping"},
	} {
		_, err := Nodes([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.msg) || !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: error %v, want %q and ErrMalformed", name, err, c.msg)
		}
	}
}

// The node budget is shared by a file's documents; check counts every node.
func TestCheckBudget(t *testing.T) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("a: [x, y]\n"), &n); err != nil {
		t.Fatal(err)
	}
	root := n.Content[0] // mapping, a, sequence, x, y: 5 nodes
	if budget := 5; check(root, 0, &budget) != nil || budget != 0 {
		t.Errorf("5 nodes within a budget of 5: budget left %d", budget)
	}
	budget := 4
	if err := check(root, 0, &budget); err == nil || err.Error() != fmt.Sprintf("more than %d YAML nodes in the file", MaxNodes) {
		t.Errorf("5 nodes over a budget of 4: %v", err)
	}
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestRead(t *testing.T) {
	if b, err := Read(strings.NewReader("a: 1\n"), "stdin"); err != nil || string(b) != "a: 1\n" {
		t.Errorf("Read = %q, %v", b, err)
	}
	if _, err := Read(failing{}, "stdin"); err != io.ErrUnexpectedEOF {
		t.Errorf("a reader's error: %v, want it as it is", err)
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file one byte past the bound.
	if err := f.Truncate(MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = File(big)
	if want := big + ": malformed input: larger than 134217728 bytes"; err == nil || err.Error() != want || !errors.Is(err, ErrMalformed) {
		t.Errorf("File(big): %v, want %q", err, want)
	}
	if _, err := File(filepath.Join(dir, "missing.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("File(missing): %v", err)
	}
}
