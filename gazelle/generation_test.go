package gazelle

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/bazelbuild/bazel-gazelle/testtools"
)

var gazelleBinary = flag.String("gazelle_binary", "", "gazelle binary holding the krm language (default: build one from bazel-gazelle's cmd/gazelle with the krm and Go languages)")

// TestGeneration runs gazelle on every testdata/<case>: BUILD.in files are the BUILD files
// before, BUILD.out after, expectedStderr.txt what gazelle logs (arguments.txt: its
// arguments). Update them with `UPDATE_SNAPSHOTS=1 go test ./gazelle -run TestGeneration`.
func TestGeneration(t *testing.T) {
	bin := *gazelleBinary
	if bin == "" {
		bin = buildGazelle(t)
	} else if !filepath.IsAbs(bin) {
		// $(rootpath) is relative to the workspace's runfiles root; bazel test starts
		// in this package's directory below it.
		abs, err := filepath.Abs(filepath.Join("..", bin))
		if err != nil {
			t.Fatal(err)
		}
		bin = abs
	}
	abs, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := os.ReadDir(abs)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("UPDATE_SNAPSHOTS") != "" && os.Getenv("BUILD_WORKSPACE_DIRECTORY") == "" {
		// testtools writes the updates relative to the workspace: the repository root.
		root, _ := filepath.Abs("..")
		t.Setenv("BUILD_WORKSPACE_DIRECTORY", root)
	}
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		args := &testtools.TestGazelleGenerationArgs{
			Name:                 c.Name(),
			TestDataPathAbsolute: filepath.Join(abs, c.Name()),
			TestDataPathRelative: "gazelle/testdata/" + c.Name(),
			GazelleBinaryPath:    bin,
		}
		setTimeout(args, 2*time.Minute)
		testtools.TestGazelleGenerationOnPath(t, args)
	}
}

// setTimeout sets args.Timeout where testtools has it. Gazelle v0.26.0 (go.mod, WORKSPACE)
// has no such field; newer releases (bzlmod's gazelle module) do, and kill gazelle at once
// when it is zero.
func setTimeout(args *testtools.TestGazelleGenerationArgs, d time.Duration) {
	if f := reflect.ValueOf(args).Elem().FieldByName("Timeout"); f.IsValid() && f.CanSet() {
		f.SetInt(int64(d))
	}
}

// buildGazelle builds a gazelle binary with the krm and Go languages, without Bazel.
func buildGazelle(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gazelle")
	if out, err := exec.Command("../dev/scripts/gazelle-binary.sh", bin).CombinedOutput(); err != nil {
		t.Fatalf("dev/scripts/gazelle-binary.sh: %v\n%s", err, out)
	}
	return bin
}
