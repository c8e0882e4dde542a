// Command prdiff is the pull-request flow of `krm diff` (docs/pr-diffs.md):
//
//	bazel run @rules_krm//tools/prdiff -- --base origin/main --format markdown
//
// It finds the krm_kustomization targets that the
// changes between a base revision and the working tree affect, from the
// build graph (bazel query), renders them at the base (in a git worktree,
// unless main's CI rendered them: given.go) and at the head, and compares
// the two sets of manifests as `krm diff OLD NEW` compares two directories.
//
// It lives under tools/renderer to use the comparison of `krm diff`
// (tools/renderer/internal/rdiff) directly; //tools/prdiff is an alias of
// its binary, the label users run.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/escape"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
)

const usage = `Usage: prdiff --base REV [flags]
       bazel run @rules_krm//tools/prdiff -- --base origin/main [flags]
       prdiff --write-base-manifests DIR [flags]   (on main: the renders --base-manifests reads)

Shows what a change does to the rendered manifests: finds the
krm_kustomization targets that the files changed between REV (its merge base
with HEAD) and the working tree affect, with bazel query (the reverse
dependencies of the changed files; a changed BUILD file affects its whole
package, a changed .bzl file the packages whose BUILD files load it, and
MODULE.bazel or .bazelrc every kustomization),
renders them at the base revision (in a temporary git worktree) and at the
head with bazel build, and compares the two as 'krm diff OLD NEW' compares
two directories. A deleted or new kustomization shows as wholly removed or
added.

With --base-manifests DIR or --base-manifests-branch REF, the base's renders
come from main's CI (what --write-base-manifests wrote, or the branch krm
publish writes) when their hydrator.metadata names the merge base and they
hold every affected kustomization: no build at the base. Otherwise prdiff
says why and builds it.

Runs in $BUILD_WORKSPACE_DIRECTORY (set by bazel run), else in the current
directory. Exit status, as diff's: 0 no differences, 1 differences, 2 an error.

Flags:
`

// Options are the command's flags.
type Options struct {
	Base         string
	Format       string
	Color        string
	MaxBytes     int
	DiskCache    string
	BazelFlags   []string
	QueryFlags   []string
	StartupFlags []string
	Bazel        string
	Workspace    string
	Keep         string
	AffectedOnly bool
	NoCache      bool
	// BaseManifests and BaseManifestsBranch give the base's renders made
	// elsewhere (a directory; a published branch): used when they are the
	// merge base's and cover its targets.
	BaseManifests       string
	BaseManifestsBranch string
	// WriteBase is where --write-base-manifests writes the renders of
	// HEAD, instead of a diff.
	WriteBase string
}

// Main runs the command with args (without the program name) and returns
// its exit status.
func main() {
	os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr))
}

