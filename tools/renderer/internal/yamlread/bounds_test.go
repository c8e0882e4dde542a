package yamlread

import (
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// allocated is the bytes f allocates, and f's error.
func allocated(f func() error) (uint64, error) {
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	err := f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc, err
}

// TestNodeBoundWhileReading: a file of more than MaxNodes nodes is refused as it is read,
// before its nodes are made (a flow list of zeros has a node per two bytes: 16 MB of it
// made 2 GB of nodes before the bound was checked).
func TestNodeBoundWhileReading(t *testing.T) {
	for name, data := range map[string]string{
		"one document": "a: [" + strings.Repeat("0,", 4*MaxNodes) + "0]\n",
		"documents":    strings.Repeat("{a: 1}\n---\n", 4*MaxNodes/3),
		"keys":         "{" + strings.Repeat("k,", 2*MaxNodes) + "k}\n",
	} {
		n, err := allocated(func() error { _, err := Nodes([]byte(data)); return err })
		if err == nil || !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "more than 2097152 YAML nodes") {
			t.Errorf("%s: error %v, want the node bound", name, err)
		}
		if n > 640<<20 {
			t.Errorf("%s: %d MiB allocated before the refusal, want at most 640", name, n>>20)
		}
	}
}

// TestManyDocumentsBounded: a file of many small documents, within the bounds, is read
// with memory in proportion to its nodes (kio's reader allocated 7 KB a document: 2 GB here).
func TestManyDocumentsBounded(t *testing.T) {
	data := strings.Repeat("a: 1\n---\n", 300000)
	n, err := allocated(func() error { _, err := Nodes([]byte(data)); return err })
	if err != nil {
		t.Fatal(err)
	}
	if n > 512<<20 {
		t.Errorf("%d MiB allocated for 300,000 documents of 3 nodes, want at most 512 MiB", n>>20)
	}
}

// TestDuplicateKeysLinear: a mapping that repeats a key is refused, naming it, and a mapping
// of 200,000 keys is read without comparing them pairwise.
func TestDuplicateKeysLinear(t *testing.T) {
	_, err := Nodes([]byte("kind: ConfigMap\ndata:\n  a: 1\n  a: 2\n"))
	if err == nil || !strings.Contains(err.Error(), `object 1: line 4: key "a" appears twice in one mapping`) {
		t.Errorf("error %v, want the repeated key", err)
	}
	var b strings.Builder
	b.WriteString("kind: ConfigMap\ndata:\n")
	for i := range 200000 {
		b.WriteString("  k")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(strconv.Itoa(i))
		b.WriteString(": v\n")
	}
	if _, err := Nodes([]byte(b.String())); err != nil {
		t.Fatal(err)
	}
}
