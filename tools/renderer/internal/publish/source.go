package publish

import (
	"context"
	"fmt"
	"strings"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/hydrated"
)

// Source says where to find the source commit (the drySha): the first of
// Commit, the status key, the checkout in Dir that has one.
type Source struct {
	// Commit is given (--source-commit): a full object name.
	Commit string
	// Status are Bazel's workspace status values (stamping) and Key the one
	// holding the commit.
	Status map[string]string
	Key    string
	// Dir is the source checkout, whose HEAD is the commit; AllowDirty
	// accepts modified tracked files there (the render may not be HEAD's).
	Dir        string
	AllowDirty bool
	// Git is the git executable and Env its environment.
	Git string
	Env []string
}

// Resolve returns the source commit and where it came from.
func (s Source) Resolve(ctx context.Context) (sha, from string, err error) {
	if s.Commit != "" {
		if !hydrated.IsFullSHA(s.Commit) {
			return "", "", fmt.Errorf("--source-commit %q: want a full commit SHA (40 or 64 lower-case hex digits)", s.Commit)
		}
		return s.Commit, "--source-commit", nil
	}
	if v, ok := s.Status[s.Key]; ok && s.Key != "" {
		v = strings.TrimSpace(v)
		if !hydrated.IsFullSHA(v) {
			return "", "", fmt.Errorf("workspace status key %s is %q: want a full commit SHA (for example `echo %s $(git rev-parse HEAD)` in the --workspace_status_command)", s.Key, v, s.Key)
		}
		return v, "workspace status " + s.Key, nil
	}
	if s.Dir == "" {
		return "", "", fmt.Errorf("no source commit: pass --source-commit SHA, stamp with a workspace status key %s, or --source-dir DIR (a git checkout)", s.Key)
	}
	g := &git{exe: s.Git, env: s.Env}
	top, err := g.runIn(ctx, s.Dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", "", fmt.Errorf("source directory %s: not a git checkout (pass --source-commit SHA): %w", s.Dir, err)
	}
	top = strings.TrimSpace(top)
	head, err := g.runIn(ctx, top, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return "", "", fmt.Errorf("source checkout %s has no commit (pass --source-commit SHA): %w", top, err)
	}
	if !s.AllowDirty {
		status, err := g.runIn(ctx, top, "status", "--porcelain", "--untracked-files=no")
		if err != nil {
			return "", "", fmt.Errorf("source checkout %s: %w", top, err)
		}
		if status != "" {
			first, _, _ := strings.Cut(strings.TrimSpace(status), "\n")
			return "", "", fmt.Errorf("source checkout %s has uncommitted changes (%s ...): the manifests may not be its HEAD's; commit them, or pass --allow-dirty or --source-commit SHA", top, first)
		}
	}
	return strings.TrimSpace(head), "HEAD of " + top, nil
}
