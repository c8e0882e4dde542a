package gazelle

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/rule"
	"github.com/bmatcuk/doublestar/v4"
)

// tree is what generating one package needs to know about the others: gazelle generates
// packages children first, but a kustomization may read files of any package. It is
// scanned once per run.
type tree struct {
	// kustomizations maps each kustomization directory gazelle generates for (not excluded,
	// krm_enabled) to its kustomization file name.
	kustomizations map[string]string
	// buildFiles holds the directories that have a BUILD file.
	buildFiles map[string]bool
	// claims maps a kustomization directory without a BUILD file of its own to the
	// existing krm_kustomization (with `dir`) that declares it in an ancestor package.
	claims map[string]claim
	// reads holds what each kustomization reads (and the trouble found reading it).
	reads map[string]reads
	// exports maps a package to its files (package-relative, sorted) that kustomizations of
	// other packages read: the package must export them.
	exports map[string][]string
}

type claim struct{ pkg, name string }

// scanTree walks the repository as gazelle does (skipping `# gazelle:exclude` patterns,
// .bazelignore entries, dot directories and directories under `krm_enabled false`).
func scanTree(root string, buildFileNames []string) *tree {
	t := &tree{kustomizations: map[string]string{}, buildFiles: map[string]bool{}, claims: map[string]claim{},
		reads: map[string]reads{}, exports: map[string][]string{}}
	excludes := bazelignore(root)
	disabled := map[string]bool{}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		rel := relSlash(root, p)
		if rel != "" && (strings.HasPrefix(d.Name(), ".") || matchesAny(excludes, rel)) {
			return filepath.SkipDir
		}
		enabled := rel == "" || !disabled[parentDir(rel)]
		if f := loadBuildFile(p, rel, buildFileNames); f != nil {
			t.buildFiles[rel] = true
			for _, dir := range f.Directives {
				switch dir.Key {
				case "exclude":
					excludes = append(excludes, path.Join(rel, dir.Value))
				case enabledDirective:
					enabled = strings.TrimSpace(dir.Value) != "false"
				}
			}
			t.addClaims(root, rel, f)
		}
		disabled[rel] = !enabled
		if enabled {
			if name := kustomizationFile(root, rel); name != "" {
				t.kustomizations[rel] = name
			}
		}
		return nil
	})
	for dir := range t.claims {
		if t.buildFiles[dir] || t.kustomizations[dir] == "" {
			delete(t.claims, dir)
		}
	}
	t.readAll(root)
	return t
}

// readAll reads every kustomization and finds the files that other packages read.
func (t *tree) readAll(root string) {
	exports := map[string]map[string]bool{}
	for dir, name := range t.kustomizations {
		rd := readKustomization(root, dir, name)
		t.reads[dir] = rd
		pkg := t.packageOf(path.Join(dir, name))
		for _, f := range rd.files {
			if owner := t.packageOf(f); owner != pkg {
				if exports[owner] == nil {
					exports[owner] = map[string]bool{}
				}
				exports[owner][relTo(owner, f)] = true
			}
		}
	}
	for pkg, files := range exports {
		t.exports[pkg] = sortedKeys(files)
	}
}

// addClaims records the kustomization directories that the krm_kustomization rules of f
// declare with `dir`.
func (t *tree) addClaims(root, pkg string, f *rule.File) {
	for _, r := range f.Rules {
		if r.Kind() != kustomizationKind {
			continue
		}
		if dir := joinRel(pkg, r.AttrString("dir")); dir != pkg {
			t.claims[dir] = claim{pkg: pkg, name: r.Name()}
		}
	}
}

// isPackage reports whether dir is (or gazelle makes it) a Bazel package.
func (t *tree) isPackage(dir string) bool {
	if t.buildFiles[dir] {
		return true
	}
	_, claimed := t.claims[dir]
	return t.kustomizations[dir] != "" && !claimed
}

// packageOf is the package that owns the repo-relative file p.
func (t *tree) packageOf(p string) string {
	for dir := parentDir(p); ; dir = parentDir(dir) {
		if dir == "" || t.isPackage(dir) {
			return dir
		}
	}
}

// kustomizationsOf lists the kustomization directories that package pkg declares: its own
// and those its existing rules declare with `dir`.
func (t *tree) kustomizationsOf(pkg string) []string {
	var dirs []string
	if _, claimed := t.claims[pkg]; t.kustomizations[pkg] != "" && !claimed {
		dirs = append(dirs, pkg)
	}
	for dir, c := range t.claims {
		if c.pkg == pkg {
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

func loadBuildFile(dir, rel string, names []string) *rule.File {
	for _, name := range names {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			continue
		}
		f, err := rule.LoadFile(p, rel)
		if err != nil {
			return nil
		}
		return f
	}
	return nil
}

func bazelignore(root string) []string {
	b, err := os.ReadFile(filepath.Join(root, ".bazelignore"))
	if err != nil {
		return nil
	}
	var out []string
	s := bufio.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		line := strings.TrimSuffix(strings.TrimSpace(s.Text()), "/")
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

func matchesAny(patterns []string, rel string) bool {
	for _, p := range patterns {
		if ok, _ := doublestar.Match(p, rel); ok {
			return true
		}
	}
	return false
}

// parentDir is the repo-relative parent of p ("" for the root and its entries).
func parentDir(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i]
	}
	return ""
}

// joinRel joins a package and a relative directory into a clean repo-relative path.
func joinRel(pkg, dir string) string {
	p := path.Clean(path.Join(pkg, dir))
	if p == "." {
		return ""
	}
	return p
}

func relSlash(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
}
