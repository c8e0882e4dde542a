package rdiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// The oracle: an independent structural comparison of two manifest sets.
// It reads objects through sigs.k8s.io/yaml (YAML to JSON to Go values, not
// kyaml's nodes), walks both generically and lists every differing leaf path
// in the notation of the package doc. It knows no renames: the test checks
// those explicitly.

type oracleObj = map[string]any

// oracleRead splits a stream at document separators and keys each object.
func oracleRead(t *testing.T, path string) map[ID]oracleObj {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	objs := map[ID]oracleObj{}
	for _, doc := range strings.Split("\n"+string(data), "\n---\n") {
		var o oracleObj
		if err := yaml.Unmarshal([]byte(doc), &o); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if o == nil {
			continue
		}
		meta, _ := o["metadata"].(map[string]any)
		group, _, ok := strings.Cut(fmt.Sprint(o["apiVersion"]), "/")
		if !ok {
			group = ""
		}
		ns, _ := meta["namespace"].(string)
		name, _ := meta["name"].(string)
		objs[ID{Group: group, Kind: fmt.Sprint(o["kind"]), Namespace: ns, Name: name}] = o
	}
	return objs
}

// oracleDiff returns the differing paths of two values.
func oracleDiff(path string, a, b any, out map[string]bool) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			out[path] = true
			return
		}
		for k, av := range x {
			p := oracleKey(path, k)
			if bv, ok := y[k]; ok {
				oracleDiff(p, av, bv, out)
			} else {
				out[p] = true
			}
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				out[oracleKey(path, k)] = true
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok {
			out[path] = true
			return
		}
		oracleList(path, x, y, out)
	default:
		if !reflect.DeepEqual(a, b) {
			out[path] = true
		}
	}
}

func oracleList(path string, x, y []any, out map[string]bool) {
	for _, key := range []string{"name", "containerPort", "port", "mountPath"} {
		xn, yn := oracleNames(x, key), oracleNames(y, key)
		if xn == nil || yn == nil || len(x)+len(y) == 0 {
			continue
		}
		var xo, yo []string
		for n, v := range xn {
			p := path + "[" + key + "=" + oracleValue(n) + "]"
			if w, ok := yn[n]; ok {
				oracleDiff(p, v.v, w.v, out)
				xo = append(xo, n)
			} else {
				out[p] = true
			}
		}
		for n := range yn {
			if _, ok := xn[n]; ok {
				yo = append(yo, n)
			} else {
				out[path+"["+key+"="+oracleValue(n)+"]"] = true
			}
		}
		// Common items in order: a change of order is a difference at the list.
		sort.Slice(xo, func(i, j int) bool { return xn[xo[i]].i < xn[xo[j]].i })
		sort.Slice(yo, func(i, j int) bool { return yn[yo[i]].i < yn[yo[j]].i })
		if !reflect.DeepEqual(xo, yo) {
			out[path] = true
		}
		return
	}
	for i := 0; i < len(x) || i < len(y); i++ {
		p := path + "[" + strconv.Itoa(i) + "]"
		if i < len(x) && i < len(y) {
			oracleDiff(p, x[i], y[i], out)
		} else {
			out[p] = true
		}
	}
}

type oracleItem struct {
	i int
	v any
}

// oracleNames maps each item's key to it, or nil unless all items have a
// distinct scalar key.
func oracleNames(items []any, key string) map[string]oracleItem {
	names := map[string]oracleItem{}
	for i, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil
		}
		v, ok := m[key]
		if !ok {
			return nil
		}
		switch v.(type) {
		case map[string]any, []any, nil:
			return nil
		}
		n := fmt.Sprint(v)
		if _, dup := names[n]; dup {
			return nil
		}
		names[n] = oracleItem{i, it}
	}
	return names
}

func oracleKey(path, k string) string {
	for _, r := range k {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return path + "[" + strconv.Quote(k) + "]"
		}
	}
	if k == "" {
		return path + `[""]`
	}
	if path == "" {
		return k
	}
	return path + "." + k
}

