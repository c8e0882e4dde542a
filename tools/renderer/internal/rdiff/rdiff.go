// Package rdiff compares two rendered manifest sets object by object, for
// `krm diff OLD NEW`: two YAML streams, or two directories whose files are
// matched by relative path (a file on one side only has all its objects
// added or removed). Objects are keyed by group, kind, namespace and name.
//
// Rules:
//   - A changed object lists each differing field as a path, such as
//     spec.template.spec.containers[name=web].image. Lists whose items all
//     carry a distinct name (else containerPort, port, mountPath) are matched
//     by it, other lists by index. Multi-line strings get a line diff.
//   - A ConfigMap or Secret whose name differs only by kustomize's hash
//     suffix (a dash and ten characters of "bcdfghkmt2456789") from a removed
//     one of the same kind, namespace and base name (and origin, when both
//     carry provenance) is one renamed object. Fields of other objects whose
//     only change is the old name becoming the new are listed under it as
//     references, not as changes of their own.
//   - Secret values are never output, wherever package secretdata finds them
//     (a Secret's data and stringData, for a kind Secret in any case, in lists
//     and inside other objects; the annotations that copy a Secret; strings
//     that hold one): such a field is only named, with Redacted set, and lists
//     under it are matched by index (a path [name=VALUE] would print a value).
//   - A list (kind List or KINDList, with items) counts as its items; an item
//     without a kind is of the list's (a SecretList's items are Secrets). A
//     mapping that repeats a key is malformed input.
//   - krm's provenance annotations are not compared; the origin annotation
//     names the object's source (Object.Origin).
//
// Report is also the JSON output (krm diff --output json), version 1:
//
//	{
//	  "version": 1,
//	  "old": "OLD", "new": "NEW",          // the arguments
//	  "added": 0, "removed": 0, "changed": 0,  // objects, all files
//	  "files": [{                          // files with differences, by path
//	    "path": "prod.yaml",               // relative path; "" comparing two files
//	    "status": "changed",               // "added", "removed" (file on one side) or "changed"
//	    "added": 0, "removed": 0, "changed": 0,
//	    "objects": [{                      // by kind, group, namespace, name
//	      "change": "changed",             // "added", "removed" or "changed"
//	      "group": "apps", "kind": "Deployment", "namespace": "prod", "name": "web",
//	      "oldName": "cfg-5fb7k9h2bd",     // a paired generator rename: the old name
//	      "origin": "base/deploy.yaml",    // with provenance: source file, or "GENERATOR in FILE"
//	      "fields": [{                     // a changed object's differences
//	        "path": "spec.replicas",
//	        "change": "changed",           // "added", "removed", "changed" or "reordered"
//	        "old": 2, "new": 3,            // JSON values; absent when absent or redacted
//	        "lines": ["@@ -1 +1 @@", "-a", "+b"],  // multi-line strings, instead of old/new
//	        "redacted": true               // Secret data: no values
//	      }],
//	      "references": [{                 // a renamed object: fields that follow the rename
//	        "group": "apps", "kind": "Deployment", "namespace": "prod", "name": "web",
//	        "path": "spec.template.spec.volumes[name=cfg].configMap.name"
//	      }]
//	    }]
//	  }]
//	}
//
// A "reordered" field is a named list whose common items changed order; its
// old and new are the item names in order. Paths write keys that are not
// plain ([A-Za-z0-9_-]) as ["key"] and list items as [KEY=VALUE] or [INDEX].
package rdiff

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sync"
)

// Report is the difference between two inputs.
type Report struct {
	Version int    `json:"version"`
	Old     string `json:"old"`
	New     string `json:"new"`
	Counts
	Files []File `json:"files"`
}

// Counts are objects added, removed and changed.
type Counts struct {
	Added   int `json:"added"`
	Removed int `json:"removed"`
	Changed int `json:"changed"`
}

func (c *Counts) add(change string) {
	switch change {
	case Added:
		c.Added++
	case Removed:
		c.Removed++
	default:
		c.Changed++
	}
}

// File is the difference of one file pair.
type File struct {
	Path   string `json:"path"`
	Status string `json:"status"`
	Counts
	Objects []Object `json:"objects"`
}

