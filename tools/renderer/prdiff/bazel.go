package prdiff

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Bazel runs one Bazel binary in one workspace.
type Bazel struct {
	Binary     string   // "bazel" or a path
	Startup    []string // startup options, before the command
	Dir        string   // the workspace
	BuildFlags []string // for build and cquery (--disk_cache, --config, ...)
	QueryFlags []string // for query
	Log        io.Writer
}

func (b *Bazel) run(args ...string) (string, error) {
	cmd := exec.Command(b.Binary, append(append([]string(nil), b.Startup...), args...)...)
	cmd.Dir = b.Dir
	// Not the variables of a `bazel run` around us: they name the other workspace.
	cmd.Env = withoutEnv(os.Environ(), "BUILD_WORKSPACE_DIRECTORY", "BUILD_WORKING_DIRECTORY")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	fmt.Fprintf(b.Log, "prdiff: (in %s) %s %s\n", b.Dir, b.Binary, strings.Join(cmd.Args[1:], " "))
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s (in %s): %v\n%s", b.Binary, args[0], b.Dir, err, tail(errb.String(), 40))
	}
	return out.String(), nil
}

// Query runs bazel query and returns the labels it prints, sorted.
func (b *Bazel) Query(expr string) ([]string, error) {
	args := append([]string{"query"}, b.QueryFlags...)
	out, err := b.run(append(args, "--output=label", "--", expr)...)
	if err != nil {
		return nil, err
	}
	return lines(out), nil
}

// Affected returns the krm_kustomization_rule targets that the changes
// affect in this workspace: the expression of Changes.Expr, after a first
// query keeps the changed files that name targets.
func (b *Bazel) Affected(c Changes) ([]string, error) {
	var targets []string
	if e := c.FilesExpr(); e != "" {
		files, err := b.Query(e)
		if err != nil {
			return nil, err
		}
		have := map[string]bool{}
		for _, f := range files {
			have[f] = true
		}
		for _, l := range c.Files {
			if have[l] {
				targets = append(targets, l)
			}
		}
	}
	expr := c.Expr(targets)
	if expr == "" {
		return nil, nil
	}
	return b.Query(expr)
}

// Render builds the manifests output group of the kustomization targets
// (each Kustomization's <name>_manifests.yaml; a Component has none) and
// copies the files into dir by their path below bazel-bin.
func (b *Bazel) Render(targets []string, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if len(targets) == 0 {
		return nil
	}
	flags := append(append([]string(nil), b.BuildFlags...), "--output_groups=manifests")
	if _, err := b.run(append(append([]string{"build"}, flags...), append([]string{"--"}, targets...)...)...); err != nil {
		return err
	}
	out, err := b.run(append(append([]string{"cquery"}, flags...), "--output=files", "--", "set("+strings.Join(quoteAll(targets), " ")+")")...)
	if err != nil {
		return err
	}
	root, err := b.run("info", "execution_root")
	if err != nil {
		return err
	}
	execRoot := strings.TrimSpace(root)
	for _, f := range lines(out) {
		rel, ok := binRelative(f)
		if !ok {
			return fmt.Errorf("bazel cquery --output=files: %s is not below bazel-out/CONFIG/bin", f)
		}
		if err := copyFile(filepath.Join(execRoot, filepath.FromSlash(f)), filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			return err
		}
	}
	return nil
}

// Shutdown stops the workspace's Bazel server.
func (b *Bazel) Shutdown() { _, _ = b.run("shutdown") }

// binRelative turns an output path (bazel-out/CONFIG/bin/PKG/NAME_manifests.yaml)
// into its path below bazel-bin, with a stamped file
// (NAME_manifests.stamped.yaml, under --stamp) named as the unstamped one.
func binRelative(p string) (string, bool) {
	parts := strings.SplitN(p, "/", 4)
	if len(parts) != 4 || parts[0] != "bazel-out" || parts[2] != "bin" {
		return "", false
	}
	rel := parts[3]
	if s, ok := strings.CutSuffix(rel, ".stamped.yaml"); ok {
		rel = s + ".yaml"
	}
	return rel, true
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

func lines(s string) []string {
	var l []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			l = append(l, line)
		}
	}
	sort.Strings(l)
	return l
}

func tail(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

func withoutEnv(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		keep := true
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}
