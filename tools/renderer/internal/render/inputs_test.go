package render

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/inputs"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
)

// declared is the inputs.FS of a render action rooted at a temporary
// working directory (as Bazel's execution root is): the files of tree named
// in srcs, and the snapshots rendered so far.
func declared(t *testing.T, tree map[string]string, srcs []string, snaps map[string][]byte) *inputs.FS {
	t.Helper()
	var files []inputs.File
	for _, p := range srcs {
		files = append(files, inputs.File{Path: p, Data: []byte(tree[p])})
	}
	in, err := inputs.New(".", files)
	if err != nil {
		t.Fatal(err)
	}
	for p, data := range snaps {
		if err := in.Add(inputs.File{Path: p, Data: data}); err != nil {
			t.Fatal(err)
		}
	}
	return in
}

// oneShot is what krm build (kustomize build) prints for dir of tree.
func oneShot(t *testing.T, tree map[string]string, dir string) ([]byte, error) {
	t.Helper()
	files := map[string]string{}
	for p, c := range tree {
		files["/r/"+p] = c
	}
	return Build(krmtest.MemFS(t, files), "/r/"+dir, Options{})
}

var componentTree = map[string]string{
	"base/kustomization.yaml":  "resources:\n- cm.yaml\n",
	"base/cm.yaml":             "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  color: blue\n",
	"comp/kustomization.yaml":  "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n- ../extra\npatches:\n- path: color.yaml\n",
	"comp/color.yaml":          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  color: green\n",
	"extra/kustomization.yaml": "resources:\n- secret.yaml\n",
	"extra/secret.yaml":        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n",
	"top/kustomization.yaml":   "namePrefix: top-\nresources:\n- ../base\ncomponents:\n- ../comp\n",
}

// renderStep is one target of a tree: its directory, srcs and deps.
type renderStep struct {
	dir        string
	srcs, deps []string
}

// componentSteps are the targets top of componentTree depends on, in order.
var componentSteps = []renderStep{
	{"base", []string{"base/kustomization.yaml", "base/cm.yaml"}, nil},
	{"extra", []string{"extra/kustomization.yaml", "extra/secret.yaml"}, nil},
	// The component's own action: it cannot be built alone (its patch
	// needs the parent's ConfigMap), yet it is checked and carries its
	// files and its base's snapshot.
	{"comp", []string{"comp/kustomization.yaml", "comp/color.yaml"}, []string{"extra"}},
}

// targets renders kustomizations of tree as the rules' snapshot actions
// do, keeping the snapshots (out/<dir>.krmsnap) in memory.
type targets struct {
	t     *testing.T
	tree  map[string]string
	snaps map[string][]byte
}

func newTargets(t *testing.T, tree map[string]string) *targets {
	t.Chdir(t.TempDir())
	return &targets{t: t, tree: tree, snaps: map[string][]byte{}}
}

// render renders dir (srcs, deps: directories of targets rendered before)
// with or without the finishing steps.
func (g *targets) render(dir string, srcs, deps []string, snapshotOnly bool) (*Result, error) {
	depFiles := map[string]string{}
	for _, d := range deps {
		depFiles[d] = "out/" + d + ".krmsnap"
	}
	fs := declared(g.t, g.tree, srcs, g.snaps)
	res, err := Render(fs, dir, Options{Deps: depFiles, Hermetic: true, Label: "//:" + dir, SnapshotOnly: snapshotOnly, Snapshot: true})
	if err == nil {
		g.snaps["out/"+dir+".krmsnap"] = res.Snapshot
	}
	return res, err
}

func TestComponentSnapshots(t *testing.T) {
	want, err := oneShot(t, componentTree, "top")
	if err != nil {
		t.Fatal(err)
	}
	g := newTargets(t, componentTree)
	for _, step := range componentSteps {
		if _, err := g.render(step.dir, step.srcs, step.deps, true); err != nil {
			t.Fatalf("%s: %v", step.dir, err)
		}
	}
	comp := string(g.snaps["out/comp.krmsnap"])
	for _, w := range []string{"kustomizationKind: Component", "path: comp/color.yaml", "dir: extra", "label: //:comp"} {
		if !strings.Contains(comp, w) {
			t.Errorf("component snapshot lacks %q:\n%s", w, comp)
		}
	}
	// The parent reads both deps the same way: --dep DIR=SNAPSHOT.
	res, err := g.render("top", []string{"top/kustomization.yaml"}, []string{"base", "comp"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Manifests) != string(want) {
		t.Errorf("through component snapshots:\n%s\nwant:\n%s", res.Manifests, want)
	}
}

func TestUndeclaredInputs(t *testing.T) {
	g := newTargets(t, componentTree)
	root, _ := os.Getwd()
	for _, step := range []struct {
		dir        string
		srcs, deps []string
	}{
		{"extra", []string{"extra/kustomization.yaml", "extra/secret.yaml"}, nil},
		{"base", []string{"base/kustomization.yaml", "base/cm.yaml"}, nil},
		{"comp", []string{"comp/kustomization.yaml", "comp/color.yaml"}, []string{"extra"}},
	} {
		if _, err := g.render(step.dir, step.srcs, step.deps, true); err != nil {
			t.Fatalf("%s: %v", step.dir, err)
		}
	}
	for _, tc := range []struct {
		name, dir  string
		srcs, deps []string
		want       string
	}{
		{
			name: "file missing from srcs",
			dir:  "base", srcs: []string{"base/kustomization.yaml"},
			want: "'cm.yaml' (resources of base/kustomization.yaml) is not a declared input: add base/cm.yaml to srcs of //:base",
		},
		{
			name: "component's patch missing from its srcs",
			dir:  "comp", srcs: []string{"comp/kustomization.yaml"}, deps: []string{"extra"},
			want: `"color.yaml" is not a declared input: add comp/color.yaml to srcs of //:comp`,
		},
		{
			name: "component's base missing from its deps",
			dir:  "comp", srcs: []string{"comp/kustomization.yaml", "comp/color.yaml"},
			want: "'../extra' (resources of comp/kustomization.yaml) is not a declared input: add the krm_kustomization target of extra to deps of //:comp",
		},
		{
			name: "base missing from deps",
			dir:  "top", srcs: []string{"top/kustomization.yaml"}, deps: []string{"comp"},
			want: "'../base' (resources of top/kustomization.yaml) is not a declared input: add the krm_kustomization target of base to deps of //:top",
		},
		{
			name: "component missing from deps",
			dir:  "top", srcs: []string{"top/kustomization.yaml"}, deps: []string{"base"},
			want: "'../comp' (components of top/kustomization.yaml) is not a declared input: add the krm_kustomization target of comp to deps of //:top",
		},
		{
			name: "kustomization file missing from srcs",
			dir:  "top", srcs: []string{"base/cm.yaml"},
			want: `unable to find one of ['kustomization.yaml' 'kustomization.yml' 'Kustomization'] in directory 'top'; "kustomization.yaml" is not a declared input: add top/kustomization.yaml to srcs of //:top`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.srcs[0] == "base/cm.yaml" {
				// The directory exists (a declared file below it), its kustomization file does not.
				tc.srcs = append(tc.srcs, "top/other.yaml")
			}
			_, err := g.render(tc.dir, tc.srcs, tc.deps, true)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v\nwant it to contain %s", err, tc.want)
			}
			if !errors.Is(err, load.ErrUndeclared) {
				t.Errorf("error does not wrap load.ErrUndeclared: %v", err)
			}
			if strings.Contains(err.Error(), root) {
				t.Errorf("error names the working directory: %v", err)
			}
		})
	}
}

