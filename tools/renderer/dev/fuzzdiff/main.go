// Command fuzzdiff is krm's differential fuzzer: it generates random
// kustomization trees (package fuzztree), builds each with kustomize v5.8.2
// (the oracle) and with krm, and reports every tree where the two differ in
// output bytes or in success/failure.
//
//	go run ./tools/renderer/dev/fuzzdiff -seed 1 -n 200          # CI's fixed batch
//	go run ./tools/renderer/dev/fuzzdiff -seed 1000 -n 5000 -j 2 # a long run
//	go run ./tools/renderer/dev/fuzzdiff -seed 4242 -n 1 -save tools/renderer/dev/difftest/testdata/cases
//
// -save writes each differing tree as a differential case (tree/, target
// and kustomize's golden) named fuzz-SEED; minimize it by hand, rename it
// and add error_contains for an error case (tools/renderer/dev/difftest/doc.go).
// Exit status: 0 no difference, 1 differences, 2 a usage or setup error.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/dev/fuzztree"
	"github.com/rules-krm/rules_krm/internal/textdiff"
	"github.com/rules-krm/rules_krm/tools/renderer/dev/levels"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provenance"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
)

func main() { os.Exit(run()) }

// run is main returning its exit status, so that deferred clean-up runs.
func run() int {
	seed := flag.Int64("seed", 1, "seed of the first tree; tree i uses seed+i")
	n := flag.Int("n", 100, "number of trees")
	jobs := flag.Int("j", 2, "kustomize processes running at once")
	kustomize := flag.String("kustomize", "", "the kustomize v5.8.2 binary (default: $KUSTOMIZE, else .bin/kustomize)")
	save := flag.String("save", "", "write each differing tree as a differential case under this directory")
	keep := flag.Bool("keep", false, "keep the generated trees (their directory is printed)")
	dir := flag.String("dir", "", "compare this existing tree instead of generated ones (with -target)")
	target := flag.String("target", ".", "with -dir: the directory to build, relative to it")
	flag.BoolVar(&levelByLevel, "levels", false, "also render each tree as Bazel does (one kustomization at a time, bases from snapshots) and compare")
	flag.BoolVar(&withProvenance, "provenance", false, "also render each tree with provenance, with and without its fast paths (scoped fingerprints, changes the transformers report, spliced annotations), and compare output and manifest")
	flag.Parse()
	// The deprecation warnings krm's build prints, as kustomize does, are
	// noise here.
	log.SetOutput(io.Discard)
	stderr := os.Stderr
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		os.Stderr = null
	}
	bin := *kustomize
	if bin == "" {
		bin = os.Getenv("KUSTOMIZE")
	}
	if bin == "" {
		bin = ".bin/kustomize"
	}
	if _, err := exec.LookPath(bin); err != nil {
		fmt.Fprintf(stderr, "fuzzdiff: kustomize: %v (install it: GOBIN=$PWD/.bin go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2)\n", err)
		return 2
	}
	bin, _ = filepath.Abs(bin)
	work, err := os.MkdirTemp("", "fuzzdiff-")
	if err != nil {
		fmt.Fprintln(stderr, "fuzzdiff:", err)
		return 2
	}
	if !*keep {
		defer os.RemoveAll(work)
	}
	s := summary{}
	if *dir != "" {
		// An existing tree (a kept or saved one, while minimizing it).
		r := runKustomize(bin, result{tree: &fuzztree.Tree{Target: *target}, root: *dir})
		if d := compare(r); d != "" {
			fmt.Printf("DIFF %s:\n%s\n", *dir, d)
			return 1
		}
		fmt.Println("fuzzdiff: no difference")
		return 0
	}
	for r := range runOracle(bin, work, *seed, *n, *jobs) {
		d := compare(r)
		s.add(r, d)
		if d != "" {
			fmt.Printf("DIFF seed %d (%s):\n%s\n", r.seed, r.root, d)
			if *save != "" {
				if err := saveCase(*save, r); err != nil {
					fmt.Fprintln(stderr, "fuzzdiff: save:", err)
				}
			}
		}
		if !*keep {
			os.RemoveAll(r.root)
		}
		if s.trees%100 == 0 {
			fmt.Println(s) // progress of a long run
		}
	}
	fmt.Println(s)
	if *keep {
		fmt.Println("trees kept in", work)
	}
	if s.diffs > 0 {
		return 1
	}
	return 0
}

// result is one tree built by kustomize.
type result struct {
	seed           int64
	tree           *fuzztree.Tree
	root           string // where the tree was written
	ok             bool   // kustomize succeeded
	stdout, stderr []byte
}

// runOracle writes and builds trees with kustomize, jobs at a time, and
// delivers the results in seed order.
func runOracle(bin, work string, seed int64, n, jobs int) <-chan result {
	out := make(chan result)
	slots := make(chan chan result, jobs)
	go func() {
		for i := 0; i < n; i++ {
			c := make(chan result, 1)
			slots <- c
			go func(s int64) { c <- oracle(bin, work, s) }(seed + int64(i))
		}
		close(slots)
	}()
	go func() {
		for c := range slots {
			out <- <-c
		}
		close(out)
	}()
	return out
}

