package images

import (
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
)

const digestA = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

func TestParse(t *testing.T) {
	got, err := Parse("name=frontend,digestFile=out/frontend.digest,newName=gcr.io/x/frontend,source=//app:a,b")
	if err != nil {
		t.Fatal(err)
	}
	want := Spec{Name: "frontend", DigestFile: "out/frontend.digest", NewName: "gcr.io/x/frontend", Source: "//app:a,b"}
	if got != want {
		t.Errorf("Parse = %+v, want %+v", got, want)
	}
	got, err = Parse("name=app,digest=" + digestA + ",dir=deploy/base,source=//deploy:app.digest")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Spec{Name: "app", Digest: digestA, Dir: "deploy/base", Source: "//deploy:app.digest"}); got != want {
		t.Errorf("Parse = %+v, want %+v", got, want)
	}
	for value, msg := range map[string]string{
		"digest=" + digestA:                       "name is missing",
		"name=a,digest=x,digestFile=f":            "give digest or digestFile, not both",
		"name=a,newName=x,newNameFile=f,digest=x": "give newName or newNameFile, not both",
		"name=a":                     "sets nothing",
		"name=a,name=b,digest=x":     "name is given twice",
		"name=a,tag=v1":              `"tag=v1" is not KEY=VALUE with KEY one of name, newName`,
		"name=a b,digest=" + digestA: "holds whitespace",
		"name=a,digest=" + digestA + ",newTag=v1,x": `"x" is not KEY=VALUE`,
	} {
		if _, err := Parse(value); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Parse(%q) error = %v, want it to say %q", value, err, msg)
		}
	}
}

func TestResolve(t *testing.T) {
	fs := krmtest.MemFS(t, map[string]string{
		"frontend.digest": digestA + "\n",
		"repo.txt":        "registry.example.com/team/frontend\n",
		"bad.digest":      "sha256:abc\n",
		"tag.repo":        "registry.example.com/x@sha256:1\n",
		"two.repo":        "a\nb\n",
	})
	got, err := Resolve(fs, []Spec{
		{Name: "frontend", DigestFile: "frontend.digest", NewNameFile: "repo.txt", Source: "//app:frontend.digest"},
		{Name: "worker", Digest: digestA, NewName: "w", NewTag: "v1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []Resolved{
		{Image: types.Image{Name: "frontend", NewName: "registry.example.com/team/frontend", Digest: digestA}, Source: "//app:frontend.digest"},
		{Image: types.Image{Name: "worker", NewName: "w", NewTag: "v1", Digest: digestA}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Resolve = %+v, want %+v", got, want)
	}
	for _, tc := range []struct {
		spec Spec
		msg  string
	}{
		{Spec{Name: "f", DigestFile: "bad.digest", Source: "//app:d"},
			`image f: digest file bad.digest (from //app:d): "sha256:abc" is not an image digest`},
		{Spec{Name: "f", Digest: "latest"}, `image f: digest: "latest" is not an image digest`},
		{Spec{Name: "f", DigestFile: "missing.digest", Source: "//app:d"}, "image f: digest file missing.digest (from //app:d):"},
		{Spec{Name: "f", NewNameFile: "tag.repo"}, "is not a repository: it holds a digest"},
		{Spec{Name: "f", NewNameFile: "two.repo"}, `want one word, it holds "a\nb\n"`},
	} {
		if _, err := Resolve(fs, []Spec{tc.spec}); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Resolve(%+v) error = %v, want it to say %q", tc.spec, err, tc.msg)
		}
	}
}

func TestAppendKeepsTheFileEntriesFirst(t *testing.T) {
	k := &types.Kustomization{Images: []types.Image{{Name: "busybox", NewTag: "1.36"}}}
	Append(k, []Resolved{{Image: types.Image{Name: "b", Digest: digestA}}, {Image: types.Image{Name: "a", Digest: digestA}}})
	var names []string
	for _, img := range k.Images {
		names = append(names, img.Name)
	}
	if strings.Join(names, " ") != "busybox b a" {
		t.Errorf("images after Append: %v, want busybox b a", names)
	}
}
