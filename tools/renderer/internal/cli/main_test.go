package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree writes files (relative path -> content) under a new directory.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var app = map[string]string{
	"base/kustomization.yaml":    "resources:\n- cm.yaml\n",
	"base/cm.yaml":               "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: \"1\"\n",
	"app/kustomization.yaml":     "namePrefix: p-\nresources:\n- ../base\n",
	"broken/kustomization.yaml":  "resources:\n- missing.yaml\n",
	"outside/kustomization.yaml": "resources:\n- ../base/cm.yaml\n",
}

const wantApp = "apiVersion: v1\ndata:\n  a: \"1\"\nkind: ConfigMap\nmetadata:\n  name: p-cm\n"

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, streams{stdin: os.Stdin, stdout: &o, stderr: &e})
	return code, o.String(), e.String()
}

func TestBuildToStdout(t *testing.T) {
	dir := tree(t, app)
	code, out, errOut := runCLI("build", filepath.Join(dir, "app"))
	if code != 0 || out != wantApp {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func TestBuildToFile(t *testing.T) {
	dir := tree(t, app)
	out := filepath.Join(dir, "out", "manifests.yaml")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"build", filepath.Join(dir, "app"), "-o", out},
		{"build", "--output", out, filepath.Join(dir, "app")},
		{"build", "--output=" + out, filepath.Join(dir, "app")},
	} {
		os.Remove(out)
		code, stdout, stderr := runCLI(args...)
		if code != 0 || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil || string(b) != wantApp {
			t.Errorf("%v: file = %q, %v", args, b, err)
		}
	}
	// Nothing but the output is left in its directory.
	es, _ := os.ReadDir(filepath.Dir(out))
	if len(es) != 1 {
		t.Errorf("output directory holds %d entries", len(es))
	}
}

