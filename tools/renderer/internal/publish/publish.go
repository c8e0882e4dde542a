// Package publish writes rendered manifests into a branch of a git repository
// for a GitOps tool to sync (the rendered-manifests pattern): one directory per
// deployment, a hydrator.metadata file naming the source commit (the GitOps
// Promoter hydrator contract), a commit only when something changed, pushed
// to the branch or to its "-next" branch. The layout is package hydrated's
// (docs/publish.md).
//
// It drives the git command line in a temporary bare repository and builds
// the commit from git's plumbing (hash-object, update-index on a private
// index, write-tree, commit-tree): no work tree is checked out, and the one
// push at the end is the only thing the remote sees, so a failure at any
// step before it leaves the remote as it was.
package publish

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/hydrated"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/scrub"
)

// Identity is a commit's author or committer.
type Identity struct{ Name, Email string }

// DefaultIdentity is the author and committer when neither flags nor git's
// environment variables name one.
var DefaultIdentity = Identity{Name: "krm publish", Email: "krm-publish@rules-krm.invalid"}

// IdentityFrom is name and email, each defaulting to git's environment
// variable GIT_<ROLE>_NAME or GIT_<ROLE>_EMAIL in env, then to def's.
func IdentityFrom(name, email string, env []string, role string, def Identity) Identity {
	if name == "" {
		name = lookup(env, "GIT_"+role+"_NAME")
	}
	if email == "" {
		email = lookup(env, "GIT_"+role+"_EMAIL")
	}
	if name == "" {
		name = def.Name
	}
	if email == "" {
		email = def.Email
	}
	return Identity{name, email}
}

// Options configure one publish.
type Options struct {
	// Repo is the repository: a URL git understands (file://, git://,
	// ssh://, https://, user@host:path) or a local path.
	Repo string
	// Branch is the branch the deployments are published for; with Next
	// the commit goes to Branch + "-next" (the GitOps Promoter's proposed
	// branch), which starts from Branch when it does not exist yet.
	Branch string
	Next   bool
	// DrySha is the source commit; RepoURL the source repository (may be
	// empty); Commands what rendered the manifests: hydrator.metadata's,
	// recorded without the userinfo of any URL.
	DrySha   string
	RepoURL  string
	Commands []string
	// Author and Committer of the commit.
	Author, Committer Identity
	// SkipMetadataOnly makes no commit when only hydrator.metadata would
	// change (a new source commit rendering the same manifests).
	SkipMetadataOnly bool
	// Git is the git executable; Env the environment of git processes.
	Git string
	Env []string
	// TempDir holds the temporary repository ("": the system's).
	TempDir string
	// Log receives progress lines (may be nil).
	Log io.Writer

	// beforePush runs before each push attempt (tests move the branch).
	beforePush func(attempt int)
}

// Change is one file of the branch that a publish added (A), modified (M)
// or deleted (D).
type Change struct {
	Status byte
	Path   string
}

// Result is what a publish did.
type Result struct {
	// Branch is the branch written (or that would have been).
	Branch string
	// Commit is the branch's commit afterwards: the new one, or the tip
	// that already held these manifests.
	Commit string
	// Changed says whether a commit was pushed; MetadataOnly that only
	// hydrator.metadata differed (and SkipMetadataOnly held it back).
	Changed      bool
	MetadataOnly bool
	// Changes are the files of the commit that differ from its parent.
	Changes []Change
}

// ErrMoved is returned when the branch moved on the remote during the
// publish twice: nothing was pushed.
var ErrMoved = errors.New("the branch moved on the remote while publishing, twice: nothing was pushed; run again")

