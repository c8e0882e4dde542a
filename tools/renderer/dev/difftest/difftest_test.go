// The differential test itself; the case layout and modes are described in doc.go.

package difftest

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/dev/testtree"
	"github.com/rules-krm/rules_krm/internal/textdiff"
	_ "github.com/rules-krm/rules_krm/tools/renderer/internal/helm" // helmCharts cases
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
)

var (
	update = flag.Bool("update", false, "regenerate the goldens by running kustomize (krm is not run)")
	oracle = flag.Bool("oracle", false, "run kustomize and fail if it disagrees with the goldens (krm is not run)")
)

const (
	kustomizeVersion = "v5.8.2"
	kustomizeModule  = "sigs.k8s.io/kustomize/kustomize/v5"
	// helmVersion is the helm binary kustomize runs for --enable-helm cases:
	// the newest Helm v3 that builds with the machine's Go (README).
	helmVersion     = "v3.22.0"
	helmModule      = "helm.sh/helm/v3/cmd/helm"
	helmFlag        = "--enable-helm"
	casesDir        = "testdata/cases"
	treePlaceholder = "$TREE"

	fileTarget        = "target"
	fileArgs          = "args"
	fileExpectedYAML  = "expected.yaml"
	fileExpectedErr   = "expected.err"
	fileErrorContains = "error_contains"
	fileLevelsError   = "levels_error_contains"
)

var caseNameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// testCase is one directory of testdata/cases.
type testCase struct {
	name    string
	dir     string   // absolute path of the case directory
	tree    string   // absolute path of tree/
	target  string   // directory to build, relative to tree/
	args    []string // extra kustomize flags
	opts    render.Options
	wantOut []byte   // expected.yaml, nil when absent
	wantErr []byte   // expected.err, nil when absent
	errSubs []string // error_contains lines
}

func TestDifferential(t *testing.T) {
	cases := loadCases(t)
	if len(cases) == 0 {
		t.Fatalf("no cases found under %s", casesDir)
	}
	var kustomize string
	if *update || *oracle {
		kustomize = findKustomize(t)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			switch {
			case *update:
				updateGolden(t, kustomize, tc)
			case *oracle:
				checkOracle(t, kustomize, tc)
			default:
				checkKrm(t, tc)
			}
		})
	}
}

// checkKrm runs the engine under test and compares it with the goldens.
func checkKrm(t *testing.T, tc *testCase) {
	t.Helper()
	if err := tc.validate(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tc.tree, filepath.FromSlash(tc.target))
	got, err := render.Build(filesys.MakeFsOnDisk(), dir, tc.opts)
	if tc.wantOut != nil {
		if err != nil {
			t.Fatalf("krm build %s: unexpected error: %v\n(kustomize succeeds; want %s)", tc.target, err, rel(tc, fileExpectedYAML))
		}
		if !bytes.Equal(got, tc.wantOut) {
			t.Errorf("krm output differs from %s (-kustomize +krm):\n%s", rel(tc, fileExpectedYAML), textdiff.Unified(string(tc.wantOut), string(got), 3, 400))
		}
		return
	}
	if err == nil {
		t.Fatalf("krm build %s succeeded, want an error like kustomize's:\n%s\nkrm output:\n%s", tc.target, tc.wantErr, got)
	}
	msg := err.Error()
	for _, sub := range tc.errSubs {
		if !strings.Contains(msg, sub) {
			t.Errorf("krm error does not contain %q\nkrm error: %s\nkustomize stderr:\n%s", sub, msg, tc.wantErr)
		}
	}
}

// updateGolden runs kustomize and rewrites expected.yaml / expected.err.
func updateGolden(t *testing.T, kustomize string, tc *testCase) {
	t.Helper()
	res := runKustomize(t, kustomize, tc)
	yamlPath := filepath.Join(tc.dir, fileExpectedYAML)
	errPath := filepath.Join(tc.dir, fileExpectedErr)
	if res.ok {
		writeFile(t, yamlPath, res.stdout)
		removeFile(t, errPath)
		if len(tc.errSubs) > 0 {
			t.Errorf("kustomize succeeds but %s exists; remove it", rel(tc, fileErrorContains))
		}
		return
	}
	writeFile(t, errPath, res.stderr)
	removeFile(t, yamlPath)
	if len(tc.errSubs) == 0 {
		t.Errorf("kustomize fails; add %s with the substrings krm's error must contain:\n%s", rel(tc, fileErrorContains), res.stderr)
	}
	for _, sub := range tc.errSubs {
		if !strings.Contains(string(res.stderr), sub) {
			t.Logf("note: %q (from %s) is not in kustomize's stderr", sub, fileErrorContains)
		}
	}
}

