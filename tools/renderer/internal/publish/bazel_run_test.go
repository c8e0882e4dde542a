//go:build bazel

package publish

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

// TestBazelRunPublish builds //examples/deploy:publish with the Bazel of
// bazeltest.Binary, runs the script `bazel run --script_path` writes against a bare
// repository, twice, and checks the branch: the rendered manifests byte for
// byte, hydrator.metadata naming the checkout's HEAD, no second commit.
// Outside Bazel (it runs bazel): go test -tags bazel -run TestBazelRunPublish ./tools/renderer/internal/publish/
func TestBazelRunPublish(t *testing.T) {
	needGit(t)
	root := bazeltest.Root(t)
	head := gitOut(t, "-C", root, "rev-parse", "HEAD")
	script := filepath.Join(t.TempDir(), "publish.sh")
	bazeltest.New(t, root, "").Must(t, "run", "--script_path="+script, "//examples/deploy:publish")
	repo := newBare(t)
	run := func() string {
		// --allow-dirty: a developer's checkout may have edits; the drySha is HEAD either way.
		cmd := exec.Command(script, "--repo", repo, "--branch", "env/prod", "--allow-dirty")
		cmd.Env = testEnv(t)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
		return string(out)
	}
	first := run()
	if !strings.Contains(first, "source commit "+head+" (HEAD of "+root+")") || !strings.Contains(first, "pushed env/prod: commit ") {
		t.Fatalf("first run:\n%s", first)
	}
	files := tree(t, repo, "env/prod")
	for _, name := range []string{"prod", "staging"} {
		rendered, err := os.ReadFile(filepath.Join(root, "bazel-bin/examples/deploy", name+"_manifests.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		// tree() trims what git show prints and adds one newline back.
		if got := files["examples/deploy/"+name+"/manifest.yaml"]; strings.TrimRight(got, "\n") != strings.TrimRight(string(rendered), "\n") {
			t.Errorf("examples/deploy/%s/manifest.yaml differs from bazel-bin/examples/deploy/%s_manifests.yaml", name, name)
		}
	}
	if meta := files["hydrator.metadata"]; !strings.Contains(meta, `"drySha": "`+head+`"`) ||
		!strings.Contains(meta, `"bazel build //examples/deploy:prod //examples/deploy:staging"`) {
		t.Errorf("hydrator.metadata:\n%s", meta)
	}
	if second := run(); !strings.Contains(second, "no change: env/prod") || commits(t, repo, "env/prod") != 1 {
		t.Errorf("second run (%d commits):\n%s", commits(t, repo, "env/prod"), second)
	}
}