func oracleValue(v string) string {
	for _, r := range v {
		if !(strings.ContainsRune("_./:-", r) || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return strconv.Quote(v)
		}
	}
	return v
}

// oraclePair compares two files (either may be "", absent) and returns the
// added and removed IDs and the changed paths by ID.
func oraclePair(t *testing.T, oldPath, newPath string) (added, removed map[ID]bool, changed map[ID]map[string]bool, oldObjs, newObjs map[ID]oracleObj) {
	oldObjs, newObjs = map[ID]oracleObj{}, map[ID]oracleObj{}
	if oldPath != "" {
		oldObjs = oracleRead(t, oldPath)
	}
	if newPath != "" {
		newObjs = oracleRead(t, newPath)
	}
	added, removed, changed = map[ID]bool{}, map[ID]bool{}, map[ID]map[string]bool{}
	for id, o := range oldObjs {
		n, ok := newObjs[id]
		if !ok {
			removed[id] = true
			continue
		}
		paths := map[string]bool{}
		oracleDiff("", o, n, paths)
		if len(paths) > 0 {
			changed[id] = paths
		}
	}
	for id := range newObjs {
		if _, ok := oldObjs[id]; !ok {
			added[id] = true
		}
	}
	return
}

// at reads a path of the notation from a value: enough for the paths
// references have (keys, [KEY=VALUE] and [INDEX]); nil where it leads nowhere.
func at(v any, path string) any {
	for path != "" {
		path = strings.TrimPrefix(path, ".")
		if strings.HasPrefix(path, "[") {
			end := strings.IndexByte(path, ']')
			sel := path[1:end]
			path = path[end+1:]
			items, _ := v.([]any)
			v = nil
			if key, val, ok := strings.Cut(sel, "="); ok {
				for _, it := range items {
					if m, ok := it.(map[string]any); ok && m[key] != nil && fmt.Sprint(m[key]) == val {
						v = it
					}
				}
			} else if i, err := strconv.Atoi(sel); err == nil && i >= 0 && i < len(items) {
				v = items[i]
			}
			continue
		}
		end := strings.IndexAny(path, ".[")
		if end < 0 {
			end = len(path)
		}
		m, _ := v.(map[string]any)
		v = m[path[:end]]
		path = path[end:]
	}
	return v
}

// TestOracle runs rdiff on the pairs in testdata and checks that its JSON
// names exactly the objects and field paths the oracle finds, except for
// paired renames, which it checks explicitly: the old name is removed and
// the new one added for the oracle, the fields are the oracle's diff of the
// two objects but for metadata.name, and each reference is a field whose
// old value is the old name and new value the new one.
func TestOracle(t *testing.T) {
	for _, pair := range [][2]string{
		{"testdata/examples/old", "testdata/examples/new"},
		{"testdata/web/old.yaml", "testdata/web/new.yaml"},
	} {
		t.Run(pair[0], func(t *testing.T) {
			if got := oracleCheck(t, pair); got.renames == 0 {
				t.Error("no rename in the pair: the test checks nothing of them")
			}
		})
	}
}

// TestOracleRealHistory is TestOracle on pairs of revisions from the git
// history of public trees, rendered by kustomize v5.8.2
// (testdata/real/README.md; dev/scripts/rdiff-real-pairs.sh regenerates them).
// Beyond the oracle's objects and fields, it checks that no Secret value
// reaches the JSON, and that the pairs hold each kind of change.
func TestOracleRealHistory(t *testing.T) {
	sources, err := filepath.Glob("testdata/real/*/*/SOURCE")
	if err != nil || len(sources) == 0 {
		t.Fatalf("no pairs in testdata/real: %v", err)
	}
	var all oracleCounts
	for _, src := range sources {
		dir := filepath.Dir(src)
		t.Run(strings.TrimPrefix(dir, "testdata/real/"), func(t *testing.T) {
			pair := [2]string{filepath.Join(dir, "old.yaml"), filepath.Join(dir, "new.yaml")}
			got := oracleCheck(t, pair)
			if got.added+got.removed+got.changed+got.renames == 0 {
				t.Error("the pair has no difference: it tests nothing")
			}
			all.add(got)
		})
	}
	if all.renames == 0 || all.references == 0 || all.added == 0 || all.removed == 0 || all.changed == 0 || all.redacted == 0 {
		t.Errorf("the pairs miss a kind of change (renames, references folded under one, added, removed, changed, redacted Secret fields): %+v", all)
	}
}

