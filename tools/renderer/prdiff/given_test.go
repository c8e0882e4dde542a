package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var (
	mergeBase = strings.Repeat("d", 40)
	otherSha  = strings.Repeat("a", 40)
)

func metadata(sha string) string {
	return `{"drySha": "` + sha + `", "deployments": ["app/dev/dev", "app/prod/prod"]}` + "\n"
}

// published is a tree of given renders of two targets at mergeBase.
func published() map[string]string {
	return map[string]string{
		"hydrator.metadata":           metadata(mergeBase),
		"app/prod/prod/manifest.yaml": "kind: A\n",
		"app/dev/dev/manifest.yaml":   "kind: B\n",
		"README.md":                   "not krm's\n",
	}
}

var givenTargets = []string{"//app/dev:dev", "//app/prod:prod"}

func TestTakeGiven(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, filepath.Join(dir, "given"), published())
	out := filepath.Join(dir, "out")
	if err := takeGiven(dirTree{filepath.Join(dir, "given")}, mergeBase, givenTargets, nil, out); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"app/prod/prod_manifests.yaml": "kind: A\n", "app/dev/dev_manifests.yaml": "kind: B\n"}
	if got := readTree(t, out); !reflect.DeepEqual(got, want) {
		t.Errorf("took %v, want %v", got, want)
	}

	// A component has no manifests: asked about the targets without any.
	var asked []string
	components := func(l []string) ([]string, error) {
		asked = append(asked, l...)
		return []string{"//app/components/probe:probe"}, nil
	}
	withComponent := append([]string{"//app/components/probe:probe"}, givenTargets...)
	if err := takeGiven(dirTree{filepath.Join(dir, "given")}, mergeBase, withComponent, components, filepath.Join(dir, "out3")); err != nil {
		t.Errorf("with a component: %v", err)
	}
	if want := []string{"//app/components/probe:probe"}; !reflect.DeepEqual(asked, want) {
		t.Errorf("asked for the components among %q, want %q", asked, want)
	}
	if got := readTree(t, filepath.Join(dir, "out3")); !reflect.DeepEqual(got, want) {
		t.Errorf("with a component: took %v, want %v", got, want)
	}

	// Argo CD's source hydrator writes a hydrator.metadata into each
	// directory too: that one applies there.
	perPath := published()
	perPath["hydrator.metadata"] = metadata(otherSha)
	perPath["app/prod/prod/hydrator.metadata"] = metadata(mergeBase)
	perPath["app/dev/dev/hydrator.metadata"] = metadata(mergeBase)
	writeFiles(t, filepath.Join(dir, "per-path"), perPath)
	if err := takeGiven(dirTree{filepath.Join(dir, "per-path")}, mergeBase, givenTargets, nil, filepath.Join(dir, "out2")); err != nil {
		t.Errorf("per-path metadata naming the merge base: %v", err)
	}
}