func oracle(bin, work string, seed int64) result {
	t := fuzztree.Generate(seed)
	root := filepath.Join(work, fmt.Sprint(seed))
	r := result{seed: seed, tree: t, root: root}
	if err := writeTree(root, t.Files); err != nil {
		r.stderr = []byte(err.Error())
		return r
	}
	return runKustomize(bin, r)
}

// runKustomize builds r's target with kustomize and records the result.
func runKustomize(bin string, r result) result {
	cmd := exec.Command(bin, "build", r.tree.Target)
	cmd.Dir = r.root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		stderr.WriteString(err.Error())
	}
	r.ok, r.stdout, r.stderr = err == nil, stdout.Bytes(), stderr.Bytes()
	return r
}

func writeTree(root string, files map[string]string) error {
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// levelByLevel makes compare also render level by level (-levels);
// withProvenance makes it check provenance's fast paths (-provenance).
var levelByLevel, withProvenance bool

// compare builds r's tree with krm and describes how it differs from
// kustomize's result ("" when it does not).
func compare(r result) string {
	dir := filepath.Join(r.root, r.tree.Target)
	if d := compareOne(r, "", func() ([]byte, error) { return render.Build(filesys.MakeFsOnDisk(), dir, render.Options{}) }); d != "" {
		return d
	}
	if withProvenance && r.ok {
		if d := compareProvenance(r.root, dir); d != "" {
			return d
		}
	}
	if !levelByLevel {
		return ""
	}
	return compareOne(r, "level by level: ", func() ([]byte, error) {
		chain := &levels.Chain{FS: filesys.MakeFsOnDisk()}
		res, err := chain.Render(dir)
		if err != nil {
			return nil, err
		}
		return res.Manifests, nil
	})
}

// compareProvenance renders dir with provenance twice, with its fast paths
// and with every object fingerprinted after every step, and describes how
// the two differ ("" when they do not).
func compareProvenance(root, dir string) string {
	renderOnce := func(slow bool) (*render.Result, error) {
		opts := render.Options{Provenance: &provenance.Options{WorkspaceRoot: root, Slow: slow}}
		return render.Render(filesys.MakeFsOnDisk(), dir, opts)
	}
	fast, err := renderOnce(false)
	if err != nil {
		return fmt.Sprintf("provenance: krm fails: %v", err)
	}
	slow, err := renderOnce(true)
	if err != nil {
		return fmt.Sprintf("provenance, full walks: krm fails: %v", err)
	}
	if !bytes.Equal(fast.Manifests, slow.Manifests) {
		return "provenance: fast paths change the output (-full walks +fast):\n" + textdiff.Unified(string(slow.Manifests), string(fast.Manifests), 3, 200)
	}
	if !bytes.Equal(fast.ProvenanceManifest, slow.ProvenanceManifest) {
		return "provenance: fast paths change the manifest (-full walks +fast):\n" + textdiff.Unified(string(slow.ProvenanceManifest), string(fast.ProvenanceManifest), 3, 200)
	}
	return ""
}

func compareOne(r result, how string, krm func() ([]byte, error)) string {
	got, err := krm()
	switch {
	case r.ok && err != nil:
		return fmt.Sprintf("%skustomize succeeds, krm fails: %v", how, err)
	case !r.ok && err == nil:
		return fmt.Sprintf("%skustomize fails, krm succeeds:\n%s", how, r.stderr)
	case r.ok && !bytes.Equal(got, r.stdout):
		return how + "output differs (-kustomize +krm):\n" + textdiff.Unified(string(r.stdout), string(got), 3, 200)
	}
	return ""
}

type summary struct{ trees, failing, diffs int }

func (s *summary) add(r result, diff string) {
	s.trees++
	if !r.ok {
		s.failing++
	}
	if diff != "" {
		s.diffs++
	}
}

func (s summary) String() string {
	return fmt.Sprintf("fuzzdiff: %d trees (%d kustomize errors), %d differences", s.trees, s.failing, s.diffs)
}

// saveCase writes r as the differential case fuzz-SEED under dir.
func saveCase(dir string, r result) error {
	c := filepath.Join(dir, fmt.Sprintf("fuzz-%d", r.seed))
	if err := writeTree(filepath.Join(c, "tree"), r.tree.Files); err != nil {
		return err
	}
	files := map[string][]byte{"target": []byte(r.tree.Target + "\n")}
	if r.ok {
		files["expected.yaml"] = r.stdout
	} else {
		files["expected.err"] = bytes.ReplaceAll(r.stderr, []byte(r.root), []byte("$TREE"))
		first := strings.TrimPrefix(strings.SplitN(string(files["expected.err"]), "\n", 2)[0], "Error: ")
		files["error_contains"] = []byte(first + "\n")
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(c, name), files[name], 0o644); err != nil {
			return err
		}
	}
	fmt.Println("saved", c)
	return nil
}
