package main

import (
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
)

// childEnv makes the test binary act as krm in the directory it names
// (TestMain), so that the hostile cases run krm as a process whose time and
// memory can be measured. (Under Bazel the test binary changes to its
// runfiles directory as it starts, hence the directory in the variable.)
const childEnv = "KRM_HOSTILE_CHILD_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		if err := os.Chdir(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
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
//	-- PATH [+x]               a file (executable with +x); its lines follow
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
				files: map[string]string{}, exe: map[string]bool{}, links: map[string]string{}}
			cases, cur = append(cases, c), ""
		case c == nil:
		case strings.HasPrefix(line, "-- "):
			f := strings.Fields(strings.TrimPrefix(line, "-- "))
			cur = f[0]
			c.files[cur] = ""
			c.exe[cur] = len(f) > 1 && f[1] == "+x"
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
			t.Run(c.name, func(t *testing.T) { c.run(t) })
		}
	}
}

func (c *hostileCase) run(t *testing.T) {
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
	cmd.Dir = tree
	cmd.Env = append(os.Environ(), childEnv+"="+tree)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if !c.closeStdin {
		cmd.Stdin = strings.NewReader("")
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
