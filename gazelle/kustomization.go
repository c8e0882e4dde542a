package gazelle

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"go.starlark.net/syntax"
	"go.yaml.in/yaml/v3"

	"github.com/rules-krm/rules_krm/internal/kustref"
)

// kustomizationFile is the name of the kustomization file in dir (repo-relative, "" for the
// root) under root, or "" when there is none.
func kustomizationFile(root, dir string) string {
	for _, name := range kustref.FileNames() {
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir), name)); err == nil && fi.Mode().IsRegular() {
			return name
		}
	}
	return ""
}

// reads is what one kustomization reads: its kind, the files it names and the kustomization
// directories it names. Paths are repo-relative and slash-separated.
type reads struct {
	kind string
	// buildMetadata is set when the file's buildMetadata lists anything: the target then
	// reads its bases' snapshots with origins (build_metadata = True).
	buildMetadata bool
	// openapi is set when the file sets openapi: the targets whose tree includes it render
	// their bases from sources (openapi = True).
	openapi bool
	// helmInheritsNamespace is set when a helmCharts entry has no namespace and the file
	// sets none: the chart gets the namespace of the kustomization including it, so the
	// targets including it render it from sources (helm_inherits_namespace = True).
	helmInheritsNamespace bool
	// helmCharts is set when the file inflates helm charts: a Kustomization then says
	// kind = "Kustomization", so that the targets including it know it is no component
	// (whose charts would inflate in their own actions) and run the lean renderer.
	helmCharts bool
	// files are existing regular files, the kustomization file included; sorted.
	files []string
	// dirs are directories holding a kustomization (bases, components, directories of
	// generator or transformer configs); sorted.
	dirs []string
	// standalone is false for a Component that kustomize cannot build alone: it patches,
	// scales or reads replacement sources from objects it does not have itself.
	standalone bool
	// warnings are the trouble found (a missing file, a remote base), logged when gazelle
	// generates the package; err is set when the file does not parse.
	warnings []string
	err      error
}

// reader collects what one kustomization reads. Trouble that leaves a kustomization
// renderable without gazelle's help (a missing file, a remote base) is logged, not fatal:
// the render then reports it as kustomize would.
type reader struct {
	root     string // repository root (OS path)
	dir      string // kustomization directory, repo-relative ("" for the root)
	file     string // its kustomization file, repo-relative
	warnings []string

	files map[string]bool
	dirs  map[string]bool
}

// readKustomization parses the kustomization file name in dir and lists what it reads.
func readKustomization(root, dir, name string) reads {
	r := &reader{root: root, dir: dir, file: path.Join(dir, name), files: map[string]bool{}, dirs: map[string]bool{}}
	content, err := os.ReadFile(r.osPath(r.file))
	if err != nil {
		return reads{err: err}
	}
	k, err := kustref.Parse(content)
	if err != nil {
		return reads{err: fmt.Errorf("%s: %w", r.file, err)}
	}
	r.files[r.file] = true
	r.read(k)
	out := reads{kind: k.Kind, buildMetadata: len(k.BuildMetadata) != 0, openapi: len(k.OpenAPI) != 0, files: sortedKeys(r.files), dirs: sortedKeys(r.dirs), standalone: true, warnings: r.warnings}
	out.helmInheritsNamespace = k.InheritsHelmNamespace()
	out.helmCharts = len(k.HelmCharts) != 0
	if k.Kind == componentKind {
		out.standalone = r.buildsAlone(k)
	}
	return out
}

func (r *reader) logf(format string, args ...interface{}) {
	r.warnings = append(r.warnings, fmt.Sprintf(format, args...))
}

