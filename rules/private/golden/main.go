// Command golden is the executable of rules_krm's krm_golden_test and krm_golden_update
// rules: it compares rendered manifests with a checked-in golden file (test mode) or
// rewrites that file in the source tree (update mode, under `bazel run`).
//
// A Starlark rule cannot give its executable arguments in every Bazel from 4.2 on, so the
// rule writes them to a file next to the executable, `<executable>.krmgolden`, one
// `key=value` per line:
//
//	mode=test|update
//	manifests=RLOCATION     the rendered manifests (runfiles path: repository/path)
//	golden=RLOCATION        the golden file
//	golden_source=PATH      the golden's path in the main repository's source tree ("" if none)
//	kustomization=LABEL     the krm_kustomization target, for messages
//	update=LABEL            the target that updates the golden, for messages
//
// In mode update-all (krm_golden_update_all), one line per golden replaces the others:
//
//	entry=RLOCATION<tab>PATH<tab>LABEL   manifests, golden_source, kustomization
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/rules-krm/rules_krm/internal/textdiff"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

type config struct {
	mode, manifests, golden, goldenSource, kustomization, update string
	entries                                                      []config
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprintf(stderr, "golden: unexpected arguments %q: run it through bazel test or bazel run\n", args[1:])
		return 2
	}
	exe := strings.TrimSuffix(args[0], ".exe")
	r := newRunfiles(exe)
	cfg, err := readConfig(exe, r)
	if err != nil {
		fmt.Fprintf(stderr, "golden: %v\n", err)
		return 2
	}
	if cfg.mode == "update-all" {
		return updateAll(cfg, r, stdout, stderr)
	}
	manifests, err := r.read(cfg.manifests)
	if err != nil {
		fmt.Fprintf(stderr, "golden: reading the manifests of %s: %v\n", cfg.kustomization, err)
		return 2
	}
	switch cfg.mode {
	case "test":
		golden, err := r.read(cfg.golden)
		if err != nil {
			fmt.Fprintf(stderr, "golden: reading the golden file: %v\n", err)
			return 2
		}
		if bytes.Equal(golden, manifests) {
			fmt.Fprintf(stdout, "PASS: the manifests of %s equal %s\n", cfg.kustomization, displayName(cfg))
			return 0
		}
		fmt.Fprintf(stderr, "FAIL: the manifests of %s differ from %s (- golden, + rendered):\n\n", cfg.kustomization, displayName(cfg))
		io.WriteString(stderr, textdiff.Unified(string(golden), string(manifests), 3, 200))
		fmt.Fprintf(stderr, "\nIf the new manifests are right, update the golden file with:\n  bazel run %s\n", cfg.update)
		return 1
	case "update":
		return update(cfg, manifests, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "golden: unknown mode %q\n", cfg.mode)
		return 2
	}
}

func displayName(cfg *config) string {
	if cfg.goldenSource != "" {
		return cfg.goldenSource
	}
	return cfg.golden
}

