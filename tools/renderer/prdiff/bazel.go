package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Bazel runs one Bazel binary in one workspace.
type Bazel struct {
	Binary     string   // "bazel" or a path
	Startup    []string // startup options, before the command
	Dir        string   // the workspace
	BuildFlags []string // for build and cquery (--disk_cache, --config, ...)
	QueryFlags []string // for query
	Log        io.Writer
	worktree   *Worktree // the checkout it runs in, for the base side
}

func (b *Bazel) run(args ...string) (string, error) {
	cmd := exec.Command(b.Binary, append(append([]string(nil), b.Startup...), args...)...)
	cmd.Dir = b.Dir
	// Not the variables of a `bazel run` around us: they name the other workspace.
	cmd.Env = withoutEnv(os.Environ(), "BUILD_WORKSPACE_DIRECTORY", "BUILD_WORKING_DIRECTORY")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	fmt.Fprintf(b.Log, "prdiff: (in %s) %s %s\n", b.Dir, b.Binary, strings.Join(cmd.Args[1:], " "))
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s (in %s): %v\n%s", b.Binary, args[0], b.Dir, err, tail(errb.String(), 40))
	}
	// Where a run's time goes, for CI logs (the sides' lines interleave).
	fmt.Fprintf(b.Log, "prdiff: (in %s) %s took %.2f s\n", b.Dir, args[0], time.Since(start).Seconds())
	return out.String(), nil
}

// Query runs bazel query (with extra flags) and returns the labels it
// prints, sorted.
func (b *Bazel) Query(expr string, flags ...string) ([]string, error) {
	args := append(append([]string{"query"}, b.QueryFlags...), flags...)
	out, err := b.run(append(args, "--output=label", "--", expr)...)
	if err != nil {
		return nil, err
	}
	return lines(out), nil
}

// Affected returns the krm_kustomization_rule targets that the changes
// affect in this workspace: the expression of Changes.Expr, after a query
// adds the packages whose BUILD files load a changed .bzl file.
func (b *Bazel) Affected(c Changes) ([]string, error) {
	if e := c.BzlExpr(); e != "" {
		builds, err := b.Query(e, BzlQueryFlags...)
		if err != nil {
			return nil, err
		}
		c.Packages = unionStrings(c.Packages, buildFilePackages(builds))
	}
	expr := c.Expr()
	if expr == "" {
		return nil, nil
	}
	return b.Query(expr)
}

// Components returns those of targets declared with kind = "Component":
// they have no manifests output.
func (b *Bazel) Components(targets []string) ([]string, error) {
	if len(targets) == 0 {
		return nil, nil
	}
	return b.Query(`attr(kind, "^Component$", set(` + strings.Join(quoteAll(targets), " ") + "))")
}

// Render builds the manifests output group of the kustomization targets
// (each Kustomization's <name>_manifests.yaml; a Component has none) and
// copies the files into dir by their path below bazel-bin. The files are
// those the build's event protocol names; where it names them by no local
// path (a remote build without the bytes), bazel cquery finds them.
func (b *Bazel) Render(targets []string, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if len(targets) == 0 {
		return nil
	}
	bep, err := os.CreateTemp("", "krm-prdiff-bep-*.json")
	if err != nil {
		return err
	}
	bep.Close()
	defer os.Remove(bep.Name())
	flags := append(append([]string(nil), b.BuildFlags...), "--output_groups=manifests")
	build := append(append([]string{"build"}, flags...), "--build_event_json_file="+bep.Name())
	if _, err := b.run(append(build, append([]string{"--"}, targets...)...)...); err != nil {
		return err
	}
	files, err := bepOutputs(bep.Name())
	if err != nil {
		return err
	}
	if files == nil {
		if files, err = b.cqueryOutputs(flags, targets); err != nil {
			return err
		}
	}
	for rel, from := range files {
		if err := copyFile(from, filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			return err
		}
	}
	return nil
}

// bepOutputs reads the output files of a build from its event protocol
// JSON (--build_event_json_file): path below bazel-bin → local path. nil
// when a file has no local path (file:// URI).
func bepOutputs(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var ev struct {
			NamedSetOfFiles *struct {
				Files []struct {
					Name       string   `json:"name"`
					URI        string   `json:"uri"`
					PathPrefix []string `json:"pathPrefix"`
				} `json:"files"`
			} `json:"namedSetOfFiles"`
		}
		if err := dec.Decode(&ev); err != nil {
			return nil, fmt.Errorf("reading the build's events: %w", err)
		}
		if ev.NamedSetOfFiles == nil {
			continue
		}
		for _, f := range ev.NamedSetOfFiles.Files {
			local, ok := strings.CutPrefix(f.URI, "file://")
			if !ok {
				return nil, nil
			}
			rel, ok := binRelative(strings.Join(append(f.PathPrefix, f.Name), "/"))
			if !ok {
				return nil, fmt.Errorf("the build's events: %s is not below bazel-out/CONFIG/bin", f.Name)
			}
			files[rel] = local
		}
	}
	return files, nil
}

// cqueryOutputs finds the output files of targets with bazel cquery: path
// below bazel-bin → local path.
func (b *Bazel) cqueryOutputs(flags, targets []string) (map[string]string, error) {
	out, err := b.run(append(append([]string{"cquery"}, flags...), "--output=files", "--", "set("+strings.Join(quoteAll(targets), " ")+")")...)
	if err != nil {
		return nil, err
	}
	root, err := b.run("info", "execution_root")
	if err != nil {
		return nil, err
	}
	execRoot := strings.TrimSpace(root)
	files := map[string]string{}
	for _, f := range lines(out) {
		rel, ok := binRelative(f)
		if !ok {
			return nil, fmt.Errorf("bazel cquery --output=files: %s is not below bazel-out/CONFIG/bin", f)
		}
		files[rel] = filepath.Join(execRoot, filepath.FromSlash(f))
	}
	return files, nil
}

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