// TestTakeGivenRefused: each reason the given renders cannot serve, as the
// line prdiff prints before it builds the base.
func TestTakeGivenRefused(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.yaml": "kind: Secret\n"})
	for _, tc := range []struct {
		name   string
		edit   func(dir string, files map[string]string)
		target []string
		want   string
	}{
		{"commit mismatch", func(_ string, f map[string]string) { f["hydrator.metadata"] = metadata(otherSha) }, nil,
			"base manifests in GIVEN name commit aaaaaaaaaaaa (hydrator.metadata), the merge base is dddddddddddd"},
		{"a path's own metadata names another commit", func(_ string, f map[string]string) {
			f["app/dev/dev/hydrator.metadata"] = metadata(otherSha)
		}, nil, "base manifests in GIVEN name commit aaaaaaaaaaaa (app/dev/dev/hydrator.metadata), the merge base is dddddddddddd"},
		{"missing target", nil, append([]string{"//app/base:base", "//:top"}, givenTargets...),
			"base manifests in GIVEN have no manifests of //app/base:base (app/base/base/manifest.yaml) and 1 more"},
		{"metadata missing", func(_ string, f map[string]string) { delete(f, "hydrator.metadata") }, nil,
			"base manifests in GIVEN: no hydrator.metadata names their commit (none at the root, none in app/dev/dev)"},
		{"metadata malformed", func(_ string, f map[string]string) { f["hydrator.metadata"] = "drySha: " + mergeBase + "\n" }, nil,
			"base manifests in GIVEN: hydrator.metadata: not a JSON object"},
		{"metadata without drySha", func(_ string, f map[string]string) { f["hydrator.metadata"] = "{}" }, nil,
			"base manifests in GIVEN: hydrator.metadata: no drySha"},
		{"metadata with a short sha", func(_ string, f map[string]string) { f["hydrator.metadata"] = `{"drySha": "dddddddd"}` }, nil,
			`base manifests in GIVEN: hydrator.metadata: drySha "dddddddd": want a full commit SHA`},
		{"manifests a symbolic link out of the tree", func(dir string, f map[string]string) {
			delete(f, "app/prod/prod/manifest.yaml")
			symlink(t, filepath.Join(outside, "secret.yaml"), filepath.Join(dir, "app/prod/prod/manifest.yaml"))
		}, nil, "GIVEN/app/prod/prod/manifest.yaml: a symbolic link, not a regular file"},
		{"manifests a symbolic link in the tree", func(dir string, f map[string]string) {
			delete(f, "app/prod/prod/manifest.yaml")
			symlink(t, "../../dev/dev/manifest.yaml", filepath.Join(dir, "app/prod/prod/manifest.yaml"))
		}, nil, "GIVEN/app/prod/prod/manifest.yaml: a symbolic link, not a regular file"},
		{"a directory a symbolic link out of the tree", func(dir string, f map[string]string) {
			delete(f, "app/prod/prod/manifest.yaml")
			writeFiles(t, outside, map[string]string{"prod/manifest.yaml": "kind: Secret\n"})
			symlink(t, filepath.Join(outside, "prod"), filepath.Join(dir, "app/prod/prod"))
		}, nil, "GIVEN/app/prod/prod/hydrator.metadata: path escapes from parent"},
		{"metadata a symbolic link out of the tree", func(dir string, f map[string]string) {
			delete(f, "hydrator.metadata")
			writeFiles(t, outside, map[string]string{"hydrator.metadata": metadata(mergeBase)})
			symlink(t, filepath.Join(outside, "hydrator.metadata"), filepath.Join(dir, "hydrator.metadata"))
		}, nil, "GIVEN/hydrator.metadata: a symbolic link, not a regular file"},
		{"manifests a directory", func(dir string, f map[string]string) {
			delete(f, "app/prod/prod/manifest.yaml")
			f["app/prod/prod/manifest.yaml/x"] = ""
		}, nil, "GIVEN/app/prod/prod/manifest.yaml: not a regular file"},
		{"metadata too large", func(_ string, f map[string]string) {
			f["hydrator.metadata"] = metadata(mergeBase) + strings.Repeat(" ", maxMetadataBytes)
		}, nil, "GIVEN/hydrator.metadata: larger than 1048576 bytes"},
		{"a target that is no label", nil, []string{"app/prod:prod"}, "base manifests in GIVEN: app/prod:prod is not a label of the workspace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			given := filepath.Join(dir, "given")
			files := published()
			if err := os.MkdirAll(filepath.Join(given, "app/prod"), 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.edit != nil {
				tc.edit(given, files)
			}
			writeFiles(t, given, files)
			targets := tc.target
			if targets == nil {
				targets = givenTargets
			}
			out := filepath.Join(dir, "out")
			err := takeGiven(dirTree{given}, mergeBase, targets, nil, out)
			if err == nil {
				t.Fatalf("took them (%v), want %q", readTree(t, out), tc.want)
			}
			if got := strings.ReplaceAll(err.Error(), given, "GIVEN"); !strings.Contains(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("wrote %v, want nothing", readTree(t, out))
			}
		})
	}
}