// runMain is the command: its exit code for args.
func runMain(args []string, stdout, stderr io.Writer) int {
	var o Options
	fs := pflag.NewFlagSet("prdiff", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	fs.StringVar(&o.Base, "base", "", "the base revision (required): a branch, tag or commit; its merge base with HEAD is compared")
	fs.StringVar(&o.Format, "format", "text", "text, markdown (a pull-request comment) or json (schema in docs/pr-diffs.md)")
	fs.StringVar(&o.Color, "color", "auto", "text output in colour: auto (when stdout is a terminal and NO_COLOR is unset), always or never")
	fs.IntVar(&o.MaxBytes, "max-bytes", 60000, "markdown: cut the output to about this many bytes, saying what was left out")
	fs.StringVar(&o.DiskCache, "disk-cache", "", "Bazel's --disk_cache for both builds (so that the base revision's renders are reused)")
	fs.StringArrayVar(&o.BazelFlags, "bazel-flag", nil, "a flag for bazel build and cquery on both sides, such as --remote_cache=URL or --config=ci (repeatable)")
	fs.StringArrayVar(&o.QueryFlags, "query-flag", nil, "a flag for bazel query on both sides (repeatable)")
	fs.StringArrayVar(&o.StartupFlags, "bazel-startup-flag", nil, "a Bazel startup option for every command, such as --output_user_root=DIR (repeatable)")
	fs.StringVar(&o.Bazel, "bazel", "bazel", "the Bazel binary")
	fs.StringVar(&o.Workspace, "workspace", "", "the workspace (default $BUILD_WORKSPACE_DIRECTORY, else the current directory)")
	fs.StringVar(&o.Keep, "keep", "", "write the rendered manifests to DIR/base and DIR/head and keep them")
	fs.BoolVar(&o.AffectedOnly, "affected-only", false, "print the affected kustomizations, one label a line, and render nothing")
	fs.BoolVar(&o.NoCache, "no-cache", false, "render the base even when an earlier run rendered the same targets at the same commit with the same flags")
	fs.StringVar(&o.BaseManifests, "base-manifests", "", "the base's renders in `DIR` (a checkout of the branch krm publish writes, or what --write-base-manifests wrote on main): used instead of building the base when DIR's hydrator.metadata names the merge base and DIR holds every affected kustomization's manifests")
	fs.StringVar(&o.WriteBase, "write-base-manifests", "", "instead of a diff (and without --base): render every kustomization at HEAD into `DIR`, in the layout --base-manifests reads (for main's CI to keep as an artifact)")
	fs.StringVar(&o.BaseManifestsBranch, "base-manifests-branch", "", "as --base-manifests, from the commit of the published branch `REF` (in this repository's git: fetch it first) whose hydrator.metadata names the merge base")
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		return 2
	}
	// Under bazel run, the working directory is the runfiles tree: paths
	// given are relative to where bazel run started.
	if wd := os.Getenv("BUILD_WORKING_DIRECTORY"); wd != "" {
		for _, p := range []*string{&o.DiskCache, &o.Workspace, &o.Keep, &o.BaseManifests, &o.WriteBase} {
			if *p != "" && !filepath.IsAbs(*p) {
				*p = filepath.Join(wd, *p)
			}
		}
	}
	if o.WriteBase != "" {
		if fs.NArg() != 0 || o.Base != "" {
			fmt.Fprintln(stderr, "Error: --write-base-manifests DIR renders HEAD: it takes no --base and no arguments")
			return 2
		}
		if err := WriteBase(o, stderr); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 2
		}
		return 0
	}
	if fs.NArg() != 0 || o.Base == "" {
		fmt.Fprintln(stderr, "Error: prdiff needs --base REV and no arguments (see prdiff --help)")
		return 2
	}
	if o.BaseManifests != "" && o.BaseManifestsBranch != "" {
		fmt.Fprintln(stderr, "Error: give --base-manifests DIR or --base-manifests-branch REF, not both")
		return 2
	}
	if o.Format != "text" && o.Format != "markdown" && o.Format != "json" {
		fmt.Fprintf(stderr, "Error: --format %q: want text, markdown or json\n", o.Format)
		return 2
	}
	color, err := rdiff.UseColor(o.Color, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	res, err := Run(o, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	if o.AffectedOnly {
		for _, l := range res.Affected {
			fmt.Fprintln(stdout, l)
		}
		return 0
	}
	switch o.Format {
	case "json":
		err = res.WriteJSON(stdout)
	case "markdown":
		err = res.WriteMarkdown(stdout, o.MaxBytes)
	default:
		err = res.Diff.WriteText(stdout, color)
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: writing the diff: %v\n", err)
		return 2
	}
	if res.Diff.Empty() {
		return 0
	}
	return 1
}

// Result is what Run found: the JSON output of `prdiff --format json`.
type Result struct {
	Version      int      `json:"version"`
	Base         string   `json:"base"`         // the --base argument
	MergeBase    string   `json:"mergeBase"`    // the commit rendered as the base
	ChangedFiles []string `json:"changedFiles"` // relative to the workspace
	// Affected are the kustomizations the change affects on either side,
	// sorted; BaseTargets and HeadTargets those that exist on each side
	// (those rendered there).
	Affected    []string `json:"affected"`
	BaseTargets []string `json:"baseTargets"`
	HeadTargets []string `json:"headTargets"`
	// Diff is the comparison of the rendered manifests, as krm diff's JSON
	// (paths: PACKAGE/NAME_manifests.yaml).
	Diff *rdiff.Report `json:"diff"`
}

// Run runs the flow (without writing the diff).
func Run(o Options, log io.Writer) (*Result, error) {
	log = &lockedWriter{w: log} // the two sides render at once
	ws, err := workspaceDir(o)
	if err != nil {
		return nil, err
	}
	repo, err := OpenRepo(ws)
	if err != nil {
		return nil, err
	}
	mb, err := repo.MergeBase(o.Base)
	if err != nil {
		return nil, err
	}
	changed, err := repo.ChangedFiles(mb)
	if err != nil {
		return nil, err
	}
	res := &Result{Version: 1, Base: o.Base, MergeBase: mb, ChangedFiles: changed,
		Affected: []string{}, BaseTargets: []string{}, HeadTargets: []string{}}
	fmt.Fprintf(log, "prdiff: %d changed files since %s (merge base %.12s)\n", len(changed), o.Base, mb)
	if len(changed) == 0 {
		res.Diff = &rdiff.Report{Version: 1, Old: o.Base, New: "HEAD", Files: []rdiff.File{}}
		return res, nil
	}

	headChanges := Classify(ws, changed)
	baseChanges, err := repo.ClassifyAt(mb, changed)
	if err != nil {
		return nil, err
	}
	for _, f := range unionStrings(headChanges.Ignored, baseChanges.Ignored) {
		fmt.Fprintf(log, "prdiff: %s is in no package: ignored\n", escape.Line(f)) // a file name may hold anything
	}

	build, err := buildFlags(o)
	if err != nil {
		return nil, err
	}
	head := &Bazel{Binary: o.Bazel, Startup: o.StartupFlags, Dir: ws, BuildFlags: build, QueryFlags: o.QueryFlags, Log: log}
	// The base side (a worktree and its Bazel server) only when a query or
	// a render needs it.
	var base *Bazel
	openBase := func() (*Bazel, error) {
		if base != nil {
			return base, nil
		}
		start := time.Now()
		wt, err := repo.AddWorktree(WorktreePath(ws), mb)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "prdiff: the base checked out in %s (%.2f s)\n", wt.Path, time.Since(start).Seconds())
		// Its server stops by itself once idle: no wait for a shutdown at
		// the end (a later --max_idle_secs in --bazel-startup-flag wins).
		startup := append([]string{baseIdle}, o.StartupFlags...)
		base = &Bazel{Binary: o.Bazel, Startup: startup, Dir: wt.Dir(), BuildFlags: build, QueryFlags: o.QueryFlags, Log: log, worktree: wt}
		return base, nil
	}
	defer func() {
		if base == nil {
			return
		}
		if err := base.worktree.Remove(); err != nil {
			fmt.Fprintf(log, "prdiff: removing the worktree %s: %v\n", base.worktree.Path, err)
		}
	}()

	// The affected set: the union of both sides' queries, each side then
	// rendering those of them that exist there (a target can be affected on
	// one side only, such as one whose glob takes in a new file). When the
	// change edits only files that both sides have, and no BUILD, .bzl or
	// workspace file, the two build graphs are the same: one side's query
	// answers for both.
	if sameGraph(baseChanges, headChanges) {
		if res.Affected, err = sideAffected(head, headChanges); err != nil {
			return nil, err
		}
		if res.Affected == nil {
			res.Affected = []string{}
		}
		res.BaseTargets, res.HeadTargets = res.Affected, res.Affected
	} else {
		b, err := openBase()
		if err != nil {
			return nil, err
		}
		baseAff, err := sideAffected(b, baseChanges)
		if err != nil {
			return nil, err
		}
		headAff, err := sideAffected(head, headChanges)
		if err != nil {
			return nil, err
		}
		res.Affected = unionStrings(baseAff, headAff)
		if len(res.Affected) > 0 {
			if res.BaseTargets, err = existing(b, res.Affected); err != nil {
				return nil, err
			}
			if res.HeadTargets, err = existing(head, res.Affected); err != nil {
				return nil, err
			}
		}
	}
	fmt.Fprintf(log, "prdiff: %d affected kustomizations (%d at the base, %d at the head)\n", len(res.Affected), len(res.BaseTargets), len(res.HeadTargets))
	for _, l := range res.Affected {
		fmt.Fprintf(log, "prdiff:   %s\n", escape.Line(l))
	}
	if o.AffectedOnly {
		return res, nil
	}

	out := o.Keep
	if out == "" {
		if out, err = os.MkdirTemp("", "krm-prdiff-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(out)
	} else {
		for _, d := range []string{"base", "head"} {
			if err := os.RemoveAll(filepath.Join(out, d)); err != nil {
				return nil, err
			}
		}
	}
	baseDir, headDir := filepath.Join(out, "base"), filepath.Join(out, "head")
	// The base's manifests of the same targets at the same commit, with the
	// same Bazel and flags, are those of an earlier run: from its cache.
	var cache *RenderCache
	if !o.NoCache {
		dir := filepath.Join(filepath.Dir(WorktreePath(ws)), "renders")
		if err := private(dir); err != nil {
			fmt.Fprintf(log, "prdiff: no render cache: %v\n", err)
		} else {
			cache = &RenderCache{Dir: dir, Key: renderKey(mb, o.Bazel, o.StartupFlags, build, res.BaseTargets)}
		}
	}
	// The base's manifests come from the first that has them: the given
	// renders (then only the head's Bazel server runs, unless a query
	// needed the base's), an earlier run's, a build at the base. The two
	// sides render at once: two workspaces, two Bazel servers (the base's
	// start, fetch and analysis overlap the head's build).
	var given renderTree
	notGiven := "" // why the given renders do not serve: "REASON: "
	if len(res.BaseTargets) > 0 && (o.BaseManifests != "" || o.BaseManifestsBranch != "") {
		side := head // the same build graph as the base's, or the base's own
		if base != nil {
			side = base
		}
		if given, err = takeBase(o, repo, side, mb, res.BaseTargets, baseDir); err != nil {
			notGiven = err.Error() + ": "
			if err := os.RemoveAll(baseDir); err != nil {
				return nil, err
			}
		}
	}
	baseErr := make(chan error, 1)
	switch {
	case len(res.BaseTargets) == 0:
		baseErr <- os.MkdirAll(baseDir, 0o755)
	case given != nil && notGiven == "":
		fmt.Fprintf(log, "prdiff: the base's manifests from %s\n", given)
		baseErr <- nil
	case cache != nil && cache.Get(baseDir):
		fmt.Fprintf(log, "prdiff: %sthe base's manifests of these targets at %.12s from an earlier run (%s)\n", notGiven, mb, cache.path())
		baseErr <- nil
	default:
		if notGiven != "" {
			fmt.Fprintf(log, "prdiff: %sbuilding the base\n", notGiven)
		}
		b, err := openBase()
		if err != nil {
			return nil, err
		}
		go func() {
			if err := b.Render(res.BaseTargets, baseDir); err != nil {
				baseErr <- fmt.Errorf("rendering the base (%.12s): %w", mb, err)
				return
			}
			if cache != nil {
				if err := cache.Put(baseDir); err != nil {
					fmt.Fprintf(log, "prdiff: keeping the base's manifests for the next run: %v\n", err)
				}
			}
			baseErr <- nil
		}()
	}
	headErr := head.Render(res.HeadTargets, headDir)
	if err := <-baseErr; err != nil {
		return nil, err
	}
	if headErr != nil {
		return nil, fmt.Errorf("rendering the head: %w", headErr)
	}
	if res.Diff, err = rdiff.Paths(baseDir, headDir); err != nil {
		return nil, err
	}
	res.Diff.Old, res.Diff.New = o.Base, "HEAD"
	return res, nil
}

// workspaceDir is the workspace: --workspace, else $BUILD_WORKSPACE_DIRECTORY
// (bazel run), else the working directory.
func workspaceDir(o Options) (string, error) {
	ws := o.Workspace
	if ws == "" {
		ws = os.Getenv("BUILD_WORKSPACE_DIRECTORY")
	}
	if ws == "" {
		var err error
		if ws, err = os.Getwd(); err != nil {
			return "", err
		}
	}
	return filepath.Abs(ws)
}

// buildFlags are the flags of bazel build and cquery: --disk-cache's and
// --bazel-flag's.
func buildFlags(o Options) ([]string, error) {
	if o.DiskCache == "" {
		return o.BazelFlags, nil
	}
	dc, err := filepath.Abs(o.DiskCache)
	if err != nil {
		return nil, err
	}
	return append([]string{"--disk_cache=" + dc}, o.BazelFlags...), nil
}

// baseIdle is how long the base's Bazel server outlives its last command:
// a rerun soon after finds it running, and none stays for good.
const baseIdle = "--max_idle_secs=60"

// takeBase writes the base's manifests of targets into dir from the given
// renders (o.BaseManifests or o.BaseManifestsBranch), once they prove to
// be those of the merge base mb; side's bazel query tells which targets
// have no manifests (components). It returns the tree it read, and an
// error saying why they do not serve.
func takeBase(o Options, repo *Repo, side *Bazel, mb string, targets []string, dir string) (renderTree, error) {
	var t renderTree = dirTree{o.BaseManifests}
	if o.BaseManifestsBranch != "" {
		g, err := findPublished(repo.Top, o.BaseManifestsBranch, mb)
		if err != nil {
			return nil, err
		}
		t = g
	}
	return t, takeGiven(t, mb, targets, side.Components, dir)
}

// lockedWriter serializes writes: each is one line of the log.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// sameGraph reports whether the changes leave the build graph as it was:
// the same changed files, in the same packages, on both sides (none new or
// deleted), and none of them a BUILD, .bzl or workspace file.
func sameGraph(base, head Changes) bool {
	return !base.All && !head.All && len(base.Packages)+len(head.Packages)+len(base.Bzl)+len(head.Bzl) == 0 &&
		reflect.DeepEqual(base.Files, head.Files) && reflect.DeepEqual(base.Ignored, head.Ignored)
}

// sideAffected is the affected set on one side ("" changes: none).
func sideAffected(b *Bazel, c Changes) ([]string, error) {
	if c.Empty() {
		return nil, nil
	}
	return b.Affected(c)
}

// existing keeps the kustomization targets that exist in b's workspace.
func existing(b *Bazel, targets []string) ([]string, error) {
	all, err := b.Query("kind(krm_kustomization_rule, //...)")
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, l := range all {
		have[l] = true
	}
	kept := []string{}
	for _, l := range targets {
		if have[l] {
			kept = append(kept, l)
		}
	}
	return kept, nil
}

func unionStrings(a, b []string) []string {
	m := map[string]bool{}
	for _, s := range append(append([]string(nil), a...), b...) {
		m[s] = true
	}
	u := make([]string, 0, len(m))
	for s := range m {
		u = append(u, s)
	}
	sort.Strings(u)
	return u
}

// WriteJSON writes the result as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// maxListed bounds the kustomizations the Markdown lists by name.
const maxListed = 100

// WriteMarkdown writes krm diff's Markdown (bounded by maxBytes) and a
// collapsed list of the affected kustomizations.
func (r *Result) WriteMarkdown(w io.Writer, maxBytes int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "<details><summary>%d kustomizations affected by %d changed files (from the build graph)</summary>\n\n", len(r.Affected), len(r.ChangedFiles))
	for i, l := range r.Affected {
		if i == maxListed {
			fmt.Fprintf(&b, "- ... and %d more\n", len(r.Affected)-maxListed)
			break
		}
		fmt.Fprintf(&b, "- %s%s\n", escape.Code(l), r.side(l))
	}
	b.WriteString("\n</details>\n")
	if err := r.Diff.WriteMarkdown(w, maxBytes-b.Len()); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// side notes a kustomization on one side only.
func (r *Result) side(label string) string {
	inBase, inHead := contains(r.BaseTargets, label), contains(r.HeadTargets, label)
	switch {
	case inBase && !inHead:
		return " (deleted)"
	case inHead && !inBase:
		return " (new)"
	}
	return ""
}

func contains(sorted []string, s string) bool {
	i := sort.SearchStrings(sorted, s)
	return i < len(sorted) && sorted[i] == s
}
