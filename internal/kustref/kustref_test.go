package kustref

import "testing"

// TestIsRemote lists the forms kustomize fetches, and local paths that
// look like them.
func TestIsRemote(t *testing.T) {
	for _, tc := range []struct {
		entry string
		want  bool
	}{
		{"https://github.com/kubernetes-sigs/kustomize//examples/helloWorld?ref=v1.0.6", true},
		{"http://example.com/manifest.yaml", true},
		{"HTTPS://EXAMPLE.COM/x.yaml", true},
		{"git::https://github.com/org/repo.git//base", true},
		{"GIT::https://github.com/org/repo.git//base", true},
		{"git@github.com:org/repo.git//base", true},
		{"ssh://git@github.com/org/repo.git", true},
		{"file:///tmp/repo", true},
		{"github.com/org/repo/base?ref=main", true},
		{"GitHub.com/org/repo", true},
		{"github.com/org/repo//base", true},
		{"gitlab.com/org/repo", true},
		{"bitbucket.org/org/repo", true},
		{"gh:org/repo", true},
		{"example.com/org/repo.git//base", true},
		{"example.com/org/REPO.GIT//base", true},
		{"someserver/repo?ref=v1", true},
		{"base", false},
		{"../base", false},
		{"./overlays/prod", false},
		{"deployment.yaml", false},
		{"/abs/path/base", false},
		{"my-github.com/base", false},
		{"dir.git/file.yaml", false},
		{"ghost/base", false},
		{"", false},
	} {
		if got := IsRemote(tc.entry); got != tc.want {
			t.Errorf("IsRemote(%q) = %v, want %v", tc.entry, got, tc.want)
		}
	}
}

func TestInheritsHelmNamespace(t *testing.T) {
	for _, tc := range []struct {
		name string
		k    Kustomization
		want bool
	}{
		{"no charts", Kustomization{}, false},
		{"chart without namespace", Kustomization{HelmCharts: []HelmChart{{Name: "a"}}}, true},
		{"chart with namespace", Kustomization{HelmCharts: []HelmChart{{Name: "a", Namespace: "n"}}}, false},
		{"one of two without", Kustomization{HelmCharts: []HelmChart{{Name: "a", Namespace: "n"}, {Name: "b"}}}, true},
		{"kustomization sets one", Kustomization{Namespace: "k", HelmCharts: []HelmChart{{Name: "a"}}}, false},
	} {
		if got := tc.k.InheritsHelmNamespace(); got != tc.want {
			t.Errorf("%s: InheritsHelmNamespace = %v, want %v", tc.name, got, tc.want)
		}
	}
}
