package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestRenderCache(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "render")
	writeFiles(t, src, map[string]string{"app/prod/prod_manifests.yaml": "kind: A\n", "top_manifests.yaml": "kind: B\n"})
	key := renderKey("c0ffee", "bazel", nil, []string{"--disk_cache=/d"}, []string{"//app/prod:prod", "//:top"})
	c := &RenderCache{Dir: filepath.Join(dir, "cache"), Key: key}
	if c.Get(filepath.Join(dir, "miss")) {
		t.Fatal("Get of an empty cache: hit")
	}
	if err := c.Put(src); err != nil {
		t.Fatal(err)
	}
	got := filepath.Join(dir, "got")
	if !c.Get(got) {
		t.Fatal("Get after Put: miss")
	}
	if a, b := readTree(t, src), readTree(t, got); !reflect.DeepEqual(a, b) {
		t.Errorf("Get copied %v, want %v", b, a)
	}
	// Each input is in the key.
	for i, k := range []string{
		renderKey("c0ffef", "bazel", nil, []string{"--disk_cache=/d"}, []string{"//app/prod:prod", "//:top"}),
		renderKey("c0ffee", "bazelisk", nil, []string{"--disk_cache=/d"}, []string{"//app/prod:prod", "//:top"}),
		renderKey("c0ffee", "bazel", []string{"--output_user_root=/u"}, []string{"--disk_cache=/d"}, []string{"//app/prod:prod", "//:top"}),
		renderKey("c0ffee", "bazel", nil, []string{"--disk_cache=/d", "--stamp"}, []string{"//app/prod:prod", "//:top"}),
		renderKey("c0ffee", "bazel", nil, []string{"--disk_cache=/d"}, []string{"//app/prod:prod"}),
		renderKey("c0ffee", "bazel", []string{"--disk_cache=/d"}, nil, []string{"//app/prod:prod", "//:top"}),
	} {
		if k == key {
			t.Errorf("key %d: the same as the original's", i)
		}
	}
	// Only the most recently used entries stay.
	for i := 0; i < keptRenders+2; i++ {
		if err := (&RenderCache{Dir: c.Dir, Key: fmt.Sprint("k", i)}).Put(src); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != keptRenders {
		t.Errorf("%d entries kept, want %d", len(entries), keptRenders)
	}
	if !(&RenderCache{Dir: c.Dir, Key: fmt.Sprint("k", keptRenders+1)}).Get(filepath.Join(dir, "last")) {
		t.Error("the newest entry was pruned")
	}
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
