package load

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
)

func mustLoader(t *testing.T, fs filesys.FileSystem, dir string, r Restrictor, hint MissingHint) *Loader {
	t.Helper()
	l, err := NewLoader(fs, dir, r, hint)
	if err != nil {
		t.Fatalf("NewLoader(%s): %v", dir, err)
	}
	return l
}

func TestParseRestrictor(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Restrictor
		wantErr bool
	}{
		{"", RootOnly, false},
		{"LoadRestrictionsRootOnly", RootOnly, false},
		{"rootOnly", RootOnly, false},
		{"LoadRestrictionsNone", None, false},
		{"none", None, false},
		{"None", RootOnly, true},
		{"LoadRestrictionsnone", RootOnly, true},
		{"bogus", RootOnly, true},
	} {
		got, err := ParseRestrictor(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParseRestrictor(%q) error = %v, wantErr %v", tc.in, err, tc.wantErr)
			continue
		}
		if err != nil {
			if !strings.Contains(err.Error(), tc.in) || !strings.Contains(err.Error(), "LoadRestrictionsRootOnly") {
				t.Errorf("ParseRestrictor(%q) error %q should name the value and the valid ones", tc.in, err)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("ParseRestrictor(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestNewLoader(t *testing.T) {
	fs := krmtest.MemFS(t, map[string]string{
		"/app/kustomization.yaml": "resources: []\n",
		"/app/file.yaml":          "a: b\n",
	})
	l := mustLoader(t, fs, "/app/./sub/..", RootOnly, nil)
	if l.Root() != "/app" {
		t.Errorf("Root() = %q, want /app (cleaned)", l.Root())
	}
	if l.Repo() != "" {
		t.Errorf("Repo() = %q, want empty", l.Repo())
	}
	if err := l.Cleanup(); err != nil {
		t.Errorf("Cleanup() = %v", err)
	}
	if l.FS() != fs {
		t.Errorf("FS() is not the file system given")
	}
	for dir, want := range map[string]string{
		"/missing":       "'/missing' doesn't exist",
		"/app/file.yaml": "'/app/file.yaml' is not a directory",
	} {
		_, err := NewLoader(fs, dir, RootOnly, nil)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "must build at directory") {
			t.Errorf("NewLoader(%s) error = %v, want it to contain %q", dir, err, want)
		}
	}
}

func TestLoadRestrictor(t *testing.T) {
	fs := krmtest.MemFS(t, map[string]string{
		"/repo/app/kustomization.yaml": "x",
		"/repo/app/a.yaml":             "in root",
		"/repo/app/sub/b.yaml":         "in subdir",
		"/repo/app/sub/deeper/c.yaml":  "deeper",
		"/repo/other/d.yaml":           "outside",
		"/repo/appendix/e.yaml":        "sibling sharing a prefix",
		"/repo/app/dir/":               "",
	})
	for _, tc := range []struct {
		path     string
		rootOnly string // "" means success with the content below
		none     string
		content  string
	}{
		{path: "a.yaml", content: "in root"},
		{path: "./a.yaml", content: "in root"},
		{path: "sub/b.yaml", content: "in subdir"},
		{path: "sub/deeper/c.yaml", content: "deeper"},
		{path: "sub/../a.yaml", content: "in root"},
		{path: "/repo/app/sub/b.yaml", content: "in subdir"},
		{path: "../other/d.yaml", rootOnly: "security; file '/repo/other/d.yaml' is not in or below '/repo/app'", content: "outside"},
		{path: "sub/../../other/d.yaml", rootOnly: "is not in or below '/repo/app'", content: "outside"},
		{path: "../appendix/e.yaml", rootOnly: "is not in or below '/repo/app'", content: "sibling sharing a prefix"},
		{path: "/repo/other/d.yaml", rootOnly: "is not in or below '/repo/app'", content: "outside"},
		{path: "missing.yaml", rootOnly: "'/repo/app/missing.yaml' doesn't exist", none: "doesn't exist"},
		{path: "dir", rootOnly: "must resolve to a file", none: "*"},
		{path: "https://example.com/x.yaml", rootOnly: "remote content is not supported", none: "remote content is not supported"},
	} {
		for _, r := range []Restrictor{RootOnly, None} {
			l := mustLoader(t, fs, "/repo/app", r, nil)
			want := tc.rootOnly
			if r == None {
				want = tc.none
			}
			got, err := l.Load(tc.path)
			if want == "" {
				if err != nil {
					t.Errorf("restrictor %d: Load(%q) error: %v", r, tc.path, err)
				} else if string(got) != tc.content {
					t.Errorf("restrictor %d: Load(%q) = %q, want %q", r, tc.path, got, tc.content)
				}
				continue
			}
			if err == nil || (want != "*" && !strings.Contains(err.Error(), want)) {
				t.Errorf("restrictor %d: Load(%q) error = %v, want it to contain %q", r, tc.path, err, want)
			}
		}
	}
}

func TestLoadRemoteIsErrRemote(t *testing.T) {
	l := mustLoader(t, krmtest.MemFS(t, map[string]string{"/app/k": ""}), "/app", None, nil)
	for _, p := range []string{"github.com/org/repo/x.yaml", "https://example.com/x.yaml"} {
		if _, err := l.Load(p); !errors.Is(err, ErrRemote) {
			t.Errorf("Load(%q) error = %v, want ErrRemote", p, err)
		}
		if _, err := l.New(p); !errors.Is(err, ErrRemote) {
			t.Errorf("New(%q) error = %v, want ErrRemote", p, err)
		} else if !strings.Contains(err.Error(), "hermetic") || !strings.Contains(err.Error(), p) {
			t.Errorf("New(%q) error %q should explain hermeticity and name the path", p, err)
		}
	}
}

// symlinkTree makes dir/{outside.yaml, app/{in.yaml, in-link.yaml -> in.yaml,
// link.yaml -> ../outside.yaml, up -> .., loop -> .}, app-link -> app}.
func symlinkTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{"outside.yaml": "outside", "app/in.yaml": "in"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"app/in-link.yaml": "in.yaml",
		"app/link.yaml":    "../outside.yaml",
		"app/up":           "..",
		"app/loop":         ".",
		"app-link":         "app",
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Skip("symlinks unsupported:", err)
		}
	}
	return dir
}

