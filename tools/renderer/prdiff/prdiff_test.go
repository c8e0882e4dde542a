package main

import "testing"

func TestSameGraph(t *testing.T) {
	edit := Changes{Files: []string{"//app/base:kustomization.yaml"}}
	for _, tc := range []struct {
		name       string
		base, head Changes
		want       bool
	}{
		{"files edited on both sides", edit, edit, true},
		{"nothing in the graph", Changes{Ignored: []string{"README.md"}}, Changes{Ignored: []string{"README.md"}}, true},
		{"a new file", edit, Changes{Files: []string{"//app/base:kustomization.yaml", "//app/base:new.yaml"}}, false},
		{"a deleted file", Changes{Files: []string{"//app/base:gone.yaml"}}, Changes{}, false},
		{"a BUILD file", Changes{Packages: []string{"//app:*"}}, Changes{Packages: []string{"//app:*"}}, false},
		{"a .bzl file", Changes{Bzl: []string{"m.bzl"}}, Changes{Bzl: []string{"m.bzl"}}, false},
		{"MODULE.bazel", Changes{All: true}, Changes{All: true}, false},
		{"a file that left its package", edit, Changes{Files: []string{"//app:base/kustomization.yaml"}}, false},
	} {
		if got := sameGraph(tc.base, tc.head); got != tc.want {
			t.Errorf("%s: sameGraph = %v, want %v", tc.name, got, tc.want)
		}
	}
}
