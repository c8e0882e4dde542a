package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rules-krm/rules_krm/dev/testing/kubeconfig"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/worker"
)

// childEnv makes the test binary act as krm in the directory it names
// (TestMain), so that the hostile cases run krm as a process whose time and
// memory can be measured. (Under Bazel the test binary changes to its
// runfiles directory as it starts, hence the directory in the variable.)
const childEnv = "KRM_HOSTILE_CHILD_DIR"

func TestMain(m *testing.M) {
	kubeconfig.ServeExecPlugin() // the exec credential plugin of credentials_cli_test.go
	if dir := os.Getenv(childEnv); dir != "" {
		if err := os.Chdir(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(Main(os.Args[1:], nil))
	}
	os.Exit(m.Run())
}

// hostileCase is one case of testdata/hostile/*.txt. A file holds cases,
// each starting with "### NAME", then header lines, then the tree:
//
//	args: build app            krm's arguments ($TREE is the tree)
//	error: TEXT                stderr must contain TEXT ($TREE expanded); repeatable
//	exit: N                    the exit status (default 1)
//	seconds: N                 wall-clock bound (default 60)
//	maxrss: N                  peak memory bound in MiB (default 1024)
//	stdin: closed              run with stdin closed
//	-- PATH [+x] [*N]          a file (executable with +x; its lines N times with *N); its lines follow
//	-> PATH TARGET             a symbolic link
//
// Every case must fail with a short message on stderr (no panic, no
// goroutine dump), within its bounds, and leave the tree as it was.
type hostileCase struct {
	name, file string
	args       []string
	errors     []string
	exit       int
	seconds    int
	maxRSS     int64
	closeStdin bool
	files      map[string]string
	exe        map[string]bool
	repeat     map[string]int
	links      map[string]string
}

func parseHostile(t *testing.T, file string) []*hostileCase {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var cases []*hostileCase
	var c *hostileCase
	var cur string
	for i, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "### "):
			c = &hostileCase{name: strings.TrimPrefix(line, "### "), file: file, exit: 1, seconds: 60, maxRSS: 1024,
				files: map[string]string{}, exe: map[string]bool{}, repeat: map[string]int{}, links: map[string]string{}}
			cases, cur = append(cases, c), ""
		case c == nil:
		case strings.HasPrefix(line, "-- "):
			f := strings.Fields(strings.TrimPrefix(line, "-- "))
			cur = f[0]
			c.files[cur] = ""
			for _, opt := range f[1:] {
				switch {
				case opt == "+x":
					c.exe[cur] = true
				case strings.HasPrefix(opt, "*"):
					c.repeat[cur], err = strconv.Atoi(opt[1:])
				default:
					t.Fatalf("%s:%d: unknown file option %q", file, i+1, opt)
				}
			}
			if err != nil {
				t.Fatalf("%s:%d: %v", file, i+1, err)
			}
		case strings.HasPrefix(line, "-> "):
			f := strings.Fields(strings.TrimPrefix(line, "-> "))
			c.links[f[0]], cur = f[1], ""
		case cur != "":
			c.files[cur] += line + "\n"
		default:
			key, val, _ := strings.Cut(line, ": ")
			switch key {
			case "args":
				c.args = strings.Fields(val)
			case "error":
				c.errors = append(c.errors, val)
			case "exit":
				c.exit, err = strconv.Atoi(val)
			case "seconds":
				c.seconds, err = strconv.Atoi(val)
			case "maxrss":
				c.maxRSS, err = strconv.ParseInt(val, 10, 64)
			case "stdin":
				c.closeStdin = val == "closed"
			case "", "#":
			default:
				if !strings.HasPrefix(line, "#") {
					t.Fatalf("%s:%d: unknown header %q", file, i+1, line)
				}
			}
			if err != nil {
				t.Fatalf("%s:%d: %v", file, i+1, err)
			}
		}
	}
	return cases
}

