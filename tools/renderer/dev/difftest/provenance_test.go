package difftest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/kio"

	"github.com/rules-krm/rules_krm/internal/textdiff"
	"github.com/rules-krm/rules_krm/tools/renderer/dev/levels"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provenance"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
)

// stripProvenance removes the provenance annotations from a stream, and an
// annotations key they alone filled.
func stripProvenance(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	var out bytes.Buffer
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if bytes.HasPrefix(l, []byte("    "+provmanifest.AnnotationPrefix)) {
			continue
		}
		if bytes.Equal(l, []byte("  annotations:\n")) {
			j := i + 1
			for j < len(lines) && bytes.HasPrefix(lines[j], []byte("    "+provmanifest.AnnotationPrefix)) {
				j++
			}
			if j == len(lines) || !bytes.HasPrefix(lines[j], []byte("    ")) {
				i = j - 1
				continue
			}
		}
		out.Write(l)
	}
	return out.Bytes()
}

// treeLabels labels every directory of tree, as Bazel would label each
// kustomization.
func treeLabels(t *testing.T, tree string) map[string]string {
	t.Helper()
	labels := map[string]string{}
	err := filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(tree, p)
		labels[p] = "//" + filepath.ToSlash(rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return labels
}

// TestProvenanceDifferential renders every successful differential case
// with provenance and checks that:
//   - without the provenance annotations the output is kustomize's, byte for byte;
//   - every object has an origin and an inputs digest that its manifest
//     entry hashes to, and the annotations agree with the manifest;
//   - the result does not depend on the fast paths (annotation splicing,
//     scoped fingerprints) and is the same rendered level by level through
//     snapshots as in one go.
func TestProvenanceDifferential(t *testing.T) {
	for _, tc := range loadCases(t) {
		if tc.wantOut == nil {
			continue
		}
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			fsys := filesys.MakeFsOnDisk()
			dir := filepath.Join(tc.tree, filepath.FromSlash(tc.target))
			labels := treeLabels(t, tc.tree)
			opts := tc.opts
			opts.Provenance = &provenance.Options{WorkspaceRoot: tc.tree, Labels: labels}
			res, err := render.Render(fsys, dir, opts)
			if err != nil {
				t.Fatalf("render with provenance: %v", err)
			}
			if got := stripProvenance(res.Manifests); !bytes.Equal(got, tc.wantOut) {
				t.Fatalf("output with provenance, annotations stripped, differs from kustomize's:\n%s", textdiff.Unified(string(tc.wantOut), string(got), 3, 200))
			}
			checkManifest(t, res.Manifests, res.ProvenanceManifest)

			slowOpts := opts
			slowOpts.Provenance = &provenance.Options{WorkspaceRoot: tc.tree, Labels: labels, Slow: true}
			slow, err := render.Render(fsys, dir, slowOpts)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(slow.Manifests, res.Manifests) {
				t.Errorf("fast paths change the output:\n%s", textdiff.Unified(string(slow.Manifests), string(res.Manifests), 3, 200))
			}
			if !bytes.Equal(slow.ProvenanceManifest, res.ProvenanceManifest) {
				t.Errorf("fast paths change the provenance manifest:\n%s", textdiff.Unified(string(slow.ProvenanceManifest), string(res.ProvenanceManifest), 3, 200))
			}

			if _, levelsFail, err := readOptional(filepath.Join(tc.dir, fileLevelsError)); err != nil || levelsFail {
				return // TestSnapshotLevels checks the error
			}
			// Each base rendered alone, with the label map of the one-shot render.
			chain := &levels.Chain{FS: fsys, Options: opts, Label: func(dir string) string { return labels[dir] }}
			lv, err := chain.Render(dir)
			if err != nil {
				t.Fatalf("snapshot chain with provenance: %v", err)
			}
			if !bytes.Equal(lv.Manifests, res.Manifests) {
				t.Errorf("level-by-level output differs from one-shot:\n%s", textdiff.Unified(string(res.Manifests), string(lv.Manifests), 3, 200))
			}
			if !bytes.Equal(lv.ProvenanceManifest, res.ProvenanceManifest) {
				t.Errorf("level-by-level provenance manifest differs from one-shot:\n%s", textdiff.Unified(string(res.ProvenanceManifest), string(lv.ProvenanceManifest), 3, 200))
			}
		})
	}
}

// checkManifest checks a provenance manifest against the stream it describes.
func checkManifest(t *testing.T, stream, manifest []byte) {
	t.Helper()
	m, err := provmanifest.ReadManifest(manifest)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := kio.FromBytes(stream)
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != len(m.Objects) {
		t.Fatalf("%d objects printed, %d in the manifest", len(nodes), len(m.Objects))
	}
	files := m.FileIndex()
	for i, n := range nodes {
		o := &m.Objects[i]
		if o.ID.Kind != n.GetKind() || o.ID.Name != n.GetName() || o.ID.Namespace != n.GetNamespace() || o.ID.APIVersion != n.GetApiVersion() {
			t.Errorf("object %d: manifest has %s, stream has %s %s/%s", i, o.ID, n.GetKind(), n.GetNamespace(), n.GetName())
		}
		if o.Origin == nil {
			t.Errorf("%s: no origin", o.ID)
		} else if o.Origin.Generator == nil && (o.Origin.Path == "" || o.Origin.StartLine < 1 || o.Origin.EndLine < o.Origin.StartLine) {
			t.Errorf("%s: bad origin %+v", o.ID, *o.Origin)
		}
		if d := provmanifest.Digest(o, m.Steps, files); d != o.InputsDigest {
			t.Errorf("%s: manifest entry hashes to %s, says %s", o.ID, d, o.InputsDigest)
		}
		anno := n.GetAnnotations()
		if anno[provmanifest.DigestAnnotation] != o.InputsDigest {
			t.Errorf("%s: digest annotation %q, manifest %q", o.ID, anno[provmanifest.DigestAnnotation], o.InputsDigest)
		}
		if _, ok := anno[provmanifest.OriginAnnotation]; !ok {
			t.Errorf("%s: no origin annotation", o.ID)
		}
		if _, ok := anno[provmanifest.TransformersAnnotation]; ok != (len(o.Transformers) > 0) {
			t.Errorf("%s: transformers annotation present=%v, %d transformers in the manifest", o.ID, ok, len(o.Transformers))
		}
		for _, p := range filesOf(o, m) {
			if _, ok := files[p]; !ok {
				t.Errorf("%s: file %s not in the manifest's files", o.ID, p)
			}
			if filepath.IsAbs(p) {
				t.Errorf("%s: absolute path %s", o.ID, p)
			}
		}
	}
	if bytes.Contains(manifest, []byte(os.TempDir())) {
		t.Errorf("manifest holds an absolute path")
	}
}

func filesOf(o *provmanifest.Object, m *provmanifest.Manifest) []string {
	var out []string
	if o.Origin != nil && o.Origin.Path != "" {
		out = append(out, o.Origin.Path)
	}
	steps := o.Transformers
	if o.Origin != nil && o.Origin.Generator != nil {
		steps = append([]int{*o.Origin.Generator}, steps...)
	}
	for _, i := range steps {
		if s := m.Step(i); s != nil {
			if s.ConfiguredIn != "" {
				out = append(out, s.ConfiguredIn)
			}
			out = append(out, s.Files...)
		}
	}
	return out
}
