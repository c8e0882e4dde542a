package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestBepOutputs(t *testing.T) {
	dir := t.TempDir()
	write := func(events string) string {
		p := filepath.Join(dir, "bep.json")
		if err := os.WriteFile(p, []byte(events), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Events as Bazel 7 writes them (one JSON object a line; abridged).
	got, err := bepOutputs(write(`{"id":{"started":{}},"started":{"uuid":"x"}}
{"id":{"namedSet":{"id":"0"}},"namedSetOfFiles":{"files":[{"name":"app/prod/prod_manifests.yaml","uri":"file:///out/execroot/_main/bazel-out/k8-fastbuild/bin/app/prod/prod_manifests.yaml","pathPrefix":["bazel-out","k8-fastbuild","bin"]}]}}
{"id":{"namedSet":{"id":"1"}},"namedSetOfFiles":{"files":[{"name":"top_manifests.stamped.yaml","uri":"file:///out/execroot/_main/bazel-out/k8-fastbuild/bin/top_manifests.stamped.yaml","pathPrefix":["bazel-out","k8-fastbuild","bin"]}]}}
`))
	want := map[string]string{
		"app/prod/prod_manifests.yaml": "/out/execroot/_main/bazel-out/k8-fastbuild/bin/app/prod/prod_manifests.yaml",
		"top_manifests.yaml":           "/out/execroot/_main/bazel-out/k8-fastbuild/bin/top_manifests.stamped.yaml",
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("bepOutputs = %v, %v; want %v", got, err, want)
	}
	// A file with no local path: nil, for cquery to find them.
	got, err = bepOutputs(write(`{"id":{"namedSet":{"id":"0"}},"namedSetOfFiles":{"files":[{"name":"a_manifests.yaml","uri":"bytestream://cache/blobs/ab/12","pathPrefix":["bazel-out","k8-fastbuild","bin"]}]}}`))
	if err != nil || got != nil {
		t.Errorf("bepOutputs of a remote file = %v, %v; want nil", got, err)
	}
	if _, err := bepOutputs(write(`{"id":`)); err == nil {
		t.Error("bepOutputs of a cut file: no error")
	}
	if _, err := bepOutputs(write(`{"namedSetOfFiles":{"files":[{"name":"x.yaml","uri":"file:///x.yaml","pathPrefix":["bazel-out","k8-fastbuild","genfiles"]}]}}`)); err == nil {
		t.Error("bepOutputs of a file outside bin: no error")
	}
}
