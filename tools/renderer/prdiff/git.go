package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// git runs git in dir and returns its standard output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s (in %s): %v: %s", strings.Join(args, " "), dir, err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// Repo is the git repository holding a Bazel workspace.
type Repo struct {
	Top    string // the repository's top directory
	Prefix string // the workspace's path in it, slash-separated ("" at the top)
}

// OpenRepo finds the repository of the workspace directory ws.
func OpenRepo(ws string) (*Repo, error) {
	top, err := git(ws, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	prefix, err := git(ws, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	return &Repo{Top: strings.TrimSpace(top), Prefix: strings.TrimSuffix(strings.TrimSpace(prefix), "/")}, nil
}

// MergeBase resolves the base revision: the merge base of rev and HEAD.
func (r *Repo) MergeBase(rev string) (string, error) {
	out, err := git(r.Top, "merge-base", rev, "HEAD")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// ChangedFiles lists the files of the workspace that differ between the
// commit base and the working tree (modified, added, deleted, renamed as a
// deletion and an addition, and untracked files git does not ignore),
// relative to the workspace, sorted. An untracked MODULE.bazel.lock is
// left out: Bazel writes one on its first run.
func (r *Repo) ChangedFiles(base string) ([]string, error) {
	ws := r.dir(r.Top)
	diff, err := git(ws, "diff", "--name-only", "--no-renames", "--relative", "-z", base, "--")
	if err != nil {
		return nil, err
	}
	untracked, err := git(ws, "ls-files", "--others", "--exclude-standard", "-z", "--", ".")
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, f := range strings.Split(diff, "\x00") {
		if f != "" {
			seen[filepath.ToSlash(f)] = true
		}
	}
	for _, f := range strings.Split(untracked, "\x00") {
		// Bazel writes MODULE.bazel.lock itself: untracked, it is no change.
		if f != "" && f != "MODULE.bazel.lock" {
			seen[filepath.ToSlash(f)] = true
		}
	}
	files := make([]string, 0, len(seen))
	for f := range seen {
		files = append(files, f)
	}
	sort.Strings(files)
	return files, nil
}

// ClassifyAt is Classify of the workspace's tree at commit, read from git
// (no checkout).
func (r *Repo) ClassifyAt(commit string, files []string) (Changes, error) {
	prefix := ""
	if r.Prefix != "" {
		prefix = r.Prefix + "/"
	}
	args := []string{"ls-tree", "-r", "-z", "--full-tree", commit}
	if r.Prefix != "" {
		args = append(args, "--", r.Prefix)
	}
	out, err := git(r.Top, args...)
	if err != nil {
		return Changes{}, err
	}
	tree := map[string]bool{}
	var top []string
	for _, entry := range strings.Split(out, "\x00") {
		// MODE TYPE OBJECT\tPATH; regular files, executable or not, and links.
		meta, p, ok := strings.Cut(entry, "\t")
		if !ok || !strings.HasPrefix(p, prefix) || !(strings.HasPrefix(meta, "100") || strings.HasPrefix(meta, "120000")) {
			continue
		}
		rel := strings.TrimPrefix(p, prefix)
		tree[rel] = true
		if !strings.Contains(rel, "/") {
			top = append(top, rel)
		}
	}
	var module strings.Builder
	for _, name := range moduleFiles(top) {
		data, err := git(r.Top, "cat-file", "blob", commit+":"+prefix+name)
		if err != nil {
			return Changes{}, err
		}
		module.WriteString(data)
	}
	return classify(files, func(rel string) bool { return tree[rel] }, module.String()), nil
}

// dir is the workspace directory in a checkout of the repository at top.
func (r *Repo) dir(top string) string {
	return filepath.Join(top, filepath.FromSlash(r.Prefix))
}

// Worktree is a checkout of one commit beside the repository's own.
type Worktree struct {
	repo *Repo
	Path string // the checkout's top directory
}

// WorktreePath is where AddWorktree puts the checkout of the workspace ws:
// the same path on every run, so that Bazel's output base for it (named
// after the workspace path) and its external repositories are reused.
func WorktreePath(ws string) string {
	sum := sha256.Sum256([]byte(ws))
	return filepath.Join(stateRoot(), hex.EncodeToString(sum[:6]), "base")
}

// stateRoot is the directory of what prdiff keeps between runs (the base's
// checkout, the render cache): in the user's cache directory, else one of the
// user's own in the temporary directory. It is never a shared path others
// could plant a link at: private checks it before anything below it is
// removed.
func stateRoot() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "krm-prdiff")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("krm-prdiff-%d", os.Getuid()))
}

// private makes the state root, mode 0700 (and its parent when missing), or checks that the one there is a
// directory (not a link) of this user's that no one else may write, and then
// makes dir below it.
func private(dir string) error {
	root := stateRoot()
	// The user's cache directory may not exist yet (a fresh CI machine): made as
	// the XDG base directory rules say, for this user alone.
	if err := os.MkdirAll(filepath.Dir(root), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(root, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	st, err := os.Lstat(root)
	if err != nil {
		return err
	}
	sys, _ := st.Sys().(*syscall.Stat_t)
	switch {
	case !st.IsDir():
		return fmt.Errorf("prdiff's state directory %s is not a directory (%s): remove it", root, st.Mode().Type())
	case sys != nil && int(sys.Uid) != os.Getuid():
		return fmt.Errorf("prdiff's state directory %s belongs to user %d, not to you: remove it", root, sys.Uid)
	case st.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("prdiff's state directory %s may be written by others (mode %s): remove it, or chmod 700 it", root, st.Mode().Perm())
	}
	return os.MkdirAll(dir, 0o700)
}

// AddWorktree checks out commit (detached) at path, replacing what an
// earlier run may have left there.
func (r *Repo) AddWorktree(path, commit string) (*Worktree, error) {
	w := &Worktree{repo: r, Path: path}
	if err := private(filepath.Dir(path)); err != nil {
		return nil, err
	}
	if err := w.Remove(); err != nil {
		return nil, err
	}
	if _, err := git(r.Top, "worktree", "add", "--detach", "--force", path, commit); err != nil {
		return nil, err
	}
	return w, nil
}

// Dir is the workspace directory in the checkout.
func (w *Worktree) Dir() string { return w.repo.dir(w.Path) }

// Remove deletes the checkout and git's record of it (nothing to do when
// there is none).
func (w *Worktree) Remove() error {
	if _, err := os.Stat(w.Path); err == nil {
		// Not a worktree of this repository (or a broken one): git refuses,
		// and the directory goes below.
		_, _ = git(w.repo.Top, "worktree", "remove", "--force", "--force", w.Path)
	}
	if err := os.RemoveAll(w.Path); err != nil {
		return err
	}
	_, err := git(w.repo.Top, "worktree", "prune")
	return err
}