// Object is one added, removed or changed object.
type Object struct {
	Change string `json:"change"`
	ID
	OldName    string      `json:"oldName,omitempty"`
	Origin     string      `json:"origin,omitempty"`
	Fields     []Field     `json:"fields,omitempty"`
	References []Reference `json:"references,omitempty"`
}

// Reference is a field of another object that only follows a rename.
type Reference struct {
	ID
	Path string `json:"path"`
}

// Empty reports whether the inputs have no differences.
func (r *Report) Empty() bool { return len(r.Files) == 0 }

// Paths compares two files or two directories.
func Paths(oldPath, newPath string) (*Report, error) {
	oi, err := os.Stat(oldPath)
	if err != nil {
		return nil, err
	}
	ni, err := os.Stat(newPath)
	if err != nil {
		return nil, err
	}
	r := &Report{Version: 1, Old: oldPath, New: newPath, Files: []File{}}
	switch {
	case !oi.IsDir() && !ni.IsDir():
		if err := r.addPair("", oldPath, newPath); err != nil {
			return nil, err
		}
	case oi.IsDir() && ni.IsDir():
		if err := r.addDirs(oldPath, newPath); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%s and %s: compare two files or two directories", oldPath, newPath)
	}
	r.total()
	return r, nil
}

// Streams compares two YAML streams held in memory (such as live objects
// and what an apply would make of them), named oldName and newName in the
// report, as one file pair.
func Streams(oldName, newName string, oldData, newData []byte) (*Report, error) {
	oldObjs, err := parse(oldData)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", oldName, err)
	}
	newObjs, err := parse(newData)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", newName, err)
	}
	r := &Report{Version: 1, Old: oldName, New: newName, Files: []File{}}
	r.addObjects("", Changed, oldObjs, newObjs)
	r.total()
	return r, nil
}

// addDirs compares the manifest files (.yaml, .yml) below two directories.
func (r *Report) addDirs(oldDir, newDir string) error {
	oldFiles, err := manifestFiles(oldDir)
	if err != nil {
		return err
	}
	newFiles, err := manifestFiles(newDir)
	if err != nil {
		return err
	}
	all := map[string]bool{}
	for p := range oldFiles {
		all[p] = true
	}
	for p := range newFiles {
		all[p] = true
	}
	paths := make([]string, 0, len(all))
	for p := range all {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		var o, n string
		if oldFiles[p] {
			o = filepath.Join(oldDir, p)
		}
		if newFiles[p] {
			n = filepath.Join(newDir, p)
		}
		if err := r.addPair(p, o, n); err != nil {
			return err
		}
	}
	return nil
}

// manifestFiles lists the YAML files below dir by slash-separated relative
// path. Links are followed for files, not for directories (a bazel-bin
// tree's runfiles would repeat it); a link given as dir is followed.
func manifestFiles(dir string) (map[string]bool, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	files := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ext := filepath.Ext(p)
		if d.IsDir() || (ext != ".yaml" && ext != ".yml") {
			return nil
		}
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = true
		return nil
	})
	return files, err
}

// addPair compares one file pair; an empty path is a missing file.
func (r *Report) addPair(rel, oldPath, newPath string) error {
	var oldObjs, newObjs []object
	var err error
	if oldPath != "" {
		if oldObjs, err = readFile(oldPath); err != nil {
			return err
		}
	}
	if newPath != "" {
		if newObjs, err = readFile(newPath); err != nil {
			return err
		}
	}
	status := Changed
	switch {
	case oldPath == "":
		status = Added
	case newPath == "":
		status = Removed
	}
	r.addObjects(rel, status, oldObjs, newObjs)
	return nil
}

// addObjects adds the differences of one file pair, if any.
func (r *Report) addObjects(rel, status string, oldObjs, newObjs []object) {
	f := File{Path: rel, Status: status, Objects: compare(oldObjs, newObjs)}
	for _, o := range f.Objects {
		f.add(o.Change)
	}
	if len(f.Objects) > 0 {
		r.Files = append(r.Files, f)
	}
}

// total sets the report's counts from its files'.
func (r *Report) total() {
	r.Counts = Counts{}
	for _, f := range r.Files {
		r.Added += f.Added
		r.Removed += f.Removed
		r.Changed += f.Changed
	}
}

