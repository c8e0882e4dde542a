package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/publish"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/stamp"
)

const publishUsage = `Usage: krm publish PATH=MANIFESTS... --repo URL --branch NAME [flags]

Publishes rendered manifests to a branch of a git repository for Argo CD or
Flux to sync (the rendered-manifests pattern): each MANIFESTS file becomes
PATH/manifest.yaml in the branch, the branch's root gets hydrator.metadata
(JSON: drySha, the source commit; the GitOps Promoter hydrator contract), and
a manifest.yaml of a PATH no longer given is removed. It commits only when a
file changed, and pushes that one commit to the branch, or with --next to
NAME-next; on any error nothing is pushed. Needs git on PATH. The layout and
the metadata: docs/publish.md. The krm_publish rule runs it (bazel run).

The source commit is --source-commit, else the workspace status key
--source-commit-key of the --status files (stamping), else HEAD of the git
checkout --source-dir (which must have no uncommitted changes to tracked
files unless --allow-dirty).

Exit status: 0 published or no change, 1 a failure, 2 a usage error.

Flags:
`

type publishOptions struct {
	repo, branch     string
	next             bool
	sourceCommit     string
	status           []string
	sourceKey        string
	sourceDir        string
	allowDirty       bool
	sourceRepoURL    string
	commands         []string
	authorName       string
	authorEmail      string
	skipMetadataOnly bool
	timeout          time.Duration
	fs               *pflag.FlagSet
}

func publishFlags(stderr io.Writer) *publishOptions {
	o := &publishOptions{fs: commandFlags("publish", publishUsage, stderr)}
	f := o.fs
	f.StringVar(&o.repo, "repo", "", "the repository to publish to: a URL (file://, git://, ssh://, https://) or a local path (required)")
	f.StringVar(&o.branch, "branch", "", "the branch to publish to, for example env/prod (required)")
	f.BoolVar(&o.next, "next", false, "push to BRANCH-next instead (the GitOps Promoter's proposed branch; created from BRANCH)")
	f.StringVar(&o.sourceCommit, "source-commit", "", "the source commit (full SHA) that hydrator.metadata names as drySha")
	f.StringArrayVar(&o.status, "status", nil, "a Bazel workspace status file to read the source commit from (repeatable)")
	f.StringVar(&o.sourceKey, "source-commit-key", "STABLE_GIT_COMMIT", "the workspace status key holding the source commit")
	f.StringVar(&o.sourceDir, "source-dir", "", "the source checkout whose HEAD is the source commit (default: $BUILD_WORKSPACE_DIRECTORY under bazel run, else .)")
	f.BoolVar(&o.allowDirty, "allow-dirty", false, "take HEAD of --source-dir even when tracked files have uncommitted changes")
	f.StringVar(&o.sourceRepoURL, "source-repo-url", "", "the source repository's URL, recorded in hydrator.metadata as repoURL")
	f.StringArrayVar(&o.commands, "command", nil, "what rendered the manifests, recorded in hydrator.metadata's commands (repeatable)")
	f.StringVar(&o.authorName, "author-name", "", "the commit's author name (default: $GIT_AUTHOR_NAME, else "+publish.DefaultIdentity.Name+")")
	f.StringVar(&o.authorEmail, "author-email", "", "the commit's author email (default: $GIT_AUTHOR_EMAIL, else "+publish.DefaultIdentity.Email+")")
	f.BoolVar(&o.skipMetadataOnly, "skip-metadata-only", false, "no commit when only hydrator.metadata would change (the same manifests from a new source commit)")
	f.DurationVar(&o.timeout, "timeout", 10*time.Minute, "give up (nothing pushed) after this long")
	return o
}