func update(cfg *config, manifests []byte, stdout, stderr io.Writer) int {
	ws := os.Getenv("BUILD_WORKSPACE_DIRECTORY")
	if ws == "" {
		fmt.Fprintf(stderr, "golden: BUILD_WORKSPACE_DIRECTORY is not set: run this with `bazel run %s`\n", cfg.update)
		return 2
	}
	if cfg.goldenSource == "" {
		fmt.Fprintf(stderr, "golden: %s is not a source file of the main repository: cannot update it\n", cfg.golden)
		return 2
	}
	path := filepath.Join(ws, filepath.FromSlash(cfg.goldenSource))
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, manifests) {
		fmt.Fprintf(stdout, "%s is up to date\n", cfg.goldenSource)
		return 0
	}
	if err := writeAtomic(path, manifests); err != nil {
		fmt.Fprintf(stderr, "golden: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "updated %s from the manifests of %s\n", cfg.goldenSource, cfg.kustomization)
	return 0
}

// updateAll updates every golden of cfg.entries, and fails if one fails.
func updateAll(cfg *config, r *runfiles, stdout, stderr io.Writer) int {
	if len(cfg.entries) == 0 {
		fmt.Fprintf(stdout, "%s: no goldens to update\n", cfg.update)
		return 0
	}
	code := 0
	for i := range cfg.entries {
		e := &cfg.entries[i]
		e.update = cfg.update
		manifests, err := r.read(e.manifests)
		if err != nil {
			fmt.Fprintf(stderr, "golden: reading the manifests of %s: %v\n", e.kustomization, err)
			code = 2
			continue
		}
		if c := update(e, manifests, stdout, stderr); c != 0 {
			code = c
		}
	}
	return code
}

// writeAtomic writes data to path through a temporary file in the same directory.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

func readConfig(exe string, r *runfiles) (*config, error) {
	candidates := []string{exe + ".krmgolden"}
	if bin := os.Getenv("TEST_BINARY"); bin != "" {
		// TEST_BINARY is relative to the test's repository in the runfiles.
		if p, err := r.path(os.Getenv("TEST_WORKSPACE") + "/" + strings.TrimSuffix(strings.TrimPrefix(bin, "./"), ".exe") + ".krmgolden"); err == nil {
			candidates = append(candidates, p)
		}
	}
	var data []byte
	var err error
	for _, c := range candidates {
		if data, err = os.ReadFile(c); err == nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("reading the configuration next to the executable: %w", err)
	}
	cfg := &config{}
	fields := map[string]*string{
		"mode": &cfg.mode, "manifests": &cfg.manifests, "golden": &cfg.golden,
		"golden_source": &cfg.goldenSource, "kustomization": &cfg.kustomization, "update": &cfg.update,
	}
	s := bufio.NewScanner(bytes.NewReader(data))
	for s.Scan() {
		key, value, ok := strings.Cut(s.Text(), "=")
		if ok && key == "entry" {
			parts := strings.Split(value, "\t")
			if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
				return nil, fmt.Errorf("configuration: entry %q: want MANIFESTS<tab>GOLDEN_SOURCE<tab>LABEL", value)
			}
			cfg.entries = append(cfg.entries, config{manifests: parts[0], golden: parts[1], goldenSource: parts[1], kustomization: parts[2]})
			continue
		}
		if !ok || fields[key] == nil {
			return nil, fmt.Errorf("configuration: unexpected line %q", s.Text())
		}
		*fields[key] = value
	}
	if cfg.mode == "update-all" {
		return cfg, nil
	}
	if cfg.manifests == "" || cfg.golden == "" {
		return nil, errors.New("configuration: manifests and golden are required")
	}
	return cfg, nil
}

// runfiles finds files by their runfiles path (repository/path), in a runfiles
// directory or through a runfiles manifest (where there is no directory, as on Windows).
type runfiles struct {
	dirs     []string
	manifest map[string]string
}

func newRunfiles(exe string) *runfiles {
	r := &runfiles{}
	for _, d := range []string{os.Getenv("RUNFILES_DIR"), os.Getenv("TEST_SRCDIR"), exe + ".runfiles"} {
		if d != "" {
			r.dirs = append(r.dirs, d)
		}
	}
	for _, m := range []string{os.Getenv("RUNFILES_MANIFEST_FILE"), exe + ".runfiles_manifest", exe + ".runfiles/MANIFEST"} {
		if m == "" {
			continue
		}
		if data, err := os.ReadFile(m); err == nil {
			r.manifest = parseManifest(data)
			break
		}
	}
	return r
}

func parseManifest(data []byte) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if k, v, ok := strings.Cut(line, " "); ok {
			m[k] = v
		}
	}
	return m
}

func (r *runfiles) path(rlocation string) (string, error) {
	for _, d := range r.dirs {
		p := filepath.Join(d, filepath.FromSlash(rlocation))
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if p, ok := r.manifest[rlocation]; ok {
		return p, nil
	}
	return "", fmt.Errorf("%s not found in the runfiles", rlocation)
}

func (r *runfiles) read(rlocation string) ([]byte, error) {
	p, err := r.path(rlocation)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}
