package publish

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkout is a git checkout with one commit, and that commit.
func checkout(t *testing.T) (string, string) {
	dir := filepath.Join(t.TempDir(), "src")
	gitOut(t, "init", "-q", dir)
	os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources: []\n"), 0o644)
	gitOut(t, "-C", dir, "add", ".")
	gitOut(t, "-C", dir, "commit", "-q", "-m", "src")
	return dir, gitOut(t, "-C", dir, "rev-parse", "HEAD")
}

func TestSourceResolve(t *testing.T) {
	needGit(t)
	dir, head := checkout(t)
	status := map[string]string{"STABLE_GIT_COMMIT": sha2, "STABLE_SHORT": "89abcde"}
	for _, tc := range []struct {
		name      string
		src       Source
		sha, from string
	}{
		{"flag first", Source{Commit: sha1, Status: status, Key: "STABLE_GIT_COMMIT", Dir: dir}, sha1, "--source-commit"},
		{"status next", Source{Status: status, Key: "STABLE_GIT_COMMIT", Dir: dir}, sha2, "workspace status STABLE_GIT_COMMIT"},
		{"checkout last", Source{Status: status, Key: "STABLE_OTHER", Dir: dir}, head, "HEAD of " + dir},
		{"checkout subdirectory", Source{Dir: dir + "/."}, head, "HEAD of " + dir},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.src.Git, tc.src.Env = "git", testEnv(t)
			sha, from, err := tc.src.Resolve(context.Background())
			if err != nil || sha != tc.sha || from != tc.from {
				t.Fatalf("Resolve = %s, %q, %v; want %s, %q", sha, from, err, tc.sha, tc.from)
			}
		})
	}
}

func TestSourceResolveErrors(t *testing.T) {
	needGit(t)
	dirty, _ := checkout(t)
	os.WriteFile(filepath.Join(dirty, "kustomization.yaml"), []byte("resources: [a.yaml]\n"), 0o644)
	empty := filepath.Join(t.TempDir(), "empty")
	gitOut(t, "init", "-q", empty)
	for _, tc := range []struct {
		name string
		src  Source
		want string
	}{
		{"short flag", Source{Commit: "0123abc"}, `--source-commit "0123abc": want a full commit SHA`},
		{"upper case", Source{Commit: strings.ToUpper(sha1)}, "want a full commit SHA"},
		{"short status", Source{Status: map[string]string{"K": "abc"}, Key: "K"}, `workspace status key K is "abc": want a full commit SHA`},
		{"nothing", Source{Key: "K"}, "no source commit: pass --source-commit SHA"},
		{"not a checkout", Source{Dir: t.TempDir()}, "not a git checkout (pass --source-commit SHA)"},
		{"no commit", Source{Dir: empty}, "has no commit"},
		{"dirty", Source{Dir: dirty}, "has uncommitted changes (M kustomization.yaml ...)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.src.Git, tc.src.Env = "git", append(testEnv(t), "GIT_CEILING_DIRECTORIES="+filepath.Dir(t.TempDir()))
			_, _, err := tc.src.Resolve(context.Background())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	src := Source{Dir: dirty, AllowDirty: true, Git: "git", Env: testEnv(t)}
	if _, _, err := src.Resolve(context.Background()); err != nil {
		t.Errorf("AllowDirty: %v", err)
	}
}

// TestGitErrorHidesTemporaryRepository: git's messages name the temporary
// repository; krm's errors do not.
func TestGitErrorHidesTemporaryRepository(t *testing.T) {
	needGit(t)
	tmp := filepath.Join(t.TempDir(), "krm-publish-123")
	g := &git{exe: "git", dir: tmp, hide: tmp, env: testEnv(t)}
	_, err := g.run(context.Background(), nil, "rev-parse", "HEAD")
	if err == nil || strings.Contains(err.Error(), tmp) || !strings.Contains(err.Error(), "<temporary repository>") {
		t.Fatalf("got %v, want git's error naming <temporary repository>", err)
	}
}
