package publish

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const (
	sha1 = "0123456789abcdef0123456789abcdef01234567"
	sha2 = "89abcdef0123456789abcdef0123456789abcdef"
)

// needGit fails the test without a git command line (never a skip: bazel
// test would count it passed; Bazel's PATH holds /usr/bin).
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("the tests need git on PATH: %v", err)
	}
}

// testEnv is a git environment that ignores the user's configuration.
func testEnv(t *testing.T) []string {
	home := t.TempDir()
	return append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=", "GIT_AUTHOR_EMAIL=", "GIT_COMMITTER_NAME=", "GIT_COMMITTER_EMAIL=")
}

// gitOut runs git with args and returns its trimmed output.
func gitOut(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Env = append(testEnv(t), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// newBare is a new empty bare repository.
func newBare(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "remote.git")
	gitOut(t, "init", "-q", "--bare", dir)
	return dir
}

// manifests writes each path's content to a file and returns the
// deployments.
func manifests(t *testing.T, files map[string]string) []Deployment {
	dir := t.TempDir()
	var ds []Deployment
	for p, content := range files {
		f := filepath.Join(dir, strings.ReplaceAll(p, "/", "_")+".yaml")
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		ds = append(ds, Deployment{Path: p, Manifests: f})
	}
	return ds
}

func options(t *testing.T, repo, drySha string) Options {
	return Options{
		Repo: repo, Branch: "env/prod", DrySha: drySha,
		Commands: []string{"bazel build //deploy:prod //deploy:staging"},
		Author:   DefaultIdentity, Committer: DefaultIdentity,
		Env: testEnv(t),
	}
}

func publishOK(t *testing.T, o Options, ds []Deployment) Result {
	t.Helper()
	res, err := Publish(context.Background(), o, ds)
	if err != nil {
		t.Fatalf("Publish: %v", err)
	}
	return res
}

// tree is the files of rev in repo with their contents.
func tree(t *testing.T, repo, rev string) map[string]string {
	files := map[string]string{}
	for _, f := range strings.Split(gitOut(t, "--git-dir="+repo, "ls-tree", "-r", "--name-only", rev), "\n") {
		files[f] = gitOut(t, "--git-dir="+repo, "show", rev+":"+f) + "\n"
	}
	return files
}

func commits(t *testing.T, repo, rev string) int {
	var n int
	fmt.Sscan(gitOut(t, "--git-dir="+repo, "rev-list", "--count", rev), &n)
	return n
}

func golden(t *testing.T, name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPublishChangeNoChangeChange publishes two deployments, the same again
// (no commit), then a changed one: a commit on top of the first.
func TestPublishChangeNoChangeChange(t *testing.T) {
	needGit(t)
	repo := newBare(t)
	ds := manifests(t, map[string]string{"deploy/prod": "kind: A\n", "deploy/staging": "kind: B\n"})
	first := publishOK(t, options(t, repo, sha1), ds)
	if !first.Changed || first.Branch != "env/prod" {
		t.Fatalf("first publish: %+v", first)
	}
	want := map[string]string{
		"deploy/prod/manifest.yaml":    "kind: A\n",
		"deploy/staging/manifest.yaml": "kind: B\n",
		"hydrator.metadata":            golden(t, "two.metadata"),
	}
	if got := tree(t, repo, "env/prod"); !reflect.DeepEqual(got, want) {
		t.Fatalf("branch after the first publish:\n got %q\nwant %q", got, want)
	}
	wantChanges := []Change{{'A', "deploy/prod/manifest.yaml"}, {'A', "deploy/staging/manifest.yaml"}, {'A', "hydrator.metadata"}}
	if !reflect.DeepEqual(first.Changes, wantChanges) {
		t.Errorf("changes: got %q, want %q", first.Changes, wantChanges)
	}
	if got := gitOut(t, "--git-dir="+repo, "log", "-1", "--format=%an <%ae>|%cn <%ce>|%s", "env/prod"); got != "krm publish <krm-publish@rules-krm.invalid>|krm publish <krm-publish@rules-krm.invalid>|krm publish: env/prod from 0123456789ab" {
		t.Errorf("commit: %s", got)
	}

	again := publishOK(t, options(t, repo, sha1), ds)
	if again.Changed || again.Commit != first.Commit || commits(t, repo, "env/prod") != 1 {
		t.Fatalf("unchanged publish: %+v, %d commits; want no commit on %s", again, commits(t, repo, "env/prod"), first.Commit)
	}

	if err := os.WriteFile(ds[0].Manifests, []byte("kind: C\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := ds[0].Path
	second := publishOK(t, options(t, repo, sha2), ds)
	if !second.Changed || commits(t, repo, "env/prod") != 2 || gitOut(t, "--git-dir="+repo, "rev-parse", "env/prod^") != first.Commit {
		t.Fatalf("second publish: %+v; want a commit on top of %s", second, first.Commit)
	}
	wantChanges = []Change{{'M', changed + "/manifest.yaml"}, {'M', "hydrator.metadata"}}
	if !reflect.DeepEqual(second.Changes, wantChanges) {
		t.Errorf("changes: got %q, want %q", second.Changes, wantChanges)
	}
	if got := tree(t, repo, "env/prod")[changed+"/manifest.yaml"]; got != "kind: C\n" {
		t.Errorf("%s/manifest.yaml: %q", changed, got)
	}
	if got := tree(t, repo, "env/prod")["hydrator.metadata"]; !strings.Contains(got, `"drySha": "`+sha2+`"`) {
		t.Errorf("hydrator.metadata does not name %s:\n%s", sha2, got)
	}
}

// TestPublishRemovesDeletedDeployment: a deployment no longer published
// loses its manifest.yaml (and its directory); files krm does not own stay.
func TestPublishRemovesDeletedDeployment(t *testing.T) {
	needGit(t)
	repo := newBare(t)
	ds := manifests(t, map[string]string{"a/prod": "kind: A\n", "old": "kind: Old\n", "old/nested": "kind: N\n", "gone/app": "kind: G\n"})
	publishOK(t, options(t, repo, sha1), ds)

	// Someone adds files of their own to the branch.
	work := filepath.Join(t.TempDir(), "work")
	gitOut(t, "clone", "-q", "-b", "env/prod", repo, work)
	for f, c := range map[string]string{"README.md": "hello\n", "old/nested/NOTES": "mine\n"} {
		os.MkdirAll(filepath.Dir(filepath.Join(work, f)), 0o755)
		os.WriteFile(filepath.Join(work, f), []byte(c), 0o644)
	}
	gitOut(t, "-C", work, "add", ".")
	gitOut(t, "-C", work, "commit", "-q", "-m", "notes")
	gitOut(t, "-C", work, "push", "-q", "origin", "env/prod")

	var keep []Deployment
	for _, d := range ds {
		if d.Path == "a/prod" {
			keep = append(keep, d)
		}
	}
	res := publishOK(t, options(t, repo, sha1), keep)
	want := map[string]string{
		"a/prod/manifest.yaml": "kind: A\n",
		"README.md":            "hello\n",
		"old/nested/NOTES":     "mine\n",
		"hydrator.metadata":    golden(t, "one.metadata"),
	}
	if got := tree(t, repo, "env/prod"); !reflect.DeepEqual(got, want) {
		t.Fatalf("branch after removing deployments old, old/nested and gone/app:\n got %q\nwant %q", got, want)
	}
	wantChanges := []Change{{'D', "gone/app/manifest.yaml"}, {'M', "hydrator.metadata"}, {'D', "old/manifest.yaml"}, {'D', "old/nested/manifest.yaml"}}
	if !reflect.DeepEqual(res.Changes, wantChanges) {
		t.Errorf("changes: got %q, want %q", res.Changes, wantChanges)
	}

	if out := gitOut(t, "--git-dir="+repo, "ls-tree", "-d", "env/prod", "gone"); out != "" {
		t.Errorf("the directory of deployment gone/app is still in the branch: %s", out)
	}
}

// TestPublishNext: with Next, the commit goes to BRANCH-next, which starts
// from BRANCH; when BRANCH already holds the manifests, -next is BRANCH.
func TestPublishNext(t *testing.T) {
	needGit(t)
	repo := newBare(t)
	ds := manifests(t, map[string]string{"prod": "kind: A\n"})
	publishOK(t, options(t, repo, sha1), ds)
	base := Result{Commit: pushOther(t, repo, "env/prod", "README")} // history an orphan would lack

	o := options(t, "file://"+repo, sha1) // and over file://
	o.Next = true
	same := publishOK(t, o, ds)
	if same.Branch != "env/prod-next" || same.Commit != base.Commit || gitOut(t, "--git-dir="+repo, "rev-parse", "env/prod-next") != base.Commit {
		t.Fatalf("-next of unchanged manifests: %+v; want env/prod-next at %s", same, base.Commit)
	}

	os.WriteFile(ds[0].Manifests, []byte("kind: B\n"), 0o644)
	o.DrySha = sha2
	next := publishOK(t, o, ds)
	if !next.Changed || gitOut(t, "--git-dir="+repo, "rev-parse", "env/prod-next^") != base.Commit {
		t.Fatalf("-next publish: %+v; want a child of %s", next, base.Commit)
	}
	if got := gitOut(t, "--git-dir="+repo, "rev-parse", "env/prod"); got != base.Commit {
		t.Errorf("env/prod moved to %s: Next must leave it", got)
	}
}

// TestPublishSkipMetadataOnly: a new source commit with the same manifests
// makes no commit under SkipMetadataOnly, and one without it.
func TestPublishSkipMetadataOnly(t *testing.T) {
	needGit(t)
	repo := newBare(t)
	ds := manifests(t, map[string]string{"prod": "kind: A\n"})
	first := publishOK(t, options(t, repo, sha1), ds)
	o := options(t, repo, sha2)
	o.SkipMetadataOnly = true
	res := publishOK(t, o, ds)
	if res.Changed || !res.MetadataOnly || res.Commit != first.Commit {
		t.Fatalf("metadata-only change under SkipMetadataOnly: %+v", res)
	}
	res = publishOK(t, options(t, repo, sha2), ds)
	if !res.Changed || !reflect.DeepEqual(res.Changes, []Change{{'M', "hydrator.metadata"}}) {
		t.Fatalf("metadata-only change: %+v", res)
	}
}

// TestPublishDeterministic: the same inputs give the same tree in two
// repositories, whatever order the deployments come in.
func TestPublishDeterministic(t *testing.T) {
	needGit(t)
	ds := manifests(t, map[string]string{"a": "kind: A\n", "b/c": "kind: C\n"})
	rev := []Deployment{ds[1], ds[0]}
	r1, r2 := newBare(t), newBare(t)
	publishOK(t, options(t, r1, sha1), ds)
	publishOK(t, options(t, r2, sha1), rev)
	t1 := gitOut(t, "--git-dir="+r1, "rev-parse", "env/prod^{tree}")
	if t2 := gitOut(t, "--git-dir="+r2, "rev-parse", "env/prod^{tree}"); t1 != t2 {
		t.Errorf("trees differ: %s and %s", t1, t2)
	}
}

// TestPublishOverGitProtocol pushes to git daemon on loopback (git://).
func TestPublishOverGitProtocol(t *testing.T) {
	needGit(t)
	repo := newBare(t)
	url := "git://" + gitDaemon(t, filepath.Dir(repo)) + "/remote.git"
	ds := manifests(t, map[string]string{"prod": "kind: A\n"})
	first := publishOK(t, options(t, url, sha1), ds)
	if !first.Changed || gitOut(t, "--git-dir="+repo, "rev-parse", "env/prod") != first.Commit {
		t.Fatalf("publish over git://: %+v", first)
	}
	if res := publishOK(t, options(t, url, sha1), ds); res.Changed {
		t.Fatalf("unchanged publish over git://: %+v", res)
	}
	os.WriteFile(ds[0].Manifests, []byte("kind: B\n"), 0o644)
	second := publishOK(t, options(t, url, sha2), ds)
	if !second.Changed || gitOut(t, "--git-dir="+repo, "rev-parse", "env/prod^") != first.Commit {
		t.Fatalf("second publish over git://: %+v", second)
	}
	if got := tree(t, repo, "env/prod")["prod/manifest.yaml"]; got != "kind: B\n" {
		t.Errorf("prod/manifest.yaml over git://: %q", got)
	}
}

// gitDaemon serves base over the git protocol on a free loopback port until
// the test ends, and returns host:port.
func gitDaemon(t *testing.T, base string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("git", "daemon", "--export-all", "--enable=receive-pack", "--reuseaddr",
		"--listen=127.0.0.1", fmt.Sprintf("--port=%d", port), "--base-path="+base, base)
	cmd.Env = testEnv(t)
	if err := cmd.Start(); err != nil {
		t.Fatalf("git daemon: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("git daemon does not listen on %s", addr)
		}
	}
}

// pushOther commits a file to branch of repo from another clone, as another
// writer would.
func pushOther(t *testing.T, repo, branch, file string) string {
	work := filepath.Join(t.TempDir(), "other")
	gitOut(t, "clone", "-q", "-b", branch, repo, work)
	os.WriteFile(filepath.Join(work, file), []byte(file+"\n"), 0o644)
	gitOut(t, "-C", work, "add", file)
	gitOut(t, "-C", work, "commit", "-q", "-m", file)
	gitOut(t, "-C", work, "push", "-q", "origin", branch)
	return gitOut(t, "-C", work, "rev-parse", "HEAD")
}

// TestPublishBranchMoved: a push since the fetch makes the publish start
// again from the new tip; twice, it fails and pushes nothing.
func TestPublishBranchMoved(t *testing.T) {
	needGit(t)
	repo := newBare(t)
	ds := manifests(t, map[string]string{"prod": "kind: A\n"})
	publishOK(t, options(t, repo, sha1), ds)
	os.WriteFile(ds[0].Manifests, []byte("kind: B\n"), 0o644)

	o := options(t, repo, sha2)
	var other string
	o.beforePush = func(n int) {
		if n == 1 {
			other = pushOther(t, repo, "env/prod", "X")
		}
	}
	res := publishOK(t, o, ds)
	if gitOut(t, "--git-dir="+repo, "rev-parse", "env/prod^") != other || tree(t, repo, "env/prod")["X"] != "X\n" {
		t.Fatalf("after a concurrent push: %+v; want a child of %s keeping its file", res, other)
	}

	o = options(t, repo, sha1)
	o.beforePush = func(n int) { other = pushOther(t, repo, "env/prod", fmt.Sprintf("Y%d", n)) }
	_, err := Publish(context.Background(), o, ds[:0:0])
	if err == nil || !strings.Contains(err.Error(), "no deployments") {
		t.Fatalf("no deployments: %v", err)
	}
	os.WriteFile(ds[0].Manifests, []byte("kind: C\n"), 0o644)
	_, err = Publish(context.Background(), o, ds)
	if !errors.Is(err, ErrMoved) {
		t.Fatalf("moved twice: got %v, want ErrMoved", err)
	}
	if tip := gitOut(t, "--git-dir="+repo, "rev-parse", "env/prod"); tip != other {
		t.Errorf("after a failed publish the branch is at %s, want the other writer's %s", tip, other)
	}
}

// TestPublishErrors: clear errors, and the remote untouched.
func TestPublishErrors(t *testing.T) {
	needGit(t)
	repo := newBare(t)
	ds := manifests(t, map[string]string{"prod": "kind: A\n"})
	first := publishOK(t, options(t, repo, sha1), ds)
	os.WriteFile(ds[0].Manifests, []byte("kind: B\n"), 0o644)

	l, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := l.Addr().String()
	l.Close()

	// A hook that refuses every push, as a protected branch does.
	refusing := newBare(t)
	gitOut(t, "--git-dir="+refusing, "fetch", "-q", repo, "env/prod:env/prod")
	hook := filepath.Join(refusing, "hooks", "pre-receive")
	os.WriteFile(hook, []byte("#!/bin/sh\necho 'protected branch' >&2\nexit 1\n"), 0o755)

	// A file of the user's where a deployment's directory would go.
	withNotes := newBare(t)
	publishOK(t, options(t, withNotes, sha1), ds)
	notes := pushOther(t, withNotes, "env/prod", "notes")

	for _, tc := range []struct {
		name string
		edit func(*Options)
		ds   []Deployment
		want string
	}{
		{"unreachable", func(o *Options) { o.Repo = "git://" + closed + "/x.git" }, ds, "cannot reach the repository git://" + closed + "/x.git"},
		{"no repository", func(o *Options) { o.Repo = filepath.Join(t.TempDir(), "nope") }, ds, "cannot reach the repository"},
		{"bad branch", func(o *Options) { o.Branch = "env..prod" }, ds, `--branch "env..prod": not a valid branch name`},
		{"short sha", func(o *Options) { o.DrySha = "0123abc" }, ds, `source commit "0123abc": want a full commit SHA`},
		{"bad path", nil, []Deployment{{Path: "../up", Manifests: ds[0].Manifests}}, `deployment ../up=`},
		{"dot git", nil, []Deployment{{Path: "a/.git/b", Manifests: ds[0].Manifests}}, "has a .git component"},
		{"twice", nil, []Deployment{ds[0], ds[0]}, "deployment path prod is given twice"},
		{"missing file", nil, []Deployment{{Path: "prod", Manifests: "/nonexistent/m.yaml"}}, "deployment prod: manifests file /nonexistent/m.yaml: no such file or directory"},
		{"directory", nil, []Deployment{{Path: "prod", Manifests: t.TempDir()}}, "is not a regular file"},
		{"refused push", func(o *Options) { o.Repo = "file://" + refusing }, ds, "pushing to env/prod of file://" + refusing + " (nothing was pushed): git push:"},
		{"file in the way", func(o *Options) { o.Repo = withNotes }, []Deployment{{Path: "notes/x", Manifests: ds[0].Manifests}}, "laying out the deployments on env/prod of " + withNotes + ": notes is a file in the branch, not krm's: move it, or publish notes/x elsewhere"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := options(t, repo, sha2)
			if tc.edit != nil {
				tc.edit(&o)
			}
			o.TempDir = t.TempDir()
			_, err := Publish(context.Background(), o, tc.ds)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), o.TempDir) || strings.Contains(err.Error(), "krm-publish-") {
				t.Errorf("the error names the temporary repository: %v", err)
			}
			if left, _ := os.ReadDir(o.TempDir); len(left) != 0 {
				t.Errorf("left behind in the temporary directory: %v", left)
			}
		})
	}
	if tip := gitOut(t, "--git-dir="+repo, "rev-parse", "env/prod"); tip != first.Commit {
		t.Errorf("a failed publish moved env/prod to %s", tip)
	}
	if tip := gitOut(t, "--git-dir="+refusing, "rev-parse", "env/prod"); tip != first.Commit {
		t.Errorf("a refused publish moved env/prod to %s", tip)
	}
	if tip := gitOut(t, "--git-dir="+withNotes, "rev-parse", "env/prod"); tip != notes {
		t.Errorf("a failed layout moved env/prod to %s", tip)
	}
}

// TestPublishSilentServer: a server that accepts and never answers costs
// the context's time, not more.
func TestPublishSilentServer(t *testing.T) {
	needGit(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, silent, until the test ends
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	_, err = Publish(ctx, options(t, "git://"+l.Addr().String()+"/x.git", sha1), manifests(t, map[string]string{"prod": "kind: A\n"}))
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "cannot reach the repository git://"+l.Addr().String()) {
		t.Fatalf("got %v, want the deadline naming the repository", err)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("took %v after a 1s deadline", d)
	}
}

func TestResolveRepo(t *testing.T) {
	for _, tc := range [][3]string{
		{"out/repo.git", "/home/u", "/home/u/out/repo.git"},
		{"/abs/repo.git", "/home/u", "/abs/repo.git"},
		{"file:///r.git", "/home/u", "file:///r.git"},
		{"git@github.com:o/r.git", "/home/u", "git@github.com:o/r.git"},
		{"rel", "", "rel"},
	} {
		if got := ResolveRepo(tc[0], tc[1]); got != tc[2] {
			t.Errorf("ResolveRepo(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}

func TestIdentityFrom(t *testing.T) {
	env := []string{"GIT_AUTHOR_NAME=Env", "GIT_COMMITTER_EMAIL=c@example.com"}
	if got := IdentityFrom("", "", env, "AUTHOR", DefaultIdentity); got != (Identity{"Env", DefaultIdentity.Email}) {
		t.Errorf("author from env: %+v", got)
	}
	if got := IdentityFrom("Flag", "f@example.com", env, "AUTHOR", DefaultIdentity); got != (Identity{"Flag", "f@example.com"}) {
		t.Errorf("author from flags: %+v", got)
	}
	author := Identity{"A", "a@example.com"}
	if got := IdentityFrom("", "", env, "COMMITTER", author); got != (Identity{"A", "c@example.com"}) {
		t.Errorf("committer: %+v", got)
	}
}