// Symbolic links are resolved before the root check, as kustomize does:
// links that stay in the root work, links out of it are refused.
func TestLoadResolvesSymlinks(t *testing.T) {
	dir := symlinkTree(t)
	for _, root := range []string{"app", "app-link"} {
		l := mustLoader(t, filesys.MakeFsOnDisk(), filepath.Join(dir, root), RootOnly, nil)
		for _, p := range []string{"in.yaml", "in-link.yaml"} {
			if got, err := l.Load(p); err != nil || string(got) != "in" {
				t.Errorf("%s: Load(%s) = %q, %v; want the file", root, p, got, err)
			}
		}
		for _, p := range []string{"link.yaml", "up/outside.yaml", "../outside.yaml"} {
			_, err := l.Load(p)
			if err == nil || !strings.Contains(err.Error(), "security; file") || !strings.Contains(err.Error(), filepath.Base(p)) {
				t.Errorf("%s: Load(%s) error = %v; want the root check naming the path", root, p, err)
			}
		}
		if _, err := l.New("loop"); err == nil || !strings.Contains(err.Error(), "cycle detected") {
			t.Errorf("%s: New(loop) error = %v; want a cycle", root, err)
		}
	}
}

// With KeepLinks (Bazel's sandbox, where every input is a link out of the
// tree) the path as written is judged.
func TestLoadKeepLinks(t *testing.T) {
	dir := symlinkTree(t)
	l := mustLoader(t, filesys.MakeFsOnDisk(), filepath.Join(dir, "app"), RootOnly, nil)
	if err := l.SetLinks(KeepLinks); err != nil {
		t.Fatal(err)
	}
	got, err := l.Load("link.yaml")
	if err != nil || string(got) != "outside" {
		t.Errorf("Load(link.yaml) = %q, %v; want the link's content", got, err)
	}
	if _, err := l.Load("../outside.yaml"); err == nil {
		t.Errorf("Load(../outside.yaml) succeeded under RootOnly")
	}
	sub, err := l.New("up")
	if err != nil {
		t.Fatalf("New(up): %v", err)
	}
	if got, err := sub.Load("outside.yaml"); err != nil || string(got) != "outside" {
		t.Errorf("a sub-loader lost KeepLinks: Load(outside.yaml) = %q, %v", got, err)
	}
}