func (r *reader) read(k *kustref.Kustomization) {
	for _, e := range k.Resources {
		r.fileOrKustomization("resources", e)
	}
	for _, e := range k.Components {
		r.fileOrKustomization("components", e)
	}
	for _, e := range k.Crds {
		r.addFile("crds", e)
	}
	for _, e := range k.Configurations {
		r.addFile("configurations", e)
	}
	if p, ok := k.OpenAPI["path"]; ok {
		r.addFile("openapi", p)
	}
	for _, p := range k.Patches {
		r.optionalFile("patches", p.Path)
	}
	for _, p := range k.PatchesJson6902 {
		r.optionalFile("patchesJson6902", p.Path)
	}
	for _, p := range k.PatchesStrategicMerge {
		// An entry is a file, or a patch written inline.
		if !strings.Contains(p, "\n") {
			r.addFile("patchesStrategicMerge", p)
		}
	}
	for _, g := range k.ConfigMapGenerator {
		r.generatorSources("configMapGenerator", g)
	}
	for _, g := range k.SecretGenerator {
		r.generatorSources("secretGenerator", g)
	}
	for _, rp := range k.Replacements {
		r.optionalFile("replacements", rp.Path)
	}
	for _, field := range []struct {
		name    string
		entries []string
	}{{"generators", k.Generators}, {"transformers", k.Transformers}, {"validators", k.Validators}} {
		for _, e := range field.entries {
			r.pluginConfig(field.name, e)
		}
	}
	r.helm(k)
}

// generatorSources adds the files of a configMapGenerator or secretGenerator entry.
func (r *reader) generatorSources(field string, g kustref.GeneratorArgs) {
	for _, f := range g.FileSources {
		// "key=path" or "path".
		if i := strings.Index(f, "="); i >= 0 {
			f = f[i+1:]
		}
		r.addFile(field, f)
	}
	for _, f := range g.EnvSources {
		r.addFile(field, f)
	}
}

// pluginConfig adds a generators/transformers/validators entry: inline YAML, a file of
// configs, or a directory whose kustomization lists configs.
func (r *reader) pluginConfig(field, entry string) {
	if strings.Contains(entry, "\n") {
		r.configFiles(field, entry, r.file)
		return
	}
	if p, ok := r.fileOrKustomization(field, entry); ok {
		if b, err := os.ReadFile(r.osPath(p)); err == nil {
			r.configFiles(field, string(b), p)
		}
	}
}

// configFiles adds the files that plugin configs refer to (relative to the kustomization):
// a StarlarkRun script and the .star files it loads; builtin plugins' path, paths, files,
// envs and env, and replacements' paths.
func (r *reader) configFiles(field, content, from string) {
	nodes, err := readObjects(content)
	if err != nil {
		r.logf("%s: %s: cannot parse %s: %v", r.file, field, from, err)
		return
	}
	for _, n := range nodes {
		kind := objectKind(n)
		at := fmt.Sprintf("%s (%s %s in %s)", field, kind, objectName(n), from)
		for _, key := range []string{"path", "env"} {
			if v := stringField(n, key); v != "" {
				if kind == "StarlarkRun" && key == "path" {
					r.starlarkScript(at, v)
				} else {
					r.addFile(at, v)
				}
			}
		}
		for _, key := range []string{"paths", "files", "envs"} {
			for _, v := range stringsField(n, key) {
				if i := strings.Index(v, "="); key == "files" && i >= 0 {
					v = v[i+1:]
				}
				r.addFile(at, v)
			}
		}
		if reps := lookup(n, "replacements"); reps != nil && reps.Kind == yaml.SequenceNode {
			for _, e := range reps.Content {
				if v := stringField(e, "path"); v != "" {
					r.addFile(at, v)
				}
			}
		}
	}
}

// starlarkScript adds a StarlarkRun script and, transitively, the .star files it loads
// (paths relative to the loading file; the built-in modules and the rules_krm library
// are part of krm).
func (r *reader) starlarkScript(at, entry string) {
	p, ok := r.local(at, entry)
	if !ok || !r.addExisting(at, entry, p) {
		return
	}
	todo := []string{p}
	for len(todo) > 0 {
		script := todo[0]
		todo = todo[1:]
		f, err := (&syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}).Parse(script, readFile(r.osPath(script)), 0)
		if err != nil {
			r.logf("%s: %s: %v", r.file, at, err)
			continue
		}
		for _, stmt := range f.Stmts {
			load, ok := stmt.(*syntax.LoadStmt)
			if !ok {
				continue
			}
			module, _ := load.Module.Value.(string)
			if starlarkBuiltin(module) {
				continue
			}
			dep := path.Clean(path.Join(path.Dir(script), strings.TrimPrefix(module, ":")))
			if !r.files[dep] && r.addExisting(at, module, dep) {
				todo = append(todo, dep)
			}
		}
	}
}

