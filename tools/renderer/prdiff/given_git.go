package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/hydrated"
)

// publishedDepth bounds how far back a published branch's history is
// searched for the commit that holds the merge base's renders.
const publishedDepth = 200

// gitTree is one commit of a published branch in the repository's git
// (--base-manifests-branch REF), read with git's plumbing: no checkout,
// and git's tree modes tell links from regular files.
type gitTree struct {
	top    string // the repository
	ref    string // as the user gave it, for messages
	commit string
}

func (g gitTree) String() string {
	return fmt.Sprintf("base manifests of %s (commit %.12s)", g.ref, g.commit)
}

// findPublished finds, among the last publishedDepth commits of ref's
// first-parent history, the newest whose hydrator.metadata names commit:
// a publish per source commit, the branch moved on since the pull request
// branched. The error says why there is none.
func findPublished(top, ref, commit string) (gitTree, error) {
	out, err := git(top, "rev-list", "--first-parent", fmt.Sprintf("--max-count=%d", publishedDepth), ref, "--")
	if err != nil {
		return gitTree{}, fmt.Errorf("base manifests branch %s: not in the repository (fetch it first: git fetch origin BRANCH): %w", ref, err)
	}
	commits := strings.Fields(out)
	if len(commits) == 0 {
		return gitTree{}, fmt.Errorf("base manifests branch %s has no commits", ref)
	}
	names := make([]string, len(commits))
	for i, c := range commits {
		names[i] = c + ":" + hydrated.MetadataFile
	}
	blobs, err := catFile(top, names, maxMetadataBytes)
	if err != nil {
		return gitTree{}, fmt.Errorf("base manifests branch %s: %w", ref, err)
	}
	for i, c := range commits {
		if m, err := hydrated.ParseMetadata(blobs[names[i]]); err == nil && m.DrySha == commit {
			return gitTree{top: top, ref: ref, commit: c}, nil
		}
	}
	tip := "has none"
	if m, err := hydrated.ParseMetadata(blobs[names[0]]); err == nil {
		tip = "names " + m.DrySha[:12]
	} else if _, ok := blobs[names[0]]; ok {
		tip = "is malformed: " + err.Error()
	}
	return gitTree{}, fmt.Errorf("base manifests branch %s: none of its last %d commits has a %s naming the merge base %.12s (its tip's %s)", ref, len(commits), hydrated.MetadataFile, commit, tip)
}

func (g gitTree) read(paths []string, limit int64) (map[string][]byte, error) {
	if len(paths) == 0 {
		return map[string][]byte{}, nil
	}
	// MODE TYPE OBJECT SIZE\tPATH for each path that is there; literal
	// paths, not patterns.
	out, err := git(g.top, append([]string{"--literal-pathspecs", "ls-tree", "-z", "--long", "--full-tree", g.commit, "--"}, paths...)...)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	objects := map[string]string{} // path → blob
	var names []string
	for _, entry := range strings.Split(out, "\x00") {
		meta, p, ok := strings.Cut(entry, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 || !want[p] {
			continue
		}
		switch {
		case f[0] == "120000":
			return nil, fmt.Errorf("%s: a symbolic link, not a regular file", p)
		case f[0] != "100644" && f[0] != "100755":
			return nil, fmt.Errorf("%s: not a regular file", p)
		}
		if size, err := strconv.ParseInt(f[3], 10, 64); err != nil || size > limit {
			return nil, fmt.Errorf("%s: larger than %d bytes", p, limit)
		}
		objects[p] = f[2]
		names = append(names, f[2])
	}
	blobs, err := catFile(g.top, names, limit)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for p, obj := range objects {
		data, ok := blobs[obj]
		if !ok {
			return nil, fmt.Errorf("%s: blob %s is not in the repository", p, obj)
		}
		files[p] = data
	}
	return files, nil
}

// catFile reads the blobs that objects name (an object name, or
// COMMIT:PATH) with one git cat-file --batch: name → content. Names with
// no blob, and blobs larger than limit, are left out.
func catFile(top string, objects []string, limit int64) (map[string][]byte, error) {
	blobs := map[string][]byte{}
	if len(objects) == 0 {
		return blobs, nil
	}
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Dir = top
	var errb bytes.Buffer
	cmd.Stdin = strings.NewReader(strings.Join(objects, "\n") + "\n")
	cmd.Stderr = &errb
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	r := bufio.NewReader(stdout)
	perr := func() error {
		for _, name := range objects {
			// OBJECT TYPE SIZE, then SIZE bytes and a newline; or NAME missing.
			header, err := r.ReadString('\n')
			if err != nil {
				return fmt.Errorf("git cat-file --batch: %v", err)
			}
			f := strings.Fields(header)
			if len(f) != 3 {
				continue
			}
			size, err := strconv.ParseInt(f[2], 10, 64)
			if err != nil {
				return fmt.Errorf("git cat-file --batch: %q", strings.TrimSpace(header))
			}
			if f[1] != "blob" || size > limit {
				_, err = io.CopyN(io.Discard, r, size+1)
			} else {
				data := make([]byte, size+1)
				_, err = io.ReadFull(r, data)
				blobs[name] = data[:size]
			}
			if err != nil {
				return fmt.Errorf("git cat-file --batch: %v", err)
			}
		}
		return nil
	}()
	if perr != nil {
		_, _ = io.Copy(io.Discard, r) // git waits to write the rest
	}
	werr := cmd.Wait()
	if perr != nil {
		return nil, perr
	}
	if werr != nil {
		return nil, fmt.Errorf("git cat-file --batch (in %s): %v: %s", top, werr, strings.TrimSpace(errb.String()))
	}
	return blobs, nil
}