type oracleCounts struct{ renames, references, added, removed, changed, redacted int }

func (c *oracleCounts) add(o oracleCounts) {
	c.renames += o.renames
	c.references += o.references
	c.added += o.added
	c.removed += o.removed
	c.changed += o.changed
	c.redacted += o.redacted
}

// oracleCheck runs rdiff on a pair (two files or two directories) and
// checks its JSON against the oracle, file by file.
func oracleCheck(t *testing.T, pair [2]string) (c oracleCounts) {
	t.Helper()
	r, err := Paths(pair[0], pair[1])
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var got Report
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	files := map[string]File{}
	for _, f := range got.Files {
		files[f.Path] = f
	}
	for _, rel := range oracleFiles(t, pair) {
		oldPath, newPath := joinIf(pair[0], rel), joinIf(pair[1], rel)
		if rel == "" {
			oldPath, newPath = pair[0], pair[1]
		}
		added, removed, changed, oldObjs, newObjs := oraclePair(t, oldPath, newPath)
		name := rel
		if name == "" {
			name = pair[1]
		}
		c.renames += checkFile(t, name, files[rel], added, removed, changed, oldObjs, newObjs)
		c.redacted += checkSecrets(t, name, files[rel], buf.String(), oldObjs, newObjs)
		for _, o := range files[rel].Objects {
			c.references += len(o.References)
		}
		c.added += files[rel].Added
		c.removed += files[rel].Removed
		c.changed += files[rel].Changed
	}
	return c
}

// checkSecrets checks that each changed Secret field is redacted, carries
// no value, and that no value of a Secret that differs appears in the JSON.
func checkSecrets(t *testing.T, rel string, f File, jsonOut string, oldObjs, newObjs map[ID]oracleObj) (redacted int) {
	t.Helper()
	for _, o := range f.Objects {
		if o.ID.Kind != "Secret" || o.ID.Group != "" {
			continue
		}
		for _, fd := range o.Fields {
			if !strings.HasPrefix(fd.Path, "data") && !strings.HasPrefix(fd.Path, "stringData") {
				continue
			}
			if !fd.Redacted || fd.Old != nil || fd.New != nil || fd.Lines != nil {
				t.Errorf("%s: %s: %s is not redacted: %+v", rel, o.ID, fd.Path, fd)
			}
			redacted++
		}
		oldID := o.ID
		if o.OldName != "" {
			oldID.Name = o.OldName
		}
		for _, obj := range []oracleObj{oldObjs[oldID], newObjs[o.ID]} {
			for _, key := range []string{"data", "stringData"} {
				m, _ := obj[key].(map[string]any)
				for k, v := range m {
					if s := fmt.Sprint(v); len(s) > 3 && strings.Contains(jsonOut, s) {
						t.Errorf("%s: %s: the value of %s.%s is in the JSON", rel, o.ID, key, k)
					}
				}
			}
		}
	}
	return redacted
}

// oracleFiles lists the relative paths of a directory pair, or "" for two files.
func oracleFiles(t *testing.T, pair [2]string) []string {
	st, err := os.Stat(pair[0])
	if err != nil {
		t.Fatal(err)
	}
	if !st.IsDir() {
		return []string{""}
	}
	seen := map[string]bool{}
	for _, dir := range pair {
		names, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, n := range names {
			seen[filepath.Base(n)] = true
		}
	}
	var rels []string
	for r := range seen {
		rels = append(rels, r)
	}
	sort.Strings(rels)
	return rels
}

