package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// scratchRepo makes a git repository in a new directory with files (path →
// content) committed, and returns its path.
func scratchRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("the tests need git on PATH: %v", err) // never a skip: bazel test would count it passed
	}
	dir := t.TempDir()
	run(t, dir, "git", "init", "-q", "-b", "main")
	writeFiles(t, dir, files)
	commit(t, dir, "base")
	return dir
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_AUTHOR_DATE=2025-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-01-01T00:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func commit(t *testing.T, dir, msg string) {
	t.Helper()
	run(t, dir, "git", "add", "-A")
	run(t, dir, "git", "commit", "-q", "-m", msg)
}

func TestChangedFilesAndWorktree(t *testing.T) {
	top := scratchRepo(t, map[string]string{
		"README.md":                 "x",
		"ws/MODULE.bazel":           "module(name = \"ws\")\n",
		"ws/a/BUILD.bazel":          "",
		"ws/a/kustomization.yaml":   "a\n",
		"ws/a/old.yaml":             "old\n",
		"ws/b/kustomization.yaml":   "b\n",
		"ws/gone/BUILD.bazel":       "",
		"ws/gone/kustomization.yml": "gone\n",
	})
	run(t, top, "git", "checkout", "-q", "-b", "feature")
	ws := filepath.Join(top, "ws")
	run(t, top, "git", "rm", "-q", "-r", "ws/gone")
	run(t, top, "git", "mv", "ws/a/old.yaml", "ws/a/renamed.yaml")
	writeFiles(t, top, map[string]string{"ws/b/kustomization.yaml": "b2\n", "README.md": "y", "ws/new/BUILD.bazel": ""})
	commit(t, top, "head")
	// Not committed: a modified file and an untracked one, and an ignored one.
	writeFiles(t, top, map[string]string{"ws/a/kustomization.yaml": "a2\n", "ws/a/untracked.yaml": "u\n", "ws/MODULE.bazel.lock": "{}", ".gitignore": "*.log\n", "ws/a/x.log": ""})

	repo, err := OpenRepo(ws)
	if err != nil {
		t.Fatal(err)
	}
	if repo.Prefix != "ws" {
		t.Errorf("Prefix = %q, want ws", repo.Prefix)
	}
	mb, err := repo.MergeBase("main")
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(run(t, top, "git", "rev-parse", "main")); mb != want {
		t.Errorf("MergeBase = %s, want %s", mb, want)
	}
	files, err := repo.ChangedFiles(mb)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a/kustomization.yaml", "a/old.yaml", "a/renamed.yaml", "a/untracked.yaml", "b/kustomization.yaml", "gone/BUILD.bazel", "gone/kustomization.yml", "new/BUILD.bazel"}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("ChangedFiles = %q\nwant %q", files, want)
	}

	// The base side: a worktree of the merge base, classified there.
	path := filepath.Join(t.TempDir(), "wt", "base")
	if err := os.MkdirAll(path, 0o755); err != nil { // left over from an earlier run
		t.Fatal(err)
	}
	writeFiles(t, path, map[string]string{"stale": ""})
	wt, err := repo.AddWorktree(path, mb)
	if err != nil {
		t.Fatal(err)
	}
	if wt.Dir() != filepath.Join(path, "ws") {
		t.Errorf("Dir() = %s", wt.Dir())
	}
	if _, err := os.Stat(filepath.Join(path, "stale")); !os.IsNotExist(err) {
		t.Errorf("the worktree kept a file of the directory it replaced: %v", err)
	}
	got := Classify(wt.Dir(), files)
	wantBase := Changes{Files: []string{"//a:kustomization.yaml", "//a:old.yaml", "//gone:kustomization.yml"}, Packages: []string{"//gone:*"}, Ignored: []string{"b/kustomization.yaml"}}
	if !reflect.DeepEqual(got, wantBase) {
		t.Errorf("Classify(base) = %+v\nwant %+v", got, wantBase)
	}
	// The same from git, without a checkout.
	if at, err := repo.ClassifyAt(mb, files); err != nil || !reflect.DeepEqual(at, wantBase) {
		t.Errorf("ClassifyAt(base) = %+v, %v\nwant %+v", at, err, wantBase)
	}
	gotHead := Classify(ws, files)
	wantHead := Changes{Files: []string{"//a:kustomization.yaml", "//a:renamed.yaml", "//a:untracked.yaml"}, Packages: []string{"//new:*"}, Ignored: []string{"b/kustomization.yaml"}}
	if !reflect.DeepEqual(gotHead, wantHead) {
		t.Errorf("Classify(head) = %+v\nwant %+v", gotHead, wantHead)
	}

	// A second run replaces the worktree the first left behind.
	wt2, err := repo.AddWorktree(path, mb)
	if err != nil {
		t.Fatalf("a second AddWorktree at the same path: %v", err)
	}
	if err := wt2.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the worktree is still there: %v", err)
	}
	if out := run(t, top, "git", "worktree", "list", "--porcelain"); strings.Contains(out, path) {
		t.Errorf("git still lists the removed worktree:\n%s", out)
	}
}

