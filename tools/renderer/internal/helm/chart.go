package helm

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/ignore"
	"sigs.k8s.io/kustomize/api/ifc"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// localChart is a loaded chart and where it was found.
type localChart struct {
	*chart.Chart
	// dir is the chart directory or archive.
	dir string
	// files are the absolute paths of the files it was loaded from, sorted.
	files []string
	// archive says dir is a packaged chart.
	archive bool
	// digest is the sha256 of the archive, or of the chart's file names
	// and contents.
	digest string
}

// fsLoader is a loader that can also list directories (krm's loaders can).
type fsLoader interface {
	ifc.Loader
	FS() filesys.FileSystem
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// loadChart reads the chart named by c from home: the directory <name>, as
// kustomize requires, or else a packaged chart <name>-<version>.tgz or
// <name>.tgz (what `helm package` writes, e.g. from another Bazel rule).
// The chart is read from ldr's file system without the load restrictor, as
// kustomize's helm reads it: chartHome may be outside the kustomization root
// (a shared directory of charts). Under Bazel that file system holds only
// the declared inputs. A chart that is not there is an error that says how
// to vendor it: builds never pull charts.
func loadChart(ldr ifc.Loader, home string, c types.HelmChart) (*localChart, error) {
	fl, ok := ldr.(fsLoader)
	if !ok {
		return nil, fmt.Errorf("helm chart %q: the loader cannot list chart directories", c.Name)
	}
	fs := fl.FS()
	dir := filepath.Join(home, c.Name)
	if fs.IsDir(dir) {
		return loadDir(ldr, fs, dir)
	}
	var archives []string
	if c.Version != "" {
		archives = append(archives, filepath.Join(home, fmt.Sprintf("%s-%s.tgz", c.Name, c.Version)))
	}
	archives = append(archives, dir+".tgz")
	for _, a := range archives {
		if fs.Exists(a) && !fs.IsDir(a) {
			return loadArchive(ldr, fs, a)
		}
	}
	return nil, notVendored(ldr, home, c)
}

func loadDir(ldr ifc.Loader, fs filesys.FileSystem, dir string) (*localChart, error) {
	rules := ignore.Empty()
	if b, err := readIfExists(ldr, fs, filepath.Join(dir, ignore.HelmIgnore)); err != nil {
		return nil, err
	} else if b != nil {
		if rules, err = ignore.Parse(bytes.NewReader(b)); err != nil {
			return nil, fmt.Errorf("%s: %w", ignore.HelmIgnore, err)
		}
	}
	rules.AddDefaults()
	lc := &localChart{dir: dir}
	var files []*loader.BufferedFile
	err := walkChart(fs, dir, func(path string, fi os.FileInfo) error {
		name, _ := filepath.Rel(dir, path)
		if name == "." {
			return nil
		}
		name = filepath.ToSlash(name)
		if fi.IsDir() {
			if rules.Ignore(name, fi) {
				return filepath.SkipDir
			}
			return nil
		}
		if rules.Ignore(name, fi) {
			return nil
		}
		// Helm's message; reading a FIFO or a device would block or never end.
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("cannot load irregular file %s as it has file mode type bits set", path)
		}
		data, err := readFile(ldr, fs, path)
		if err != nil {
			return err
		}
		lc.files = append(lc.files, path)
		files = append(files, &loader.BufferedFile{Name: name, Data: bytes.TrimPrefix(data, utf8BOM)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading helm chart %s: %w", relPath(ldr.Root(), dir), err)
	}
	if lc.Chart, err = loader.LoadFiles(files); err != nil {
		return nil, fmt.Errorf("loading helm chart %s: %w", relPath(ldr.Root(), dir), err)
	}
	sum := sha256.New()
	for _, f := range files {
		fmt.Fprintf(sum, "%s\x00%x\x00", f.Name, sha256.Sum256(f.Data))
	}
	lc.digest = fmt.Sprintf("%x", sum.Sum(nil))
	return lc, nil
}

// maxLinks bounds how many symbolic links to directories a chart walk
// follows one inside another, as the OS's limit ends Helm's walk of links.
const maxLinks = 40

// walkChart calls fn for dir and everything below it, in lexical order, as
// Helm's loader walks a chart directory (its sympath.Walk, which kustomize's
// helm uses): dir and every symbolic link in it, to a file or a directory,
// are followed and visited under their own path, with the information of
// what they lead to. A link to a directory that contains it is an error
// (helm would walk it until the OS refuses).
func walkChart(fs filesys.FileSystem, dir string, fn func(path string, fi os.FileInfo) error) error {
	real, f, err := fs.CleanedAbs(dir)
	if err != nil {
		return err
	}
	if f != "" {
		return fmt.Errorf("'%s' is not a directory", dir)
	}
	return walkLinked(fs, dir, string(real), []filesys.ConfirmedDir{real}, fn)
}

// walkLinked walks real (a path whose links are resolved) under the name
// path; entered are the directories the links followed so far lead to.
func walkLinked(fs filesys.FileSystem, path, real string, entered []filesys.ConfirmedDir, fn func(string, os.FileInfo) error) error {
	return fs.Walk(real, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(real, p)
		if err != nil {
			return err
		}
		at := filepath.Join(path, rel)
		if fi.Mode()&os.ModeSymlink == 0 {
			return fn(at, fi)
		}
		d, f, err := fs.CleanedAbs(p)
		if err != nil {
			return fmt.Errorf("following symbolic link %s: %w", at, err)
		}
		if f != "" {
			return walkLinked(fs, at, d.Join(f), entered, fn)
		}
		if filesys.ConfirmedDir(filepath.Dir(p)).HasPrefix(d) || slices.ContainsFunc(entered, func(e filesys.ConfirmedDir) bool { return e.HasPrefix(d) }) {
			return fmt.Errorf("%s is a symbolic link to a directory that contains it (%s)", at, d)
		}
		if len(entered) > maxLinks {
			return fmt.Errorf("%s: more than %d symbolic links to directories inside one another", at, maxLinks)
		}
		return walkLinked(fs, at, string(d), append(slices.Clip(entered), d), fn)
	})
}

func loadArchive(ldr ifc.Loader, fs filesys.FileSystem, path string) (*localChart, error) {
	b, err := readFile(ldr, fs, path)
	if err != nil {
		return nil, err
	}
	ch, err := loader.LoadArchive(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("loading helm chart %s: %w", relPath(ldr.Root(), path), err)
	}
	return &localChart{Chart: ch, dir: path, files: []string{path}, archive: true, digest: fmt.Sprintf("%x", sha256.Sum256(b))}, nil
}

func readIfExists(ldr ifc.Loader, fs filesys.FileSystem, path string) ([]byte, error) {
	if !fs.Exists(path) {
		return nil, nil
	}
	return readFile(ldr, fs, path)
}

// readFile reads a chart file from fs, past the load restrictor, and
// records it as the step's input when ldr records them (provenance).
func readFile(ldr ifc.Loader, fs filesys.FileSystem, path string) ([]byte, error) {
	b, err := fs.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if rec, ok := ldr.(load.FileRecorder); ok {
		rec.RecordFile(path, b)
	}
	return b, nil
}

// notVendored is the error for a chart that is not in chartHome. Without a
// repo it is kustomize's message; with one, kustomize would pull it, which a
// hermetic build never does, so the message says how to vendor it.
func notVendored(ldr ifc.Loader, home string, c types.HelmChart) error {
	rel := relPath(ldr.Root(), home)
	if c.Repo == "" {
		// kustomize's message (its path is always empty), then where krm looked.
		return fmt.Errorf("no repo specified for pull, no chart found at '': helm chart %q is neither a directory %s "+
			"nor a packaged chart %s.tgz", c.Name, filepath.Join(rel, c.Name), filepath.Join(rel, c.Name))
	}
	pull := fmt.Sprintf("helm pull --untar --untardir %s --repo %s %s", rel, c.Repo, c.Name)
	if strings.HasPrefix(c.Repo, "oci://") {
		pull = fmt.Sprintf("helm pull --untar --untardir %s %s/%s", rel, strings.TrimSuffix(c.Repo, "/"), c.Name)
	}
	if c.Version != "" {
		pull += " --version " + c.Version
	}
	return fmt.Errorf("%w: helm chart %q from %s is not vendored: found neither %s/%s/ nor a packaged chart there; "+
		"vendor it with `%s` (and list its files in srcs under Bazel), or fetch it with a Bazel repository rule that checks its sha256",
		load.ErrRemote, c.Name, c.Repo, rel, c.Name, pull)
}

// relPath is path relative to root when it is below it (messages never show
// the absolute paths of a sandbox).
func relPath(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}
