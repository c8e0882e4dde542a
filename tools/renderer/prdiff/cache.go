package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// keptRenders bounds the base renders a RenderCache keeps.
const keptRenders = 8

// RenderCache keeps the base side's rendered manifests between runs, by a
// key of what they are rendered from (renderKey): a rerun on the same pull
// request with the same affected set needs no worktree and no Bazel
// server for the base. Inputs from outside the repository (a
// local_path_override to a directory elsewhere) are not in the key.
type RenderCache struct {
	Dir string // where entries go, one directory each
	Key string
}

// renderKey names the base render of targets at commit with one Bazel and
// its flags.
func renderKey(commit, bazel string, startup, build, targets []string) string {
	h := sha256.New()
	for _, part := range [][]string{{commit, bazel}, startup, build, targets} {
		h.Write([]byte(strings.Join(part, "\x00") + "\x01"))
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func (c *RenderCache) path() string { return filepath.Join(c.Dir, c.Key) }

// Get copies the entry's files into dir; false when there is none.
func (c *RenderCache) Get(dir string) bool {
	src := c.path()
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		return false
	}
	err := copyTree(src, dir)
	if err == nil {
		now := time.Now()
		_ = os.Chtimes(src, now, now) // recently used: pruned last
	}
	return err == nil
}

// Put stores dir's files as the entry (whole or not at all), and removes
// the least recently used entries beyond keptRenders.
func (c *RenderCache) Put(dir string) error {
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(c.Dir, ".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(dir, tmp); err != nil {
		return err
	}
	if err := os.RemoveAll(c.path()); err != nil {
		return err
	}
	if err := os.Rename(tmp, c.path()); err != nil {
		return err
	}
	return c.prune()
}

func (c *RenderCache) prune() error {
	entries, err := os.ReadDir(c.Dir)
	if err != nil {
		return err
	}
	type entry struct {
		name string
		mod  int64
	}
	var kept []entry
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			kept = append(kept, entry{e.Name(), info.ModTime().UnixNano()})
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].mod > kept[j].mod })
	for _, e := range kept[min(len(kept), keptRenders):] {
		if err := os.RemoveAll(filepath.Join(c.Dir, e.name)); err != nil {
			return err
		}
	}
	return nil
}

// copyTree copies the regular files below src into dst, by relative path.
func copyTree(src, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
}