func TestTakeGivenNoDirectory(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	err := takeGiven(dirTree{missing}, mergeBase, givenTargets, nil, filepath.Join(t.TempDir(), "out"))
	if want := "base manifests in " + missing + ": cannot open the directory: no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestPublishedBranch: the branch's commit that names the merge base, not
// its tip, serves; a branch that names it nowhere, or holds a link, does
// not.
func TestPublishedBranch(t *testing.T) {
	top := scratchRepo(t, map[string]string{"README.md": "source\n"})
	run(t, top, "git", "checkout", "-q", "--orphan", "env/prod")
	run(t, top, "git", "rm", "-q", "-r", "--cached", ".")
	if err := os.Remove(filepath.Join(top, "README.md")); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, top, published())
	commit(t, top, "publish the merge base")
	forMB := strings.TrimSpace(run(t, top, "git", "rev-parse", "HEAD"))
	writeFiles(t, top, map[string]string{"hydrator.metadata": metadata(otherSha), "app/prod/prod/manifest.yaml": "kind: Newer\n"})
	commit(t, top, "publish a later commit")
	run(t, top, "git", "checkout", "-q", "main")

	g, err := findPublished(top, "env/prod", mergeBase)
	if err != nil {
		t.Fatal(err)
	}
	if g.commit != forMB {
		t.Errorf("found commit %s, want %s (the one naming the merge base)", g.commit, forMB)
	}
	out := filepath.Join(t.TempDir(), "out")
	if err := takeGiven(g, mergeBase, givenTargets, nil, out); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"app/prod/prod_manifests.yaml": "kind: A\n", "app/dev/dev_manifests.yaml": "kind: B\n"}
	if got := readTree(t, out); !reflect.DeepEqual(got, want) {
		t.Errorf("took %v, want %v", got, want)
	}
	if err := takeGiven(g, mergeBase, []string{"//app/base:base"}, nil, out); err == nil || !strings.Contains(err.Error(), "base manifests of env/prod (commit "+forMB[:12]+") have no manifests of //app/base:base (app/base/base/manifest.yaml)") {
		t.Errorf("a target the branch does not hold: %v", err)
	}

	for _, tc := range []struct{ ref, commit, want string }{
		{"env/prod", strings.Repeat("e", 40), "base manifests branch env/prod: none of its last 2 commits has a hydrator.metadata naming the merge base eeeeeeeeeeee (its tip's names aaaaaaaaaaaa)"},
		{"env/none", mergeBase, "base manifests branch env/none: not in the repository (fetch it first"},
	} {
		if _, err := findPublished(top, tc.ref, tc.commit); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("findPublished(%s, %.12s) = %v, want %q", tc.ref, tc.commit, err, tc.want)
		}
	}

	// A link in the branch is no regular file.
	run(t, top, "git", "checkout", "-q", "env/prod")
	writeFiles(t, top, map[string]string{"hydrator.metadata": metadata(mergeBase)})
	if err := os.Remove(filepath.Join(top, "app/dev/dev/manifest.yaml")); err != nil {
		t.Fatal(err)
	}
	symlink(t, "/etc/passwd", filepath.Join(top, "app/dev/dev/manifest.yaml"))
	commit(t, top, "a link")
	run(t, top, "git", "checkout", "-q", "main")
	g, err = findPublished(top, "env/prod", mergeBase)
	if err != nil {
		t.Fatal(err)
	}
	if err := takeGiven(g, mergeBase, givenTargets, nil, filepath.Join(t.TempDir(), "out")); err == nil || !strings.Contains(err.Error(), "app/dev/dev/manifest.yaml: a symbolic link, not a regular file") {
		t.Errorf("a link in the branch: %v", err)
	}
}