func joinIf(dir, rel string) string {
	p := filepath.Join(dir, rel)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

func checkFile(t *testing.T, rel string, f File, added, removed map[ID]bool, changed map[ID]map[string]bool, oldObjs, newObjs map[ID]oracleObj) (renames int) {
	t.Helper()
	gotAdded, gotRemoved, gotChanged := map[ID]bool{}, map[ID]bool{}, map[ID]map[string]bool{}
	for _, o := range f.Objects {
		switch {
		case o.Change == Added:
			gotAdded[o.ID] = true
		case o.Change == Removed:
			gotRemoved[o.ID] = true
		case o.OldName != "":
			renames++
			oldID := o.ID
			oldID.Name = o.OldName
			if !removed[oldID] || !added[o.ID] {
				t.Errorf("%s: rename %s from %s: the oracle has no removal of the old name and addition of the new", rel, o.ID, o.OldName)
			}
			if baseName(o.OldName) != baseName(o.ID.Name) || baseName(o.ID.Name) == "" {
				t.Errorf("%s: rename %s from %s: not the same name with another hash suffix", rel, o.ID, o.OldName)
			}
			delete(removed, oldID)
			delete(added, o.ID)
			want := map[string]bool{}
			oracleDiff("", oldObjs[oldID], newObjs[o.ID], want)
			delete(want, "metadata.name")
			if got := paths(o.Fields); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: renamed %s: fields %v, oracle %v", rel, o.ID, keys(got), keys(want))
			}
			for _, ref := range o.References {
				if at(oldObjs[ref.ID], ref.Path) != o.OldName || at(newObjs[ref.ID], ref.Path) != o.ID.Name {
					t.Errorf("%s: %s: %s does not go from %s to %s", rel, ref.ID, ref.Path, o.OldName, o.ID.Name)
				}
				if gotChanged[ref.ID] == nil {
					gotChanged[ref.ID] = map[string]bool{}
				}
				gotChanged[ref.ID][ref.Path] = true
			}
		default:
			if gotChanged[o.ID] == nil {
				gotChanged[o.ID] = map[string]bool{}
			}
			for p := range paths(o.Fields) {
				gotChanged[o.ID][p] = true
			}
		}
	}
	// A field that only follows a paired rename is folded under it, not a
	// change of its own object.
	for _, o := range f.Objects {
		if o.Change != Changed || o.OldName != "" {
			continue
		}
		for _, fd := range o.Fields {
			for _, r := range f.Objects {
				if r.OldName != "" && fd.Path != "metadata.name" && at(oldObjs[o.ID], fd.Path) == r.OldName && at(newObjs[o.ID], fd.Path) == r.ID.Name {
					t.Errorf("%s: %s: %s follows the rename of %s but is not folded under it", rel, o.ID, fd.Path, r.ID)
				}
			}
		}
	}
	// A generator rename left as a removal and an addition: a ConfigMap or
	// Secret removed and one added with the same hash-less name, one of each.
	hashless := func(set map[ID]bool) map[ID][]ID {
		m := map[ID][]ID{}
		for id := range set {
			if id.Group == "" && (id.Kind == "ConfigMap" || id.Kind == "Secret") && baseName(id.Name) != "" {
				k := id
				k.Name = baseName(id.Name)
				m[k] = append(m[k], id)
			}
		}
		return m
	}
	gone, come := hashless(removed), hashless(added)
	for k, r := range gone {
		if a := come[k]; len(r) == 1 && len(a) == 1 {
			t.Errorf("%s: %s and %s are not paired as a rename", rel, r[0], a[0])
		}
	}
	if !reflect.DeepEqual(gotAdded, added) || !reflect.DeepEqual(gotRemoved, removed) {
		t.Errorf("%s: added %v removed %v, oracle added %v removed %v", rel, gotAdded, gotRemoved, added, removed)
	}
	if !reflect.DeepEqual(gotChanged, changed) {
		t.Errorf("%s: changed\n%v\noracle\n%v", rel, gotChanged, changed)
	}
	return renames
}

func paths(fields []Field) map[string]bool {
	m := map[string]bool{}
	for _, f := range fields {
		m[f.Path] = true
	}
	return m
}

func keys(m map[string]bool) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}