func starlarkBuiltin(module string) bool {
	return module == "encoding/json.star" || module == "math.star" ||
		strings.HasPrefix(module, "@") || strings.HasPrefix(module, "//")
}

func readFile(p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	return b
}

// helm adds the charts (every file under chartHome/NAME, chartHome defaulting to "charts")
// and values files of helmCharts.
func (r *reader) helm(k *kustref.Kustomization) {
	if len(k.HelmCharts) == 0 {
		return
	}
	home := "charts"
	if k.HelmGlobals != nil && k.HelmGlobals.ChartHome != "" {
		home = k.HelmGlobals.ChartHome
	}
	for _, c := range k.HelmCharts {
		r.optionalFile("helmCharts", c.ValuesFile)
		for _, v := range c.AdditionalValuesFiles {
			r.addFile("helmCharts", v)
		}
		if c.Name == "" {
			continue
		}
		chart, ok := r.local("helmCharts", path.Join(home, c.Name))
		if !ok || !r.isDir(chart) {
			// Without a local chart, kustomize would pull it: only a local chart builds.
			r.logf("%s: helmCharts: chart %q is not in %s: vendor it there (helm pull --untar) to build it", r.file, c.Name, path.Join(r.dir, home))
			continue
		}
		r.chartFiles(chart, map[string]bool{})
	}
}

// chartFiles adds the regular files below the chart directory dir (repo-relative), following
// links to directories and files as kustomize (and krm's render) read a chart: each file by
// the path it is read at, through the links. A link back to a directory being walked (a
// cycle) is skipped with a warning; the render fails on it.
func (r *reader) chartFiles(dir string, walking map[string]bool) {
	real, err := filepath.EvalSymlinks(r.osPath(dir))
	if err != nil {
		return
	}
	if walking[real] {
		r.logf("%s: helmCharts: %s is a link back into its chart (a cycle): the render fails on it", r.file, dir)
		return
	}
	walking[real] = true
	defer delete(walking, real)
	entries, err := os.ReadDir(r.osPath(dir))
	if err != nil {
		return
	}
	for _, e := range entries {
		p := path.Join(dir, e.Name())
		fi, err := os.Stat(r.osPath(p)) // through a link
		switch {
		case err != nil:
		case fi.IsDir():
			r.chartFiles(p, walking)
		case fi.Mode().IsRegular():
			r.files[p] = true
		}
	}
}

// fileOrKustomization adds an entry that is a file or a directory with a kustomization
// (resources, components, generators...); it returns the file's path when it added a file.
// Remote entries are skipped with a hint.
func (r *reader) fileOrKustomization(field, entry string) (string, bool) {
	p, ok := r.local(field, entry)
	if !ok {
		return "", false
	}
	if r.isDir(p) {
		r.kustomizationDir(field, entry, p)
		return "", false
	}
	return p, r.addExisting(field, entry, p)
}

func (r *reader) kustomizationDir(field, entry, p string) {
	if kustomizationFile(r.root, p) == "" {
		r.logf("%s: %s: directory %q has no kustomization file", r.file, field, entry)
		return
	}
	r.dirs[p] = true
}

func (r *reader) optionalFile(field, entry string) {
	if entry != "" {
		r.addFile(field, entry)
	}
}

func (r *reader) addFile(field, entry string) {
	if p, ok := r.local(field, entry); ok {
		r.addExisting(field, entry, p)
	}
}

// addExisting adds the repo-relative path p of entry if it is a regular file.
func (r *reader) addExisting(field, entry, p string) bool {
	fi, err := os.Stat(r.osPath(p))
	switch {
	case err != nil:
		r.logf("%s: %s: %q does not exist", r.file, field, entry)
		return false
	case !fi.Mode().IsRegular():
		r.logf("%s: %s: %q is not a file", r.file, field, entry)
		return false
	}
	r.files[p] = true
	return true
}