func TestBuildFailureLeavesNoFile(t *testing.T) {
	dir := tree(t, app)
	out := filepath.Join(dir, "manifests.yaml")
	code, stdout, stderr := runCLI("build", filepath.Join(dir, "broken"), "-o", out)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if stdout != "" || !strings.HasPrefix(stderr, "Error: ") || !strings.Contains(stderr, "missing.yaml") {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output file exists after a failed build: %v", err)
	}
	// An output file from an earlier build is left alone.
	if err := os.WriteFile(out, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runCLI("build", filepath.Join(dir, "broken"), "-o", out); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if b, _ := os.ReadFile(out); string(b) != "old\n" {
		t.Errorf("failed build changed the earlier output: %q", b)
	}
	// Writing into a missing directory fails with 1.
	if code, _, stderr := runCLI("build", filepath.Join(dir, "app"), "-o", filepath.Join(dir, "nodir", "x.yaml")); code != 1 || !strings.HasPrefix(stderr, "Error: ") {
		t.Errorf("missing output directory: exit %d, stderr %q", code, stderr)
	}
}

func TestBuildFlags(t *testing.T) {
	dir := tree(t, app)
	for _, tc := range []struct {
		args     []string
		code     int
		stdout   string
		inStderr string
	}{
		{[]string{"build", filepath.Join(dir, "outside")}, 1, "", "is not in or below"},
		{[]string{"build", filepath.Join(dir, "outside"), "--load-restrictor", "LoadRestrictionsNone"}, 0, "apiVersion: v1\ndata:\n  a: \"1\"\nkind: ConfigMap\nmetadata:\n  name: cm\n", ""},
		{[]string{"build", filepath.Join(dir, "outside"), "--load-restrictor=bogus"}, 1, "", "unknown load restrictor"},
		{[]string{"build", "a", "b"}, 2, "", "at most one directory"},
		{[]string{"build", "--no-such-flag"}, 2, "", ""}, // message: see TestFlagErrorsArePrinted
		{[]string{"build", "--help"}, 0, "", "Usage: krm build DIR"},
		{[]string{"build", "-h"}, 0, "", "--load-restrictor"},
		{[]string{"build", filepath.Join(dir, "nowhere")}, 1, "", "must build at directory"},
	} {
		code, stdout, stderr := runCLI(tc.args...)
		if code != tc.code || stdout != tc.stdout || !strings.Contains(stderr, tc.inStderr) {
			t.Errorf("%v: exit %d (want %d), stdout %q, stderr %q (want %q)", tc.args, code, tc.code, stdout, stderr, tc.inStderr)
		}
	}
}

func TestBuildDefaultsToCurrentDirectory(t *testing.T) {
	dir := tree(t, app)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(filepath.Join(dir, "app")); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd) //nolint:errcheck
	if code, out, stderr := runCLI("build"); code != 0 || out != wantApp {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

func TestCommands(t *testing.T) {
	for _, tc := range []struct {
		args             []string
		code             int
		inStdout, inErr  string
		emptyOut, emptyE bool
	}{
		{args: nil, code: 2, inErr: "Usage:", emptyOut: true},
		{args: []string{"help"}, code: 0, inStdout: "krm build DIR", emptyE: true},
		{args: []string{"--help"}, code: 0, inStdout: "krm help [COMMAND]"},
		{args: []string{"-h"}, code: 0, inStdout: "Usage:"},
		{args: []string{"help", "build"}, code: 0, inErr: "Usage: krm build DIR", emptyOut: true},
		{args: []string{"help", "render"}, code: 0, inErr: "--snapshot", emptyOut: true},
		{args: []string{"help", "other"}, code: 0, inStdout: "Usage:"},
		{args: []string{"version"}, code: 0, inStdout: "krm dev (kustomize v5.8.2 compatible)\n", emptyE: true},
		{args: []string{"--version"}, code: 0, inStdout: "kustomize v5.8.2 compatible"},
		{args: []string{"frobnicate"}, code: 2, inErr: "Error: unknown command \"frobnicate\"", emptyOut: true},
		{args: []string{"Build"}, code: 2, inErr: "unknown command"},
	} {
		code, stdout, stderr := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(stdout, tc.inStdout) || !strings.Contains(stderr, tc.inErr) ||
			(tc.emptyOut && stdout != "") || (tc.emptyE && stderr != "") {
			t.Errorf("%v: exit %d (want %d)\nstdout %q\nstderr %q", tc.args, code, tc.code, stdout, stderr)
		}
	}
}

func TestRender(t *testing.T) {
	dir := tree(t, app)
	snapBase := filepath.Join(dir, "base.snapshot.yaml")
	snapApp := filepath.Join(dir, "app.snapshot.yaml")
	manifests := filepath.Join(dir, "app.yaml")
	if code, _, stderr := runCLI("render", filepath.Join(dir, "base"), "--snapshot", snapBase, "--label", "//base:base"); code != 0 {
		t.Fatalf("render base: %d %s", code, stderr)
	}
	b, err := os.ReadFile(snapBase)
	if err != nil || !strings.Contains(string(b), "kind: KustomizationSnapshot") || !strings.Contains(string(b), "label: //base:base") {
		t.Fatalf("base snapshot: %v\n%s", err, b)
	}
	// Hide the base's sources: the app must read the snapshot.
	if err := os.WriteFile(filepath.Join(dir, "base", "kustomization.yaml"), []byte("broken: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("render", filepath.Join(dir, "app"), "--snapshot", snapApp, "--manifests", manifests,
		"--dep", filepath.Join(dir, "base")+"="+snapBase, "--hermetic", "--label", "//app:app")
	if code != 0 || stdout != "" {
		t.Fatalf("render app: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if m, err := os.ReadFile(manifests); err != nil || string(m) != wantApp {
		t.Errorf("manifests = %q, %v", m, err)
	}
	if _, err := os.Stat(snapApp); err != nil {
		t.Errorf("no app snapshot: %v", err)
	}
	// Hermetic without the dep: exit 1, the label named, no files written.
	os.Remove(snapApp)
	os.Remove(manifests)
	code, _, stderr = runCLI("render", filepath.Join(dir, "app"), "--snapshot", snapApp, "--manifests", manifests, "--hermetic", "--label", "//app:app")
	if code != 1 || !strings.Contains(stderr, "//app:app") {
		t.Errorf("hermetic without dep: exit %d, stderr %q", code, stderr)
	}
	for _, f := range []string{snapApp, manifests} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s written by a failed render", f)
		}
	}
}

func TestRenderUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"render"},
		{"render", "dir"},
		{"render", "--snapshot", "s.yaml"},
		{"render", "a", "b", "--snapshot", "s.yaml"},
		{"render", "dir", "--snapshot", "s.yaml", "--dep", "nodelimiter"},
		{"render", "dir", "--snapshot", "s.yaml", "--dep", "=file"},
		{"render", "dir", "--snapshot", "s.yaml", "--dep", "dir="},
	} {
		if code, stdout, stderr := runCLI(args...); code != 2 || stdout != "" || stderr == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	if code, _, _ := runCLI("render", "--help"); code != 0 {
		t.Errorf("render --help: exit %d", code)
	}
}