func TestKindExpectation(t *testing.T) {
	newTargets(t, componentTree)
	fs := declared(t, componentTree, []string{"base/kustomization.yaml", "base/cm.yaml"}, nil)
	_, err := Render(fs, "base", Options{Hermetic: true, Label: "//:base", Kind: "Component", Snapshot: true})
	want := `base/kustomization.yaml has kind Kustomization, but //:base says kind = "Component"`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v, want %s", err, want)
	}
	if _, err := Render(fs, "base", Options{Hermetic: true, Label: "//:base", Kind: "Kustomization", Snapshot: true}); err != nil {
		t.Errorf("matching kind: %v", err)
	}
}

// A base whose finishing steps fail alone (a var reads a field that only
// its parent's patch adds) still has a snapshot: its parents render.
func TestSnapshotOnlySkipsFinishing(t *testing.T) {
	tree := map[string]string{
		"base/kustomization.yaml": "resources:\n- svc.yaml\nvars:\n- name: IP\n  objref:\n    apiVersion: v1\n    kind: Service\n    name: web\n  fieldref:\n    fieldpath: spec.clusterIP\n",
		"base/svc.yaml":           "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n",
		"top/kustomization.yaml":  "resources:\n- ../base\npatches:\n- patch: |-\n    apiVersion: v1\n    kind: Service\n    metadata:\n      name: web\n    spec:\n      clusterIP: 10.0.0.1\n",
	}
	if _, err := oneShot(t, tree, "base"); err == nil {
		t.Fatal("the base builds alone: the test needs one that does not")
	}
	want, err := oneShot(t, tree, "top")
	if err != nil {
		t.Fatal(err)
	}
	g := newTargets(t, tree)
	if _, err := g.render("base", []string{"base/kustomization.yaml", "base/svc.yaml"}, nil, false); err == nil {
		t.Error("the base's manifests rendered")
	} else if !strings.Contains(err.Error(), "set builds_alone = False on it") {
		t.Errorf("the error of the base's one action does not say how to keep its snapshot: %v", err)
	}
	if _, err := g.render("base", []string{"base/kustomization.yaml", "base/svc.yaml"}, nil, true); err != nil {
		t.Fatalf("snapshot of the base: %v", err)
	}
	res, err := g.render("top", []string{"top/kustomization.yaml"}, []string{"base"}, false)
	if err != nil || string(res.Manifests) != string(want) {
		t.Errorf("top: %v\n%s\nwant:\n%s", err, res.Manifests, want)
	}
}

// The rules' one action per kustomization writes the snapshot with the
// manifests: its bytes must be those of a snapshot alone (which a
// component and a kustomization that kustomize cannot build alone get),
// so parents' cache keys do not depend on which action wrote it.
func TestSnapshotSameWithManifests(t *testing.T) {
	g := newTargets(t, componentTree)
	for _, step := range append(slices.Clone(componentSteps), renderStep{"top", []string{"top/kustomization.yaml"}, []string{"base", "comp"}}) {
		alone, err := g.render(step.dir, step.srcs, step.deps, true)
		if err != nil {
			t.Fatalf("%s, snapshot alone: %v", step.dir, err)
		}
		both, err := g.render(step.dir, step.srcs, step.deps, false)
		if err != nil {
			t.Fatalf("%s, snapshot and manifests: %v", step.dir, err)
		}
		if string(alone.Snapshot) != string(both.Snapshot) {
			t.Errorf("%s: the snapshot written with the manifests differs from the snapshot alone:\n%s\nwant:\n%s", step.dir, both.Snapshot, alone.Snapshot)
		}
		if step.dir != "comp" && len(both.Manifests) == 0 {
			t.Errorf("%s: no manifests", step.dir)
		}
	}
}