// checkOracle runs kustomize and fails if it disagrees with the checked-in goldens.
func checkOracle(t *testing.T, kustomize string, tc *testCase) {
	t.Helper()
	if err := tc.validate(); err != nil {
		t.Fatal(err)
	}
	res := runKustomize(t, kustomize, tc)
	switch {
	case res.ok && tc.wantOut == nil:
		t.Fatalf("kustomize now succeeds but the golden is %s; run with -update", rel(tc, fileExpectedErr))
	case !res.ok && tc.wantErr == nil:
		t.Fatalf("kustomize now fails but the golden is %s; run with -update\nstderr:\n%s", rel(tc, fileExpectedYAML), res.stderr)
	case res.ok && !bytes.Equal(res.stdout, tc.wantOut):
		t.Errorf("kustomize stdout differs from %s (-golden +kustomize):\n%s", rel(tc, fileExpectedYAML), textdiff.Unified(string(tc.wantOut), string(res.stdout), 3, 400))
	case !res.ok && !bytes.Equal(res.stderr, tc.wantErr):
		t.Errorf("kustomize stderr differs from %s (-golden +kustomize):\n%s", rel(tc, fileExpectedErr), textdiff.Unified(string(tc.wantErr), string(res.stderr), 3, 400))
	}
}

type kustomizeResult struct {
	ok     bool
	stdout []byte
	stderr []byte // scrubbed by scrubStderr
}

func runKustomize(t *testing.T, kustomize string, tc *testCase) kustomizeResult {
	t.Helper()
	args := append([]string{"build", tc.target}, tc.args...)
	if tc.opts.Helm.Enabled {
		args = append(args, "--helm-command", findTool(t, "HELM", "helm", helmModule, helmVersion))
	}
	cmd := exec.Command(kustomize, args...)
	cmd.Dir = tc.tree
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("running %s %s: %v", kustomize, strings.Join(args, " "), err)
	}
	res := kustomizeResult{ok: err == nil, stdout: stdout.Bytes(), stderr: scrubStderr(stderr.Bytes(), tc.tree)}
	if res.ok && len(res.stdout) > 0 && containsTreePath(res.stdout, tc.tree) {
		t.Fatalf("kustomize stdout contains the absolute tree path %s; the golden would not be portable", tc.tree)
	}
	return res
}

// treePaths returns the spellings of the tree's absolute path kustomize may print.
func treePaths(tree string) []string {
	paths := []string{tree}
	if real, err := filepath.EvalSymlinks(tree); err == nil && real != tree {
		paths = append(paths, real)
	}
	// Longest first so that a path is never half-replaced by a shorter one.
	sort.Slice(paths, func(i, j int) bool { return len(paths[i]) > len(paths[j]) })
	return paths
}

// pointerRE matches the Go pointer values some kustomize errors print (e.g.
// "merging from generator &{0xc000123456 <nil>}"); they change from run to run.
var pointerRE = regexp.MustCompile(`0x[0-9a-f]{8,}`)

// helmTmpRE matches the temporary directory kustomize makes for helm (its
// values file and HELM_CONFIG_HOME live there) and the pinned helm's path.
var helmTmpRE = regexp.MustCompile(`/\S*/kustomize-helm-[0-9]+|/\S*/\.bin/helm\b`)

// scrubStderr makes kustomize's stderr reproducible: the tree's absolute path
// becomes $TREE and pointer values become 0xADDR.
func scrubStderr(b []byte, tree string) []byte {
	for _, p := range treePaths(tree) {
		b = bytes.ReplaceAll(b, []byte(p), []byte(treePlaceholder))
	}
	b = helmTmpRE.ReplaceAllFunc(b, func(m []byte) []byte {
		if bytes.HasSuffix(m, []byte("/helm")) {
			return []byte("$HELM")
		}
		return []byte("$HELMTMP")
	})
	return pointerRE.ReplaceAll(b, []byte("0xADDR"))
}

func containsTreePath(b []byte, tree string) bool {
	for _, p := range treePaths(tree) {
		if bytes.Contains(b, []byte(p)) {
			return true
		}
	}
	return false
}

// findKustomize locates the oracle, installing it into <repo root>/.bin if needed.
func findKustomize(t *testing.T) string {
	return findTool(t, "KUSTOMIZE", "kustomize", kustomizeModule, kustomizeVersion)
}