func runPublish(args []string, s streams) int {
	stdout, stderr := s.stdout, s.stderr
	o := publishFlags(stderr)
	if code, ok := parseFlags(o.fs, args, stderr); !ok {
		return code
	}
	var ds []publish.Deployment
	for _, a := range o.fs.Args() {
		p, m, ok := strings.Cut(a, "=")
		if !ok || m == "" {
			fmt.Fprintf(stderr, "Error: %q: want PATH=MANIFESTS (see krm help publish)\n", a)
			return 2
		}
		ds = append(ds, publish.Deployment{Path: p, Manifests: m})
	}
	if len(ds) == 0 || o.repo == "" || o.branch == "" {
		fmt.Fprintln(stderr, "Error: krm publish needs PATH=MANIFESTS arguments, --repo and --branch (see krm help publish)")
		return 2
	}
	env := os.Environ()
	// bazel run starts krm in the runfiles: the user's paths are relative
	// to where they ran bazel, and the source checkout is the workspace.
	wd := os.Getenv("BUILD_WORKING_DIRECTORY")
	dir := o.sourceDir
	if dir == "" {
		dir = os.Getenv("BUILD_WORKSPACE_DIRECTORY")
	}
	if dir == "" {
		dir = "."
	}
	var files [][]byte
	for _, f := range o.status {
		b, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "Error: --status: %v\n", err)
			return 1
		}
		files = append(files, b)
	}
	// SIGINT and SIGTERM end the context as the timeout does: git and what it started are
	// killed, and the temporary repository (the manifests, Secrets included) is removed,
	// before krm exits.
	got := make(chan os.Signal, 1)
	signal.Notify(got, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(got)
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	var sig os.Signal
	stopped := make(chan struct{})
	defer close(stopped)
	go func() {
		select {
		case sig = <-got:
			cancel()
		case <-stopped:
		}
	}()
	interrupted := func(err error) error {
		if ctx.Err() == context.Canceled && sig != nil {
			return fmt.Errorf("krm publish got %s: git and the processes it started were stopped and the temporary repository removed; a push that had reached the remote may have moved the branch: check it (%v)", signalName(sig), err)
		}
		return err
	}
	src := publish.Source{
		Commit: o.sourceCommit, Status: stamp.ParseStatus(files...), Key: o.sourceKey,
		Dir: publish.ResolveRepo(dir, wd), AllowDirty: o.allowDirty, Git: "git", Env: env,
	}
	sha, from, err := src.Resolve(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", interrupted(err))
		return 1
	}
	fmt.Fprintf(stdout, "source commit %s (%s)\n", sha, from)
	author := publish.IdentityFrom(o.authorName, o.authorEmail, env, "AUTHOR", publish.DefaultIdentity)
	res, err := publish.Publish(ctx, publish.Options{
		Repo: publish.ResolveRepo(o.repo, wd), Branch: o.branch, Next: o.next,
		DrySha: sha, RepoURL: o.sourceRepoURL, Commands: o.commands,
		Author: author, Committer: publish.IdentityFrom("", "", env, "COMMITTER", author),
		SkipMetadataOnly: o.skipMetadataOnly, Git: "git", Env: env, Log: stdout,
	}, ds)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", interrupted(err))
		return 1
	}
	switch {
	case !res.Changed && res.MetadataOnly:
		fmt.Fprintf(stdout, "no change: %s (commit %s) holds these manifests; only hydrator.metadata would change (--skip-metadata-only)\n", res.Branch, res.Commit)
	case !res.Changed:
		fmt.Fprintf(stdout, "no change: %s (commit %s) holds these manifests\n", res.Branch, res.Commit)
	case len(res.Changes) == 0:
		fmt.Fprintf(stdout, "created %s at commit %s (the manifests of %s)\n", res.Branch, res.Commit, o.branch)
	default:
		fmt.Fprintf(stdout, "pushed %s: commit %s\n", res.Branch, res.Commit)
		for _, c := range res.Changes {
			fmt.Fprintf(stdout, "  %c %s\n", c.Status, c.Path)
		}
	}
	return 0
}

func signalName(s os.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}