// hashSuffix is kustomize's name hash: a dash and ten characters of its
// alphabet (api/hasher's encode maps hex digits 0, 1, 3, a, e to g, h, k,
// m, t so that the hash never spells words).
var hashSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+)-[bcdfghkmt2456789]{10}$`) })

// baseName is name without kustomize's hash suffix, or "" when it has none.
func baseName(name string) string {
	if m := hashSuffix().FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return ""
}

// compare diffs the objects of two files.
func compare(oldObjs, newObjs []object) []Object {
	oldByID := map[ID]object{}
	for _, o := range oldObjs {
		oldByID[o.id] = o
	}
	newByID := map[ID]object{}
	for _, o := range newObjs {
		newByID[o.id] = o
	}
	var out []Object
	renamed := pairRenames(oldObjs, newObjs, oldByID, newByID)
	// byNames finds the rename a reference follows: old name, new name.
	byNames := map[[2]string]int{}
	for i, p := range renamed {
		out = append(out, Object{Change: Changed, ID: p.new.id, OldName: p.old.id.Name, Origin: p.new.origin})
		byNames[[2]string{p.old.id.Name, p.new.id.Name}] = i
	}
	for i, p := range renamed {
		fields := diffObjects(p.old, p.new)
		out[i].Fields = withoutName(fields)
	}
	for _, o := range oldObjs {
		if _, ok := newByID[o.id]; !ok && !isPaired(renamed, o.id, true) {
			out = append(out, Object{Change: Removed, ID: o.id, Origin: o.origin})
		}
	}
	for _, n := range newObjs {
		o, ok := oldByID[n.id]
		if !ok {
			if !isPaired(renamed, n.id, false) {
				out = append(out, Object{Change: Added, ID: n.id, Origin: n.origin})
			}
			continue
		}
		var own []Field
		for _, f := range diffObjects(o, n) {
			if i, ok := byNames[[2]string{f.oldText, f.newText}]; ok && f.strings {
				out[i].References = append(out[i].References, Reference{ID: n.id, Path: f.Path})
				continue
			}
			own = append(own, f)
		}
		if len(own) > 0 {
			out = append(out, Object{Change: Changed, ID: n.id, Origin: n.origin, Fields: own})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID.less(out[j].ID) })
	for i := range out {
		refs := out[i].References
		sort.SliceStable(refs, func(a, b int) bool {
			if refs[a].ID != refs[b].ID {
				return refs[a].ID.less(refs[b].ID)
			}
			return refs[a].Path < refs[b].Path
		})
	}
	return out
}

// withoutName drops metadata.name: a rename is Object.OldName.
func withoutName(fields []Field) []Field {
	var out []Field
	for _, f := range fields {
		if f.Path != "metadata.name" {
			out = append(out, f)
		}
	}
	return out
}

type renamePair struct{ old, new object }

func isPaired(pairs []renamePair, id ID, old bool) bool {
	for _, p := range pairs {
		if (old && p.old.id == id) || (!old && p.new.id == id) {
			return true
		}
	}
	return false
}

// pairRenames pairs a removed and an added ConfigMap or Secret with the same
// hash-less name, kind and namespace, when exactly one of each has it (and
// their origins agree when both are known).
func pairRenames(oldObjs, newObjs []object, oldByID, newByID map[ID]object) []renamePair {
	type slot struct {
		old, new []object
	}
	slots := map[ID]*slot{}
	var order []ID
	at := func(o object) *slot {
		if o.id.Group != "" || (o.id.Kind != "ConfigMap" && o.id.Kind != "Secret") {
			return nil
		}
		base := baseName(o.id.Name)
		if base == "" {
			return nil
		}
		k := o.id
		k.Name = base
		if slots[k] == nil {
			slots[k] = &slot{}
			order = append(order, k)
		}
		return slots[k]
	}
	for _, o := range oldObjs {
		if _, kept := newByID[o.id]; !kept {
			if s := at(o); s != nil {
				s.old = append(s.old, o)
			}
		}
	}
	for _, n := range newObjs {
		if _, kept := oldByID[n.id]; !kept {
			if s := at(n); s != nil {
				s.new = append(s.new, n)
			}
		}
	}
	var pairs []renamePair
	for _, k := range order {
		s := slots[k]
		if len(s.old) != 1 || len(s.new) != 1 {
			continue
		}
		if o, n := s.old[0].origin, s.new[0].origin; o != "" && n != "" && o != n {
			continue
		}
		pairs = append(pairs, renamePair{s.old[0], s.new[0]})
	}
	return pairs
}