// local turns an entry into a repo-relative path; false for remote entries and paths that
// leave the repository.
func (r *reader) local(field, entry string) (string, bool) {
	if kustref.IsRemote(entry) {
		r.logf("%s: %s: skipping remote %q: builds never use the network; vendor it into the repository (kustomize localize, or a copy) and name the local directory", r.file, field, entry)
		return "", false
	}
	if path.IsAbs(entry) {
		r.logf("%s: %s: %q is an absolute path; use a path relative to the kustomization", r.file, field, entry)
		return "", false
	}
	p := path.Clean(path.Join(r.dir, entry))
	if p == ".." || strings.HasPrefix(p, "../") {
		r.logf("%s: %s: %q is outside the repository", r.file, field, entry)
		return "", false
	}
	if p == "." {
		p = ""
	}
	return p, true
}

func (r *reader) isDir(p string) bool {
	fi, err := os.Stat(r.osPath(p))
	return err == nil && fi.IsDir()
}

func (r *reader) osPath(p string) string {
	return filepath.Join(r.root, filepath.FromSlash(p))
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// buildsAlone guesses whether kustomize builds a component on its own: not when a patch
// without target, a replicas entry or a replacement source names an object that is neither
// among its resource files nor generated by it. Bases of its own are assumed to hold them.
func (r *reader) buildsAlone(k *kustref.Kustomization) bool {
	if len(r.dirs) > 0 {
		return true
	}
	own := map[string]bool{} // "Kind/name" and "name"
	add := func(kind, name string) { own[kind+"/"+name], own[name] = true, true }
	for _, e := range k.Resources {
		for _, n := range r.objects(e) {
			add(objectKind(n), objectName(n))
		}
	}
	for _, g := range k.ConfigMapGenerator {
		add("ConfigMap", g.Name)
	}
	for _, g := range k.SecretGenerator {
		add("Secret", g.Name)
	}
	var needs []string
	for _, p := range k.Patches {
		if p.Target == nil {
			needs = append(needs, r.objectKeys(p.Path, p.Patch)...)
		}
	}
	for _, p := range k.PatchesStrategicMerge {
		if strings.Contains(p, "\n") {
			needs = append(needs, r.objectKeys("", p)...)
		} else {
			needs = append(needs, r.objectKeys(p, "")...)
		}
	}
	for _, rep := range k.Replicas {
		needs = append(needs, rep.Name)
	}
	for _, rep := range k.Replacements {
		if rep.Path != "" {
			// A file of replacements: any source may be missing.
			needs = append(needs, "?")
		} else if rep.Source != nil {
			needs = append(needs, rep.Source.Kind+"/"+rep.Source.Name)
		}
	}
	for _, n := range needs {
		if !own[n] {
			return false
		}
	}
	return true
}

// objects are the objects of a resource file of the kustomization (none for a directory or
// a file that does not parse).
func (r *reader) objects(entry string) []*yaml.Node {
	p, ok := path.Clean(path.Join(r.dir, entry)), !kustref.IsRemote(entry)
	if !ok || r.isDir(p) {
		return nil
	}
	b, err := os.ReadFile(r.osPath(p))
	if err != nil {
		return nil
	}
	nodes, _ := readObjects(string(b))
	return nodes
}

// objectKeys are the "Kind/name" of the objects a strategic-merge patch (a file or inline)
// applies to; "?" when it cannot be read.
func (r *reader) objectKeys(file, inline string) []string {
	var nodes []*yaml.Node
	if file != "" {
		nodes = r.objects(file)
	} else {
		nodes, _ = readObjects(inline)
	}
	var keys []string
	for _, n := range nodes {
		if n.Kind != yaml.MappingNode {
			// A JSON 6902 patch (a list of operations) without target: kustomize refuses it.
			return []string{"?"}
		}
		keys = append(keys, objectKind(n)+"/"+objectName(n))
	}
	if len(nodes) == 0 {
		keys = append(keys, "?")
	}
	return keys
}