// Publish publishes the deployments.
func Publish(ctx context.Context, o Options, ds []Deployment) (Result, error) {
	target := o.Branch
	if o.Next {
		target += "-next"
	}
	res := Result{Branch: target}
	if err := checkDeployments(ds); err != nil {
		return res, err
	}
	if !hydrated.IsFullSHA(o.DrySha) {
		return res, fmt.Errorf("source commit %q: want a full commit SHA", o.DrySha)
	}
	if o.Repo == "" {
		return res, fmt.Errorf("no repository: pass --repo URL")
	}
	if o.Branch == "" {
		return res, fmt.Errorf("no branch: pass --branch NAME")
	}
	for _, d := range ds {
		if err := regularFile(d.Manifests); err != nil {
			return res, fmt.Errorf("deployment %s: %w", d.Path, err)
		}
	}
	exe := o.Git
	if exe == "" {
		exe = "git"
	}
	// git's messages are relayed: they must not quote a credential of either URL (a server's
	// "remote:" lines may echo what it was sent).
	g := &git{exe: exe, env: gitEnv(o.Env), secrets: append(scrub.FromURL(o.Repo), scrub.FromURL(o.RepoURL)...)}
	if _, err := g.exec(ctx, nil, []string{"check-ref-format", "refs/heads/" + target}, "check-ref-format"); err != nil {
		return res, fmt.Errorf("--branch %q: not a valid branch name", o.Branch)
	}
	tmp, err := os.MkdirTemp(o.TempDir, "krm-publish-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(tmp)
	g.dir, g.hide = tmp, tmp
	if _, err := g.exec(ctx, nil, []string{"init", "-q", "--bare", tmp}, "init"); err != nil {
		return res, err
	}
	// What the branch records (hydrator.metadata, the commit message) holds no credentials:
	// $CI_REPOSITORY_URL is https://gitlab-ci-token:TOKEN@host/...
	o.RepoURL = scrub.URLs(o.RepoURL)
	o.Commands = append([]string(nil), o.Commands...)
	for i, c := range o.Commands {
		o.Commands[i] = scrub.URLs(c)
	}
	p := &publisher{o: o, g: g, ds: ds, target: target, repo: o.Repo, shown: scrub.URLs(o.Repo)}
	if err := p.hashInputs(ctx); err != nil {
		return res, err
	}
	for attempt := 1; ; attempt++ {
		res, err = p.attempt(ctx, attempt)
		if !errors.Is(err, errMovedOnce) {
			return res, err
		}
		if attempt == 2 {
			return res, fmt.Errorf("%s of %s: %w", target, p.shown, ErrMoved)
		}
		p.logf("%s of %s moved while publishing: fetching it again", target, p.shown)
	}
}

// errMovedOnce is a push refused because the branch moved since the fetch.
var errMovedOnce = errors.New("branch moved")

// publisher is one publish's state.
type publisher struct {
	o      Options
	g      *git
	ds     []Deployment
	target string
	repo   string            // what git is given
	shown  string            // what messages say: repo without credentials
	blobs  map[string]string // deployment path → its manifests' blob
	meta   string            // hydrator.metadata's blob
}

func (p *publisher) logf(format string, args ...any) {
	if p.o.Log != nil {
		fmt.Fprintf(p.o.Log, format+"\n", args...)
	}
}

// hashInputs writes the manifests and the metadata into the temporary
// repository as blobs (git reads the files: krm holds none in memory).
func (p *publisher) hashInputs(ctx context.Context) error {
	var paths strings.Builder
	for _, d := range p.ds {
		abs, err := filepath.Abs(d.Manifests)
		if err != nil {
			return err
		}
		if strings.ContainsAny(abs, "\n\r") {
			return fmt.Errorf("deployment %s: manifests file name %q has a line break", d.Path, d.Manifests)
		}
		paths.WriteString(abs + "\n")
	}
	out, err := p.g.run(ctx, strings.NewReader(paths.String()), "hash-object", "-w", "--no-filters", "--stdin-paths")
	if err != nil {
		return err
	}
	shas := strings.Fields(out)
	if len(shas) != len(p.ds) {
		return fmt.Errorf("git hash-object: %d object names for %d files", len(shas), len(p.ds))
	}
	p.blobs = map[string]string{}
	for i, d := range p.ds {
		p.blobs[d.Path] = shas[i]
	}
	meta := metadataBytes(p.o.DrySha, p.o.RepoURL, p.o.Commands, p.ds)
	out, err = p.g.run(ctx, strings.NewReader(string(meta)), "hash-object", "-w", "--no-filters", "--stdin")
	if err != nil {
		return err
	}
	p.meta = strings.TrimSpace(out)
	return nil
}

// remoteTips reads the tips of the target branch and, with Next, the plain
// branch from the remote ("" for a missing branch).
func (p *publisher) remoteTips(ctx context.Context) (target, plain string, err error) {
	refs := []string{"refs/heads/" + p.target}
	if p.o.Next {
		refs = append(refs, "refs/heads/"+p.o.Branch)
	}
	out, err := p.g.run(ctx, nil, append([]string{"ls-remote", "--heads", "--", p.repo}, refs...)...)
	if err != nil {
		return "", "", fmt.Errorf("cannot reach the repository %s: %w", p.shown, err)
	}
	for _, line := range strings.Split(out, "\n") {
		sha, ref, ok := strings.Cut(line, "\t")
		switch {
		case !ok:
		case ref == "refs/heads/"+p.target:
			target = sha
		case p.o.Next && ref == "refs/heads/"+p.o.Branch:
			plain = sha
		}
	}
	return target, plain, nil
}

// attempt fetches the base, builds the commit and pushes it; errMovedOnce
// when the push found the branch moved.
func (p *publisher) attempt(ctx context.Context, n int) (Result, error) {
	res := Result{Branch: p.target}
	tip, plain, err := p.remoteTips(ctx)
	if err != nil {
		return res, err
	}
	base, from := tip, p.target
	if base == "" && plain != "" {
		base, from = plain, p.o.Branch // -next starts from the branch it proposes to
	}
	baseTree := ""
	if base != "" {
		if _, err := p.g.run(ctx, nil, "fetch", "-q", "--no-tags", "--", p.repo, "+refs/heads/"+from+":refs/krm/base"); err != nil {
			return res, fmt.Errorf("fetching %s of %s: %w", from, p.shown, err)
		}
		out, err := p.g.run(ctx, nil, "rev-parse", "refs/krm/base^{commit}", "refs/krm/base^{tree}")
		if err != nil {
			return res, err
		}
		f := strings.Fields(out)
		base, baseTree = f[0], f[1]
	}
	if base == "" {
		p.logf("%s does not exist in %s: creating it (no parent commit)", p.target, p.shown)
	}

	// The new tree, on a private index: first with the manifests alone (the
	// base's metadata kept), then with the new metadata.
	index := filepath.Join(p.g.dir, fmt.Sprintf("krm-index-%d", n))
	ig := *p.g
	ig.env = append(append([]string(nil), p.g.env...), "GIT_INDEX_FILE="+index)
	if base != "" {
		_, err = ig.run(ctx, nil, "read-tree", base)
	} else {
		_, err = ig.run(ctx, nil, "read-tree", "--empty")
	}
	if err != nil {
		return res, err
	}
	files, err := ig.run(ctx, nil, "ls-files", "-z")
	if err != nil {
		return res, err
	}
	var info strings.Builder
	want := map[string]bool{}
	for _, d := range p.ds {
		want[d.Path+"/"+hydrated.ManifestFile] = true
	}
	existing := map[string]bool{}
	for _, f := range strings.Split(files, "\x00") {
		if f == "" {
			continue
		}
		existing[f] = true
		if hydrated.Owned(f) && !want[f] {
			fmt.Fprintf(&info, "0 %s\t%s\x00", strings.Repeat("0", len(p.meta)), f)
		}
	}
	if err := conflicts(existing, want); err != nil {
		return res, fmt.Errorf("laying out the deployments on %s of %s: %w", from, p.shown, err)
	}
	for _, d := range p.ds {
		fmt.Fprintf(&info, "100644 %s\t%s/%s\x00", p.blobs[d.Path], d.Path, hydrated.ManifestFile)
	}
	if _, err := ig.run(ctx, strings.NewReader(info.String()), "update-index", "-z", "--index-info"); err != nil {
		return res, fmt.Errorf("laying out the deployments on %s: %w", from, err)
	}
	manifestsTree, err := ig.run(ctx, nil, "write-tree")
	if err != nil {
		return res, fmt.Errorf("laying out the deployments on %s: %w", from, err)
	}
	if _, err := ig.run(ctx, strings.NewReader(fmt.Sprintf("100644 %s\t%s\x00", p.meta, hydrated.MetadataFile)), "update-index", "-z", "--index-info"); err != nil {
		return res, err
	}
	tree, err := ig.run(ctx, nil, "write-tree")
	if err != nil {
		return res, err
	}
	tree, manifestsTree = strings.TrimSpace(tree), strings.TrimSpace(manifestsTree)

	unchanged := base != "" && (tree == baseTree || manifestsTree == baseTree && p.o.SkipMetadataOnly)
	if unchanged && tip != "" {
		res.Commit, res.MetadataOnly = tip, tree != baseTree
		return res, nil
	}
	commit := base // a new -next branch at its branch's tip, when that holds these manifests
	if !unchanged {
		if commit, res.Changes, err = p.commit(ctx, base, baseTree, tree); err != nil {
			return res, err
		}
	}
	if p.o.beforePush != nil {
		p.o.beforePush(n)
	}
	if _, err := p.g.run(ctx, nil, "push", "-q", "--", p.repo, commit+":refs/heads/"+p.target); err != nil {
		// Refused because someone pushed since the fetch? Then start again
		// from the new tip; else it is the push's own error.
		now, _, lerr := p.remoteTips(ctx)
		if lerr == nil && now != tip {
			return res, errMovedOnce
		}
		return res, fmt.Errorf("pushing to %s of %s (nothing was pushed): %w", p.target, p.shown, err)
	}
	res.Commit, res.Changed = commit, true
	return res, nil
}

// conflicts reports a file of the branch where a file krm writes needs a
// directory, or a directory where it writes a file: git's index would
// silently drop the branch's file.
func conflicts(existing, want map[string]bool) error {
	dirs := map[string]bool{}
	for f := range existing {
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	writes := []string{hydrated.MetadataFile}
	for w := range want {
		writes = append(writes, w)
	}
	sort.Strings(writes)
	for _, w := range writes {
		if dirs[w] {
			return fmt.Errorf("%s is a directory in the branch: krm writes a file there", w)
		}
		for d := path.Dir(w); d != "."; d = path.Dir(d) {
			if existing[d] {
				return fmt.Errorf("%s is a file in the branch, not krm's: move it, or publish %s elsewhere", d, path.Dir(w))
			}
		}
	}
	return nil
}

// commit commits tree on base ("": none) and lists what changed.
func (p *publisher) commit(ctx context.Context, base, baseTree, tree string) (string, []Change, error) {
	changes, err := p.changes(ctx, baseTree, tree)
	if err != nil {
		return "", nil, err
	}
	args := []string{"commit-tree", tree}
	if base != "" {
		args = append(args, "-p", base)
	}
	cg := *p.g
	cg.env = append(append([]string(nil), p.g.env...),
		"GIT_AUTHOR_NAME="+p.o.Author.Name, "GIT_AUTHOR_EMAIL="+p.o.Author.Email,
		"GIT_COMMITTER_NAME="+p.o.Committer.Name, "GIT_COMMITTER_EMAIL="+p.o.Committer.Email)
	commit, err := cg.run(ctx, strings.NewReader(p.message()), args...)
	if err != nil {
		return "", nil, fmt.Errorf("committing: %w", err)
	}
	return strings.TrimSpace(commit), changes, nil
}

// changes lists the files that differ between the trees (from "" : all).
func (p *publisher) changes(ctx context.Context, from, to string) ([]Change, error) {
	var out string
	var err error
	if from == "" {
		out, err = p.g.run(ctx, nil, "ls-tree", "-r", "-z", "--name-only", to)
		var cs []Change
		for _, f := range strings.Split(out, "\x00") {
			if f != "" {
				cs = append(cs, Change{'A', f})
			}
		}
		return cs, err
	}
	out, err = p.g.run(ctx, nil, "diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to)
	if err != nil {
		return nil, err
	}
	f := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	var cs []Change
	for i := 0; i+1 < len(f); i += 2 {
		cs = append(cs, Change{f[i][0], f[i+1]})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Path < cs[j].Path })
	return cs, nil
}

// message is the commit message: what was published from where. No time
// stamps, no temporary paths.
func (p *publisher) message() string {
	var b strings.Builder
	fmt.Fprintf(&b, "krm publish: %s from %s\n\n", p.o.Branch, p.o.DrySha[:12])
	fmt.Fprintf(&b, "Rendered manifests of %d deployment(s) from source commit %s.\n", len(p.ds), p.o.DrySha)
	if p.o.RepoURL != "" {
		fmt.Fprintf(&b, "Source repository: %s\n", p.o.RepoURL)
	}
	return b.String()
}

// regularFile checks that name is a regular file (after symbolic links).
func regularFile(name string) error {
	fi, err := os.Stat(name)
	if err != nil {
		return fmt.Errorf("manifests file %s: %w", name, errors.Unwrap(err))
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("manifests file %s is not a regular file", name)
	}
	return nil
}

// gitEnv is env without the variables that would point git at another
// repository, index or work tree, and with prompts off: a publish never
// waits for a password.
func gitEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
			"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_TERMINAL_PROMPT":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GIT_TERMINAL_PROMPT=0")
}

// lookup is env's value of key, or "".
func lookup(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// ResolveRepo makes a relative local path absolute against wd (the user's
// working directory, which `bazel run` is not in); URLs stay as given.
func ResolveRepo(repo, wd string) string {
	if repo == "" || wd == "" || filepath.IsAbs(repo) || strings.Contains(repo, "://") {
		return repo
	}
	// scp-like "host:path" (no slash before the colon) is a URL to git.
	if i := strings.IndexByte(repo, ':'); i > 0 && !strings.Contains(repo[:i], "/") {
		return repo
	}
	return filepath.Join(wd, repo)
}
