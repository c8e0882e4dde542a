package bazeltest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
)

// Bazel runs Bazel commands in one workspace. Commands of one Bazel share its server (one
// output base); tests that build in several workspaces or output bases use one Bazel each.
type Bazel struct {
	// Binary is the Bazel to run (Binary(root)).
	Binary string
	// Dir is the workspace (where Bazel runs).
	Dir string
	// OutputBase is the --output_base startup flag; empty: Bazel's default for Dir.
	OutputBase string
	// Startup holds more startup flags (e.g. --max_idle_secs=600).
	Startup []string
	// Env holds more environment variables (KEY=VALUE) for Bazel's client.
	Env []string
	// Umask, if set (e.g. "027"), is the umask of Bazel's client (a server it starts
	// inherits it).
	Umask string
}

// New is a Bazel of the repository root's Binary in dir, with outputBase (empty: Bazel's
// default for dir). Its server stops when the test ends, unless dir is the repository
// itself (whose output base the next stage shares).
func New(t T, dir, outputBase string) *Bazel {
	t.Helper()
	root := Root(t)
	b := &Bazel{Binary: Binary(root), Dir: dir, OutputBase: outputBase}
	if outputBase != "" {
		b.Startup = []string{"--max_idle_secs=600"}
	}
	if dir != root {
		t.Cleanup(b.Shutdown)
	}
	return b
}

// Result is what a Bazel command did.
type Result struct {
	Args           []string
	Stdout, Stderr string
	// ExitCode is Bazel's exit code (1: build failed, 3: tests failed, ...).
	ExitCode int
}

// Output is stdout and stderr together (Bazel prints build errors to stderr, `bazel run`
// programs print to stdout).
func (r Result) Output() string { return r.Stdout + r.Stderr }

func (b *Bazel) command(args []string) *exec.Cmd {
	full := []string{}
	if b.OutputBase != "" {
		full = append(full, "--output_base="+b.OutputBase)
	}
	full = append(full, b.Startup...)
	full = append(full, args...)
	cmd := exec.Command(b.Binary, full...)
	if b.Umask != "" {
		// Go cannot set a child's umask alone: a shell sets it and execs Bazel.
		cmd = exec.Command("/bin/sh", append([]string{"-c", "umask " + b.Umask + " && exec \"$0\" \"$@\"", b.Binary}, full...)...)
	}
	cmd.Dir = b.Dir
	cmd.Env = append(append(os.Environ(), "GOTOOLCHAIN=local"), b.Env...)
	return cmd
}

// Run runs `bazel ARGS...` and returns what it did, whatever its exit code; it fails the
// test only when Bazel cannot be started.
func (b *Bazel) Run(t T, args ...string) Result {
	t.Helper()
	cmd := b.command(args)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := Result{Args: args, Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.ExitCode = exit.ExitCode()
	case err != nil:
		t.Fatalf("bazel %s: %v", strings.Join(args, " "), err)
	}
	return r
}

// Must runs `bazel ARGS...` and fails the test, showing the end of Bazel's output, unless
// it succeeds.
func (b *Bazel) Must(t T, args ...string) Result {
	t.Helper()
	r := b.Run(t, args...)
	if r.ExitCode != 0 {
		t.Fatalf("bazel %s (in %s) exited %d:\n%s", strings.Join(args, " "), b.Dir, r.ExitCode, tail(r.Output(), 60))
	}
	return r
}

// Info is `bazel info [FLAGS...] KEY` (e.g. bazel-bin, bazel-testlogs), trimmed.
func (b *Bazel) Info(t T, key string, flags ...string) string {
	t.Helper()
	return strings.TrimSpace(b.Must(t, append(append([]string{"info"}, flags...), key)...).Stdout)
}

// Shutdown stops the Bazel server of the output base (errors ignored: there may be none).
func (b *Bazel) Shutdown() {
	cmd := b.command([]string{"shutdown"})
	_ = cmd.Run()
}