// Regression: a flag parse error (unknown flag, missing value) exits 2 without a
// word: the flag sets use pflag.ContinueOnError, which leaves printing the
// error to the caller, and runBuild/runRender return 2 without printing it.
func TestFlagErrorsArePrinted(t *testing.T) {
	for _, args := range [][]string{
		{"build", "--no-such-flag"},
		{"build", "-o"},
		{"render", "--bogus"},
	} {
		code, _, stderr := runCLI(args...)
		if code != 2 || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the flag error", args, code, stderr)
		}
	}
}

// krm render --inputs reads only the declared files, and the rules' two
// actions (--snapshot alone, --manifests alone) give what krm build gives.
func TestRenderInputs(t *testing.T) {
	dir := tree(t, app)
	t.Chdir(dir)
	for name, content := range map[string]string{
		"base.params":   "base/kustomization.yaml\nbase/cm.yaml\n",
		"app.params":    "app/kustomization.yaml\n",
		"broken.params": "broken/kustomization.yaml\n",
		// A generated file: seen at its tree path, read from elsewhere.
		"gen.params": "gen/kustomization.yaml\tapp/kustomization.yaml\n",
	} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := runCLI("render", "base", "--snapshot", "base.krmsnap", "--inputs", "base.params", "--label", "//base:base"); code != 0 {
		t.Fatalf("render base: %d %s", code, stderr)
	}
	for _, d := range []string{"app", "gen"} {
		code, _, stderr := runCLI("render", d, "--manifests", d+".yaml", "--inputs", d+".params", "--dep", "base=base.krmsnap", "--label", "//"+d+":"+d)
		if code != 0 {
			t.Fatalf("render %s: %d %s", d, code, stderr)
		}
		if m, err := os.ReadFile(d + ".yaml"); err != nil || string(m) != wantApp {
			t.Errorf("%s manifests = %q, %v", d, m, err)
		}
		if _, err := os.Stat(d + ".krmsnap"); !os.IsNotExist(err) {
			t.Errorf("%s: a snapshot was written without --snapshot", d)
		}
	}
	// On disk, but not declared: missing, and the message is relative.
	code, _, stderr := runCLI("render", "app", "--snapshot", "app.krmsnap", "--inputs", "app.params", "--label", "//app:app")
	want := "'../base' (resources of app/kustomization.yaml) is not a declared input: add the krm_kustomization target of base to deps of //app:app"
	if code != 1 || !strings.Contains(stderr, want) || strings.Contains(stderr, dir) {
		t.Errorf("undeclared base: exit %d, stderr %q\nwant %s", code, stderr, want)
	}
	code, _, stderr = runCLI("render", "broken", "--snapshot", "b.krmsnap", "--inputs", "broken.params", "--label", "//broken:broken")
	want = "'missing.yaml' (resources of broken/kustomization.yaml) is not a declared input: add broken/missing.yaml to srcs of //broken:broken"
	if code != 1 || !strings.Contains(stderr, want) || strings.Contains(stderr, dir) {
		t.Errorf("undeclared file: exit %d, stderr %q\nwant %s", code, stderr, want)
	}
	if code, _, stderr := runCLI("render", "app", "--snapshot", "x", "--inputs", "none.params"); code != 1 || !strings.Contains(stderr, "--inputs") {
		t.Errorf("missing --inputs file: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI("render", "base", "--snapshot", "x", "--inputs", "base.params", "--kind", "Component"); code != 1 || !strings.Contains(stderr, `says kind = "Component"`) {
		t.Errorf("--kind: exit %d, stderr %q", code, stderr)
	}
}