// findTool returns $env, else <repo root>/.bin/name, installed from module
// at version with `go install` when missing.
func findTool(t *testing.T, env, name, module, version string) string {
	t.Helper()
	if k := os.Getenv(env); k != "" {
		if _, err := os.Stat(k); err != nil {
			t.Fatalf("$%s=%s: %v", env, k, err)
		}
		return k
	}
	root := repoRoot(t)
	bin := filepath.Join(root, ".bin")
	k := filepath.Join(bin, name)
	if _, err := os.Stat(k); err == nil {
		return k
	}
	t.Logf("installing %s %s into %s", name, version, bin)
	cmd := exec.Command("go", "install", module+"@"+version)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("installing %s: %v\n%s", name, err, out)
	}
	return k
}

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("cannot find the repository root (no go.mod above the test)")
		}
		dir = parent
	}
}

func loadCases(t *testing.T) []*testCase {
	t.Helper()
	base, err := filepath.Abs(casesDir)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(base)
	if err != nil {
		t.Fatal(err)
	}
	var cases []*testCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		tc, err := loadCase(t, base, e.Name())
		if err != nil {
			t.Errorf("case %s: %v", e.Name(), err)
			continue
		}
		cases = append(cases, tc)
	}
	return cases
}

func loadCase(t *testing.T, base, name string) (*testCase, error) {
	if !caseNameRE.MatchString(name) {
		return nil, fmt.Errorf("case name must be kebab-case")
	}
	tc := &testCase{name: name, dir: filepath.Join(base, name), target: "."}
	tc.tree = filepath.Join(tc.dir, "tree")
	if fi, err := os.Stat(tc.tree); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("missing tree/ directory")
	}
	tc.tree = testtree.Real(t, tc.tree)
	if b, ok, err := readOptional(filepath.Join(tc.dir, fileTarget)); err != nil {
		return nil, err
	} else if ok {
		if tc.target = strings.TrimSpace(string(b)); tc.target == "" {
			tc.target = "."
		}
	}
	if b, ok, err := readOptional(filepath.Join(tc.dir, fileArgs)); err != nil {
		return nil, err
	} else if ok {
		tc.args = strings.Fields(string(b))
		if err := tc.parseArgs(); err != nil {
			return nil, err
		}
	}
	var err error
	if tc.wantOut, _, err = readOptional(filepath.Join(tc.dir, fileExpectedYAML)); err != nil {
		return nil, err
	}
	if tc.wantErr, _, err = readOptional(filepath.Join(tc.dir, fileExpectedErr)); err != nil {
		return nil, err
	}
	if b, ok, err := readOptional(filepath.Join(tc.dir, fileErrorContains)); err != nil {
		return nil, err
	} else if ok {
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimRight(line, "\r")
			if strings.TrimSpace(line) == "" {
				continue
			}
			tc.errSubs = append(tc.errSubs, strings.ReplaceAll(line, treePlaceholder, tc.tree))
		}
	}
	return tc, nil
}

// parseArgs maps the kustomize flags of the args file onto render.Options.
func (tc *testCase) parseArgs() error {
	for i := 0; i < len(tc.args); i++ {
		a := tc.args[i]
		var val string
		switch {
		case a == helmFlag:
			tc.opts.Helm.Enabled = true
			continue
		case a == "--load-restrictor" || a == "--load_restrictor":
			if i+1 >= len(tc.args) {
				return fmt.Errorf("args: %s needs a value", a)
			}
			i++
			val = tc.args[i]
		case strings.HasPrefix(a, "--load-restrictor="), strings.HasPrefix(a, "--load_restrictor="):
			val = a[strings.Index(a, "=")+1:]
		default:
			return fmt.Errorf("args: unsupported flag %q", a)
		}
		switch val {
		case render.LoadRestrictionsRootOnly, render.LoadRestrictionsNone:
			tc.opts.LoadRestrictor = val
		default:
			return fmt.Errorf("args: unknown load restrictor %q", val)
		}
	}
	return nil
}

// validate checks that the case has exactly one golden and, for errors, substrings.
func (tc *testCase) validate() error {
	switch {
	case tc.wantOut == nil && tc.wantErr == nil:
		return fmt.Errorf("no golden: run with -update to create %s or %s", fileExpectedYAML, fileExpectedErr)
	case tc.wantOut != nil && tc.wantErr != nil:
		return fmt.Errorf("both %s and %s exist; run with -update", fileExpectedYAML, fileExpectedErr)
	case tc.wantErr != nil && len(tc.errSubs) == 0:
		return fmt.Errorf("error case without %s", fileErrorContains)
	case tc.wantOut != nil && len(tc.errSubs) > 0:
		return fmt.Errorf("success case with %s", fileErrorContains)
	}
	return nil
}

func rel(tc *testCase, file string) string {
	return filepath.ToSlash(filepath.Join(casesDir, tc.name, file))
}

func readOptional(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if b == nil {
		b = []byte{}
	}
	return b, true, nil
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func removeFile(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
}