func TestWorktreePath(t *testing.T) {
	a, b := WorktreePath("/src/one"), WorktreePath("/src/two")
	if a == b || a != WorktreePath("/src/one") || filepath.Base(a) != "base" {
		t.Errorf("WorktreePath: %s and %s", a, b)
	}
}

func TestMainFlags(t *testing.T) {
	for _, args := range [][]string{nil, {"--base"}, {"--base", "main", "extra"}, {"--base", "main", "--format", "yaml"}, {"--base", "main", "--color", "red"}} {
		var out, errb strings.Builder
		if code := runMain(args, &out, &errb); code != 2 {
			t.Errorf("runMain(%q) = %d, want 2 (stderr %s)", args, code, errb.String())
		}
	}
	var out, errb strings.Builder
	if code := runMain([]string{"--base", "main", "--workspace", t.TempDir()}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "git") {
		t.Errorf("outside a git repository: exit %d, stderr %s", code, errb.String())
	}
}

// TestClassifyAtModule: ClassifyAt reads the module files of the commit (a
// .bzl file they name affects everything) and tells files of the tree from
// those that are not there, at the top of the repository too.
func TestClassifyAtModule(t *testing.T) {
	top := scratchRepo(t, map[string]string{
		"MODULE.bazel":      "module(name = \"ws\")\n",
		"deps.MODULE.bazel": "ext = use_extension(\"//tools:ext.bzl\", \"ext\")\n",
		"tools/BUILD.bazel": "",
		"tools/ext.bzl":     "",
		"tools/macro.bzl":   "",
		"x/BUILD":           "",
		"x/k.yaml":          "",
	})
	repo, err := OpenRepo(top)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		files []string
		want  Changes
	}{
		{[]string{"tools/ext.bzl"}, Changes{All: true}},
		{[]string{"tools/macro.bzl", "x/k.yaml", "x/new.yaml"}, Changes{Files: []string{"//x:k.yaml"}, Bzl: []string{"tools/macro.bzl"}}},
	} {
		got, err := repo.ClassifyAt("HEAD", tc.files)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ClassifyAt(%q) = %+v, %v; want %+v", tc.files, got, err, tc.want)
		}
		if fs := Classify(top, tc.files); !reflect.DeepEqual(fs, tc.want) {
			t.Errorf("Classify(%q) = %+v; want %+v", tc.files, fs, tc.want)
		}
	}
}

// TestPlantedStateDirRefused: prdiff's state (the base's checkout, the render cache) lives
// in a directory of the user's own; one planted in its place (a link to another directory,
// or a directory others may write) is refused, and nothing in the other directory is
// removed. Before, the checkout was at a path in the shared temporary directory that prdiff
// first removed: a link planted there made it delete another directory.
func TestPlantedStateDirRefused(t *testing.T) {
	top := scratchRepo(t, map[string]string{"MODULE.bazel": "module(name = \"ws\")\n"})
	repo, err := OpenRepo(top)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, root, victim string)
	}{
		{"link", func(t *testing.T, root, victim string) {
			if err := os.Symlink(victim, root); err != nil {
				t.Fatal(err)
			}
		}},
		{"writable by others", func(t *testing.T, root, victim string) {
			if err := os.Mkdir(root, 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(root, 0o777); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := t.TempDir()
			t.Setenv("XDG_CACHE_HOME", cache)
			t.Setenv("HOME", cache)
			ws := filepath.Join(top, "ws")
			path := WorktreePath(ws)
			root := stateRoot()
			if !strings.HasPrefix(path, root+string(filepath.Separator)) {
				t.Fatalf("WorktreePath %s is not below the state root %s", path, root)
			}
			victim := t.TempDir()
			rel, _ := filepath.Rel(root, path)
			precious := filepath.Join(victim, rel, "precious")
			writeFiles(t, victim, map[string]string{filepath.Join(rel, "precious"): "keep me"})
			c.plant(t, root, victim)
			_, err := repo.AddWorktree(path, "HEAD")
			if err == nil || !strings.Contains(err.Error(), root) {
				t.Errorf("AddWorktree: %v, want the state directory %s refused", err, root)
			}
			if _, err := os.Stat(precious); err != nil {
				t.Errorf("the other directory lost a file: %v", err)
			}
		})
	}
	// A fresh state directory is made private, and the user's cache directory with it when a
	// fresh machine has none yet.
	cache := filepath.Join(t.TempDir(), "home", ".cache")
	t.Setenv("XDG_CACHE_HOME", cache)
	wt, err := repo.AddWorktree(WorktreePath(filepath.Join(top, "ws")), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Remove()
	if st, err := os.Lstat(stateRoot()); err != nil || st.Mode().Perm() != 0o700 || !st.IsDir() {
		t.Errorf("the state directory: %v, %v; want a directory of mode 0700", st.Mode(), err)
	}
}
