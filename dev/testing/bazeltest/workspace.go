package bazeltest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// CopyRepo makes dest a copy of the repository root without version control, tools, Bazel
// outputs and e2e workspaces: a workspace to edit without touching the source tree. What
// dest held before goes.
func CopyRepo(t T, root, dest string) {
	t.Helper()
	skip := func(rel string) bool {
		return rel == ".git" || rel == ".bin" || rel == "e2e" || strings.HasPrefix(rel, "bazel-")
	}
	if err := CopyTree(root, dest, skip, 0); err != nil {
		t.Fatalf("bazeltest: copy of %s: %v", root, err)
	}
}

// CopyResolved copies the tree src to dst, reading through symbolic links: under Bazel a
// test's data files are links into the runfiles, which os.CopyFS refuses and kustomize's
// load restrictor refuses to follow out of the tree.
func CopyResolved(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}

// CopyTree copies the tree src to dest (emptied first), leaving out the entries for which
// skip (given the path relative to src, slash-separated) is true; symbolic links are copied
// as links, modes kept but for the bits of umask (as a checkout made under that umask).
func CopyTree(src, dest string, skip func(rel string) bool, umask fs.FileMode) error {
	if err := emptyDir(dest); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if rel != "." && skip != nil && skip(filepath.ToSlash(rel)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dest, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, (info.Mode().Perm()|0o700)&^umask)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			return copyFile(path, target, info.Mode().Perm()&^umask)
		}
		return nil // sockets and the like
	})
}

// emptyDir removes what dir holds but keeps dir itself: a Bazel server started in a
// workspace directory that was removed and made again starts afresh (its analysis lost).
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dest string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dest, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// ConsumerModule makes dest a copy of the consumer module src (e2e/bzlmod) whose
// local_path_override points at rulesKrm; on machines without a registry (Offline) it
// appends dev/offline/bazel7/consumer.MODULE.bazel, and with renderer "source" it opts
// in to the renderer built from source (e2e/from-source.MODULE.bazel: a checkout's
// version has no prebuilt release); "prebuilt" keeps the default, for a rulesKrm made by
// dev/scripts/release.sh.
func ConsumerModule(t T, root, src, dest, rulesKrm, renderer string) {
	t.Helper()
	if renderer != "source" && renderer != "prebuilt" {
		t.Fatalf("bazeltest: renderer %q: want source or prebuilt", renderer)
	}
	if err := CopyTree(src, dest, func(rel string) bool { return strings.HasPrefix(rel, "bazel-") }, 0); err != nil {
		t.Fatalf("bazeltest: copy of %s: %v", src, err)
	}
	mod := filepath.Join(dest, "MODULE.bazel")
	b, err := os.ReadFile(mod)
	if err != nil {
		t.Fatalf("bazeltest: %v", err)
	}
	const override = `path = "../.."`
	if !strings.Contains(string(b), override) {
		t.Fatalf("bazeltest: %s has no local_path_override with %s", filepath.Join(src, "MODULE.bazel"), override)
	}
	text := strings.Replace(string(b), override, fmt.Sprintf("path = %q", rulesKrm), 1)
	var extra []string
	if Offline() {
		extra = append(extra, filepath.Join(root, "dev", "offline", "bazel7", "consumer.MODULE.bazel"))
	}
	if renderer == "source" {
		extra = append(extra, filepath.Join(root, "e2e", "from-source.MODULE.bazel"))
	}
	for _, f := range extra {
		e, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("bazeltest: %v", err)
		}
		text += string(e)
	}
	if err := os.WriteFile(mod, []byte(text), 0o644); err != nil {
		t.Fatalf("bazeltest: %v", err)
	}
}

// WriteTxtar writes the files of the txtar archive file (golang.org/x/tools/txtar's
// format: a comment, then "-- NAME --" lines each opening a file) under dir, each file's
// text with every old string of replacements (old, new, old, new...) replaced; a file
// named *.sh is executable.
func WriteTxtar(t T, file, dir string, replacements ...string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("bazeltest: %v", err)
	}
	files, err := parseTxtar(string(b))
	if err != nil {
		t.Fatalf("bazeltest: %s: %v", file, err)
	}
	r := strings.NewReplacer(replacements...)
	for _, f := range files {
		WriteFile(t, filepath.Join(dir, f.name), r.Replace(f.text))
	}
}

type txtarFile struct{ name, text string }

// parseTxtar splits a txtar archive into its files (the comment before the first one is
// dropped); names must be relative and stay below the directory.
func parseTxtar(s string) ([]txtarFile, error) {
	var files []txtarFile
	for line := range strings.Lines(s) {
		l := strings.TrimRight(line, "\n")
		if name, ok := strings.CutPrefix(l, "-- "); ok && strings.HasSuffix(name, " --") {
			name = strings.TrimSpace(strings.TrimSuffix(name, " --"))
			if name == "" || !filepath.IsLocal(name) {
				return nil, fmt.Errorf("file name %q: want a relative path below the directory", name)
			}
			files = append(files, txtarFile{name: name})
			continue
		}
		if len(files) > 0 {
			files[len(files)-1].text += line
		}
	}
	return files, nil
}

// WriteFile writes text to path (directories created; a *.sh file executable).
func WriteFile(t T, path, text string) {
	t.Helper()
	perm := fs.FileMode(0o644)
	if strings.HasSuffix(path, ".sh") {
		perm = 0o755
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatalf("bazeltest: %v", err)
	}
	if err := os.WriteFile(path, []byte(text), perm); err != nil {
		t.Fatalf("bazeltest: %v", err)
	}
}

// Kustomize is kustomize v5.8.2, the reference of the renderer: $KUSTOMIZE, else
// .bin/kustomize of the repository, installed there with `go install` when missing or of
// another version.
func Kustomize(t T, root string) string {
	t.Helper()
	if k := os.Getenv("KUSTOMIZE"); k != "" {
		return k
	}
	bin := filepath.Join(root, ".bin")
	k := filepath.Join(bin, "kustomize")
	if out, err := exec.Command(k, "version").Output(); err == nil && strings.TrimSpace(string(out)) == "v5.8.2" {
		return k
	}
	cmd := exec.Command("go", "install", "sigs.k8s.io/kustomize/kustomize/v5@v5.8.2")
	cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bazeltest: go install kustomize v5.8.2: %v\n%s", err, out)
	}
	return k
}
