package main

import (
	"bytes"
	"strings"
	"testing"
)

// Two spawns as Bazel 4.2.3 writes them, and one as Bazel 7 does (fields cut down).
const log = `{
  "commandArgs": ["krm", "render"],
  "listedOutputs": ["bazel-out/k8-fastbuild/bin/a/a.krmsnap", "bazel-out/k8-fastbuild/bin/a/a_manifests.yaml"],
  "remotable": true,
  "mnemonic": "KrmRender",
  "runner": "linux-sandbox",
  "remoteCacheHit": false,
  "exitCode": 0
}{
  "listedOutputs": ["bazel-out/k8-fastbuild/bin/b/b.a"],
  "mnemonic": "GoCompilePkg",
  "remoteCacheHit": true
}{
  "listedOutputs": ["bazel-out/k8-fastbuild/bin/c/c.krmsnap"],
  "mnemonic": "KrmRender",
  "runner": "disk cache hit",
  "cacheHit": true
}
`

func TestSummarize(t *testing.T) {
	var out bytes.Buffer
	if err := summarize(strings.NewReader(log), &out, ""); err != nil {
		t.Fatal(err)
	}
	want := "KrmRender\texecuted\tbazel-out/k8-fastbuild/bin/a/a.krmsnap,bazel-out/k8-fastbuild/bin/a/a_manifests.yaml\n" +
		"GoCompilePkg\tcached\tbazel-out/k8-fastbuild/bin/b/b.a\n" +
		"KrmRender\tcached\tbazel-out/k8-fastbuild/bin/c/c.krmsnap\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	if err := summarize(strings.NewReader(log), &out, "GoCompilePkg"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "GoCompilePkg\tcached") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("filtered: %q", out.String())
	}
	if err := summarize(strings.NewReader("{"), &out, ""); err == nil {
		t.Error("truncated log: no error")
	}
}