func TestNew(t *testing.T) {
	fs := krmtest.MemFS(t, map[string]string{
		"/r/overlay/kustomization.yaml":      "x",
		"/r/overlay/sub/kustomization.yaml":  "x",
		"/r/base/kustomization.yaml":         "x",
		"/r/a/kustomization.yaml":            "x",
		"/r/b/kustomization.yaml":            "x",
		"/r/overlay/file.yaml":               "x",
		"/r/overlay/comp/kustomization.yaml": "x",
	})
	top := mustLoader(t, fs, "/r/overlay", RootOnly, nil)
	for _, tc := range []struct {
		path, wantRoot, wantErr string
	}{
		{path: "../base", wantRoot: "/r/base"},
		{path: "sub", wantRoot: "/r/overlay/sub"},
		{path: "./comp/", wantRoot: "/r/overlay/comp"},
		{path: "", wantErr: "new root cannot be empty"},
		{path: "/r/base", wantErr: "new root '/r/base' cannot be absolute"},
		{path: ".", wantErr: "cycle detected"},
		{path: "..", wantErr: "cycle detected: candidate root '/r' contains visited root '/r/overlay'"},
		{path: "../base\n..", wantErr: "ambiguous"},
		{path: "base..", wantErr: "ambiguous"},
		{path: "../base...", wantErr: "ambiguous"},
		{path: "github.com/org/repo//base?ref=v1", wantErr: "remote content is not supported"},
		{path: "git@github.com:org/repo.git", wantErr: "remote content is not supported"},
		{path: "missing", wantErr: "must build at directory: not a valid directory: '/r/overlay/missing' doesn't exist"},
		{path: "file.yaml", wantErr: "is not a directory"},
	} {
		sub, err := top.New(tc.path)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("New(%q) error = %v, want it to contain %q", tc.path, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("New(%q): %v", tc.path, err)
			continue
		}
		if sub.Root() != tc.wantRoot {
			t.Errorf("New(%q).Root() = %q, want %q", tc.path, sub.Root(), tc.wantRoot)
		}
	}
}

func TestNewCycleThroughReferrers(t *testing.T) {
	fs := krmtest.MemFS(t, map[string]string{
		"/r/a/kustomization.yaml":   "x",
		"/r/b/kustomization.yaml":   "x",
		"/r/c/kustomization.yaml":   "x",
		"/r/a/x/kustomization.yaml": "x",
	})
	a := mustLoader(t, fs, "/r/a", RootOnly, nil)
	b, err := a.New("../b")
	if err != nil {
		t.Fatal(err)
	}
	c, err := b.New("../c")
	if err != nil {
		t.Fatal(err)
	}
	// Back to a: a cycle, two levels up.
	if _, err := c.New("../a"); err == nil || !strings.Contains(err.Error(), "cycle detected") {
		t.Errorf("a -> b -> c -> a: error = %v, want a cycle", err)
	}
	// A directory containing a visited root is a cycle too.
	if _, err := c.New(".."); err == nil || !strings.Contains(err.Error(), "cycle detected") {
		t.Errorf("c -> ..: error = %v, want a cycle", err)
	}
	// Below a visited root is not a cycle.
	if _, err := c.New("../a/x"); err != nil {
		t.Errorf("c -> ../a/x: %v", err)
	}
	// Siblings visited on another branch are not cycles.
	b2, err := a.New("../b")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b2.(*Loader).New("../c"); err != nil {
		t.Errorf("second visit of c from another branch: %v", err)
	}
	// The restrictor and hint are inherited.
	hinted := mustLoader(t, fs, "/r/a", None, func(string, string) string { return "HINT" })
	sub, err := hinted.New("../b")
	if err != nil {
		t.Fatal(err)
	}
	if sub.(*Loader).restrictor != None {
		t.Errorf("sub-loader restrictor = %v, want None", sub.(*Loader).restrictor)
	}
	if _, err := sub.Load("missing.yaml"); err == nil || !strings.HasSuffix(err.Error(), ": HINT") {
		t.Errorf("sub-loader error = %v, want the hint", err)
	}
}