func (c *hostileCase) makeTree(t *testing.T) string {
	t.Helper()
	tree := t.TempDir()
	for p, content := range c.files {
		full := filepath.Join(tree, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if c.exe[p] {
			mode = 0o755
		}
		if n := c.repeat[p]; n > 0 {
			content = strings.Repeat(content, n)
		}
		if err := os.WriteFile(full, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	for p, target := range c.links {
		full := filepath.Join(tree, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, full); err != nil {
			t.Skip("symlinks unsupported:", err)
		}
	}
	return tree
}

// listing is every path under tree, to find what a run left behind.
func listing(t *testing.T, tree string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	return paths
}

// TestHostile runs krm on the hostile inputs of testdata/hostile.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs krm as a process per case")
	}
	files, err := filepath.Glob("testdata/hostile/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, file := range files {
		for _, c := range parseHostile(t, file) {
			c := c
			t.Run(c.name, func(t *testing.T) { c.run(t, false) })
			if !c.closeStdin { // a worker's stdin is the protocol
				t.Run(c.name+"/worker", func(t *testing.T) { c.run(t, true) })
			}
		}
	}
}

// run runs krm on the case's tree, as a command or, viaWorker, as the one
// request of a persistent worker (as Bazel runs the render actions), whose
// response must then say what the command prints on stderr.
func (c *hostileCase) run(t *testing.T, viaWorker bool) {
	tree := c.makeTree(t)
	before := listing(t, tree)
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = strings.ReplaceAll(a, "$TREE", tree)
	}
	// A hard stop well past the bound, so that a hang fails the case
	// instead of the whole test binary.
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(c.seconds)*2*time.Second+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	var request bytes.Buffer
	if viaWorker {
		cmd = exec.CommandContext(ctx, os.Args[0], worker.Flag)
		if err := worker.WriteRequest(&request, 1, args...); err != nil {
			t.Fatal(err)
		}
	}
	cmd.Dir = tree
	cmd.Env = append(os.Environ(), childEnv+"="+tree)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if !c.closeStdin {
		cmd.Stdin = &request
	} else {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		defer r.Close()
		cmd.Stdin = r
	}
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	code := cmd.ProcessState.ExitCode()
	msg := stderr.String()
	if err != nil && code == -1 {
		t.Fatalf("krm %s: %v (after %s)\nstderr:\n%s", strings.Join(args, " "), err, elapsed, tail(msg))
	}
	if viaWorker {
		resp, err := worker.ReadResponse(bufio.NewReader(&stdout))
		if err != nil {
			t.Fatalf("worker: no response: %v (exit %d)\nstderr:\n%s", err, code, tail(msg))
		}
		if code != 0 && code != 1 || code == 1 && resp.ExitCode != 1 {
			t.Errorf("worker exit %d after a response with exit %d", code, resp.ExitCode)
		}
		if resp.ID != 1 {
			t.Errorf("response to request %d, want 1", resp.ID)
		}
		for _, crash := range []string{"panic:", "fatal error:"} {
			if strings.Contains(msg, crash) {
				t.Errorf("the worker crashed (%q):\n%s", crash, tail(msg))
			}
		}
		code, msg = int(resp.ExitCode), resp.Output
		stdout.Reset()
	}
	if code != c.exit {
		t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.exit, tail(stdout.String()), tail(msg))
	}
	for _, want := range c.errors {
		if want = strings.ReplaceAll(want, "$TREE", tree); !strings.Contains(msg, want) {
			t.Errorf("stderr does not contain %q:\n%s", want, tail(msg))
		}
	}
	for _, crash := range []string{"panic:", "goroutine ", "fatal error:", "runtime stack"} {
		if strings.Contains(msg, crash) {
			t.Errorf("stderr shows a crash (%q):\n%s", crash, tail(msg))
		}
	}
	if len(msg) > 8<<10 {
		t.Errorf("stderr is %d bytes; want a short message", len(msg))
	}
	if got := listing(t, tree); strings.Join(got, "\n") != strings.Join(before, "\n") {
		t.Errorf("the run changed the tree:\nbefore %v\nafter  %v", before, got)
	}
	if elapsed > time.Duration(c.seconds)*time.Second {
		t.Errorf("took %s, bound %ds", elapsed, c.seconds)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		if rss := ru.Maxrss >> 10; rss > c.maxRSS { // Linux reports KiB
			t.Errorf("peak memory %d MiB, bound %d MiB", rss, c.maxRSS)
		}
	}
}

func tail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}

// TestInterruptKillsFunctions sends SIGINT and SIGTERM to krm while an exec
// function (in a process group of its own, with a child) runs: krm must
// exit promptly and non-zero, leave no process of the function's group
// and write no output.
func TestInterruptKillsFunctions(t *testing.T) {
	if testing.Short() {
		t.Skip("runs krm as a process")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			started := filepath.Join(t.TempDir(), "pgid")
			c := &hostileCase{files: map[string]string{
				"kustomization.yaml": "transformers: [fn.yaml]\n",
				"fn.yaml": "apiVersion: example.com/v1\nkind: Fn\nmetadata:\n  name: f\n  annotations:\n" +
					"    config.kubernetes.io/function: |\n      exec:\n        path: fn/run\n        envs: [STARTED=" + started + "]\n",
				// The function starts a child, then says it runs (its pid is its group's id).
				"fn/run": "#!/bin/sh\nsleep 1000 &\necho $$ > \"$STARTED.tmp\" && mv \"$STARTED.tmp\" \"$STARTED\"\nsleep 1000\n",
			}, exe: map[string]bool{"fn/run": true}}
			tree := c.makeTree(t)
			before := listing(t, tree)
			cmd := exec.Command(os.Args[0], "build", ".", "--enable-alpha-plugins", "--enable-exec", "-o", "out.yaml")
			cmd.Dir = tree
			cmd.Env = append(os.Environ(), childEnv+"="+tree)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			pgid := waitForPgid(t, started, exited, &stderr)
			defer syscall.Kill(-pgid, syscall.SIGKILL) // should there be survivors
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(20 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("krm still runs 20s after %s", sig)
			}
			if code := cmd.ProcessState.ExitCode(); code == 0 {
				t.Errorf("exit 0 after %s", sig)
			}
			want := "krm got " + map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[sig] + " and killed the function's processes"
			if msg := stderr.String(); !strings.Contains(msg, want) || !strings.Contains(msg, `Fn "f": function fn/run failed`) {
				t.Errorf("stderr does not say %q for function fn/run:\n%s", want, tail(msg))
			}
			if got := listing(t, tree); strings.Join(got, "\n") != strings.Join(before, "\n") {
				t.Errorf("the run changed the tree:\nbefore %v\nafter  %v", before, got)
			}
			// Killed processes the container's init may be slow to reap linger as zombies.
			deadline := time.Now().Add(10 * time.Second)
			for left := groupMembers(pgid); len(left) > 0; left = groupMembers(pgid) {
				if time.Now().After(deadline) {
					t.Fatalf("processes of the function's group %d survive krm: %v", pgid, left)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}

// waitForPgid waits for the function to write its process group id.
func waitForPgid(t *testing.T, file string, exited <-chan error, stderr *bytes.Buffer) int {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if b, err := os.ReadFile(file); err == nil {
			pgid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil || pgid <= 1 {
				t.Fatalf("function wrote %q", b)
			}
			return pgid
		}
		select {
		case err := <-exited:
			t.Fatalf("krm exited before the function started: %v\n%s", err, tail(stderr.String()))
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the function did not start")
		}
	}
}

// groupMembers lists the live (not zombie) processes of process group pgid.
func groupMembers(pgid int) []string {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var live []string
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(b[i+1:]))
		if len(fields) > 2 && fields[2] == strconv.Itoa(pgid) && fields[0] != "Z" {
			live = append(live, string(b[:i+1]))
		}
	}
	return live
}