func TestMissingHint(t *testing.T) {
	fs := krmtest.MemFS(t, map[string]string{"/app/a.yaml": "x", "/app/sub/kustomization.yaml": "x"})
	var asked []string
	hint := func(_, p string) string {
		asked = append(asked, p)
		if strings.HasSuffix(p, "quiet.yaml") {
			return ""
		}
		return "add it to srcs of //app:app"
	}
	for _, r := range []Restrictor{RootOnly, None} {
		asked = nil
		l := mustLoader(t, fs, "/app", r, hint)
		_, err := l.Load("missing.yaml")
		if err == nil || !strings.Contains(err.Error(), "doesn't exist") || !strings.HasSuffix(err.Error(), "is not a declared input: add it to srcs of //app:app") {
			t.Errorf("restrictor %d: Load(missing.yaml) error = %v, want the hint appended", r, err)
		}
		_, err = l.Load("quiet.yaml")
		if err == nil || strings.Contains(err.Error(), ";") {
			t.Errorf("restrictor %d: Load(quiet.yaml) error = %v, want no hint suffix", r, err)
		}
		_, err = l.New("nodir")
		if err == nil || !strings.HasSuffix(err.Error(), "is not a declared input: add it to srcs of //app:app") {
			t.Errorf("restrictor %d: New(nodir) error = %v, want the hint appended", r, err)
		}
		if _, err := l.Load("a.yaml"); err != nil {
			t.Errorf("restrictor %d: Load(a.yaml): %v", r, err)
		}
		if len(asked) != 3 || !strings.HasSuffix(asked[0], "missing.yaml") || asked[2] != "nodir" {
			t.Errorf("restrictor %d: hint asked for %q", r, asked)
		}
	}
	// Without a hint the error is left alone.
	l := mustLoader(t, fs, "/app", RootOnly, nil)
	if _, err := l.Load("missing.yaml"); err == nil || strings.Contains(err.Error(), ";") {
		t.Errorf("no hint: error = %v", err)
	}
}

// Regression: under RootOnly, Resolve hands the hint the absolute joined path
// (l.root.Join(path)), while under None (and in New and ReadKustomization)
// the hint gets the path as the kustomization names it. The hint is meant
// to tell a Bazel user which file to declare, so it should get the path as
// written.
func TestMissingHintGetsPathAsWritten(t *testing.T) {
	fs := krmtest.MemFS(t, map[string]string{"/app/a.yaml": "x"})
	for _, r := range []Restrictor{RootOnly, None} {
		var asked []string
		l := mustLoader(t, fs, "/app", r, func(_, p string) string { asked = append(asked, p); return "h" })
		_, _ = l.Load("missing.yaml")
		if !reflect.DeepEqual(asked, []string{"missing.yaml"}) {
			t.Errorf("restrictor %d: hint asked for %q, want [missing.yaml]", r, asked)
		}
	}
}

func TestReadKustomizationFileNames(t *testing.T) {
	for _, name := range []string{"kustomization.yaml", "kustomization.yml", "Kustomization"} {
		t.Run(name, func(t *testing.T) {
			fs := krmtest.MemFS(t, map[string]string{
				"/app/" + name: "namePrefix: p-\nresources:\n- a.yaml\n",
			})
			k, err := ReadKustomization(mustLoader(t, fs, "/app", RootOnly, nil), &bytes.Buffer{})
			if err != nil {
				t.Fatal(err)
			}
			if k.FileName != name {
				t.Errorf("FileName = %q, want %q", k.FileName, name)
			}
			if k.NamePrefix != "p-" || !reflect.DeepEqual(k.Resources, []string{"a.yaml"}) {
				t.Errorf("parsed %+v", k.Kustomization)
			}
			// FixKustomization filled in the type.
			if k.Kind != types.KustomizationKind || k.APIVersion != types.KustomizationVersion {
				t.Errorf("kind/apiVersion = %q %q", k.Kind, k.APIVersion)
			}
		})
	}
}

func TestReadKustomizationErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		hint  MissingHint
		want  []string
	}{
		{
			name:  "none",
			files: map[string]string{"/app/other.yaml": "x"},
			want:  []string{"unable to find one of ", "'kustomization.yaml'", "'kustomization.yml'", "'Kustomization'", " in directory '/app'"},
		},
		{
			name:  "none with hint",
			files: map[string]string{"/app/other.yaml": "x"},
			hint:  func(_, p string) string { return "declare " + p },
			want:  []string{"unable to find one of", "; \"kustomization.yaml\" is not a declared input: declare kustomization.yaml"},
		},
		{
			name: "multiple",
			files: map[string]string{
				"/app/kustomization.yaml": "namePrefix: a\n",
				"/app/kustomization.yml":  "namePrefix: b\n",
			},
			want: []string{"found multiple kustomization files under: /app"},
		},
		{
			name:  "unknown field",
			files: map[string]string{"/app/kustomization.yaml": "resources: [a.yaml]\nnamePrefx: p-\n"},
			want:  []string{"/app/kustomization.yaml", "unknown field", "namePrefx"},
		},
		{
			name:  "unknown field in Kustomization file",
			files: map[string]string{"/app/Kustomization": "resourcez: [a.yaml]\n"},
			want:  []string{"/app/Kustomization", "resourcez"},
		},
		{
			name:  "malformed",
			files: map[string]string{"/app/kustomization.yaml": "resources: [\n"},
			want:  []string{"invalid kustomization file /app/kustomization.yaml"},
		},
		{
			name:  "wrong type",
			files: map[string]string{"/app/kustomization.yaml": "resources: a.yaml\n"},
			want:  []string{"invalid kustomization file /app/kustomization.yaml"},
		},
		{
			name:  "empty",
			files: map[string]string{"/app/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"},
			want:  []string{"/app/kustomization.yaml", "kustomization.yaml is empty"},
		},
		{
			name:  "wrong kind",
			files: map[string]string{"/app/kustomization.yaml": "kind: Deployment\nresources: [a.yaml]\n"},
			want:  []string{"failed to read kustomization file /app/kustomization.yaml", "kind should be Kustomization or Component"},
		},
		{
			name:  "wrong apiVersion",
			files: map[string]string{"/app/kustomization.yaml": "apiVersion: v1\nkind: Component\nresources: [a.yaml]\n"},
			want:  []string{"apiVersion for Component should be kustomize.config.k8s.io/v1alpha1"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := mustLoader(t, krmtest.MemFS(t, tc.files), "/app", RootOnly, tc.hint)
			_, err := ReadKustomization(l, &bytes.Buffer{})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// A kustomization file that is a symbolic link out of its directory is
// refused under RootOnly, as kustomize's loader refuses it (its directory
// then has no kustomization), also for a base reached from an overlay; a
// link that stays inside, LoadRestrictionsNone and KeepLinks (Bazel) read it.
func TestReadKustomizationLinkOutOfRoot(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"outside/k.yaml":             "namePrefix: out-\n",
		"inside/conf/k.yaml":         "namePrefix: in-\n",
		"overlay/kustomization.yaml": "resources: [../app]\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"app/kustomization.yaml": "../outside/k.yaml", "inside/kustomization.yaml": "conf/k.yaml"} {
		p := filepath.Join(dir, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	fs := filesys.MakeFsOnDisk()
	app := filepath.Join(dir, "app")
	outside, err := filepath.EvalSymlinks(filepath.Join(dir, "outside", "k.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	overlay := mustLoader(t, fs, filepath.Join(dir, "overlay"), RootOnly, nil)
	base, err := overlay.New("../app")
	if err != nil {
		t.Fatal(err)
	}
	for what, l := range map[string]*Loader{"root": mustLoader(t, fs, app, RootOnly, nil), "base": base.(*Loader)} {
		_, err := ReadKustomization(l, &bytes.Buffer{})
		for _, want := range []string{
			"unable to find one of ", " in directory '" + app + "'",
			"security; file '" + filepath.Join(app, "kustomization.yaml") + "' is not in or below '" + app + "'",
			"a symbolic link to '" + outside + "'",
		} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: ReadKustomization = %v; want an error containing %q", what, err, want)
			}
		}
	}
	if k, err := ReadKustomization(mustLoader(t, fs, filepath.Join(dir, "inside"), RootOnly, nil), &bytes.Buffer{}); err != nil || k.NamePrefix != "in-" {
		t.Errorf("a link inside the root: %v, %v; want it read", k, err)
	}
	keep := mustLoader(t, fs, app, RootOnly, nil)
	if err := keep.SetLinks(KeepLinks); err != nil {
		t.Fatal(err)
	}
	for what, l := range map[string]*Loader{"LoadRestrictionsNone": mustLoader(t, fs, app, None, nil), "KeepLinks": keep} {
		if k, err := ReadKustomization(l, &bytes.Buffer{}); err != nil || k.NamePrefix != "out-" {
			t.Errorf("%s: %v, %v; want the link read", what, k, err)
		}
	}
}

func TestReadKustomizationDeprecatedFields(t *testing.T) {
	fs := krmtest.MemFS(t, map[string]string{
		"/app/kustomization.yaml": `resources:
- r.yaml
bases:
- ../base
- ../other
patchesStrategicMerge:
- patch.yaml
imageTags:
- name: nginx
  newTag: "1.2"
images:
- name: busybox
  newTag: "2"
configMapGenerator:
- name: cm
  env: a.env
  envs:
  - b.env
`,
	})
	var warn bytes.Buffer
	k, err := ReadKustomization(mustLoader(t, fs, "/app", RootOnly, nil), &warn)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"r.yaml", "../base", "../other"}; !reflect.DeepEqual(k.Resources, want) {
		t.Errorf("resources = %q, want %q (bases appended)", k.Resources, want)
	}
	if k.Bases != nil {
		t.Errorf("bases = %q, want nil", k.Bases)
	}
	if want := []types.PatchStrategicMerge{"patch.yaml"}; !reflect.DeepEqual(k.PatchesStrategicMerge, want) {
		t.Errorf("patchesStrategicMerge = %q, want %q (kept)", k.PatchesStrategicMerge, want)
	}
	if len(k.Patches) != 0 {
		t.Errorf("patches = %+v, want none (patchesStrategicMerge is not moved)", k.Patches)
	}
	if len(k.Images) != 2 || k.Images[0].Name != "busybox" || k.Images[1].Name != "nginx" {
		t.Errorf("images = %+v, want busybox then nginx", k.Images)
	}
	if got := k.ConfigMapGenerator[0].EnvSources; !reflect.DeepEqual(got, []string{"b.env", "a.env"}) {
		t.Errorf("envs = %q, want [b.env a.env]", got)
	}
	w := warn.String()
	for _, s := range []string{"'bases'", "'patchesStrategicMerge'", "'imageTags'"} {
		if !strings.Contains(w, s) {
			t.Errorf("warnings %q do not mention %s", w, s)
		}
	}
	if strings.Count(w, "\n") != 3 {
		t.Errorf("want 3 warning lines, got %q", w)
	}
}

func TestReadKustomizationComponent(t *testing.T) {
	fs := krmtest.MemFS(t, map[string]string{
		"/c/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nnamePrefix: c-\n",
	})
	var warn bytes.Buffer
	k, err := ReadKustomization(mustLoader(t, fs, "/c", RootOnly, nil), &warn)
	if err != nil {
		t.Fatal(err)
	}
	if k.Kind != types.ComponentKind {
		t.Errorf("kind = %q", k.Kind)
	}
	if warn.Len() != 0 {
		t.Errorf("unexpected warnings %q", warn.String())
	}
}
