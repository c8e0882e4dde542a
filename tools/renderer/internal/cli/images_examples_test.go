package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// imagesExample is a copy of examples/images (dir) and what it pins: the
// digests its genrules compute (the sha256 of each "image" file) and its
// source files hold.
type imagesExample struct {
	dir                                    string
	frontend, migrate, migrateRepo, worker string
}

const workerName = "registry.example.com/team/worker" // new_name of :worker_image

// readImagesExample copies examples/images (exampleCopy) and reads its pins.
func readImagesExample(t *testing.T) imagesExample {
	t.Helper()
	dir := exampleCopy(t, "images")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	digest := func(name string) string {
		sum := sha256.Sum256([]byte(read(name)))
		return "sha256:" + hex.EncodeToString(sum[:])
	}
	return imagesExample{
		dir:         dir,
		frontend:    digest("images/frontend.txt"),
		migrate:     digest("images/migrate.txt"),
		migrateRepo: strings.TrimSpace(read("migrate.repository")),
		worker:      strings.TrimSpace(read("worker.digest")),
	}
}

// golden compares got with the example's NAME_manifests.golden.yaml.
func (ex imagesExample) golden(t *testing.T, name, got string) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(ex.dir, name+"_manifests.golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s: krm's output differs from examples/images/%s_manifests.golden.yaml:\n%s", name, name, got)
	}
}

// TestImagesExample checks that pinning images with --image (what
// krm_kustomization's `images` passes) prints the same bytes as the
// equivalent entries written at the end of the kustomization file's
// `images`, and that both are the goldens (kustomize's output for the
// written entries, TestExampleGoldens in dev/testing/examplegoldens; Bazel's krm_golden_test
// targets check the Bazel build against the same goldens).
func TestImagesExample(t *testing.T) {
	ex := readImagesExample(t)

	// The entries written in the file.
	written := exampleCopy(t, "images")
	kust := filepath.Join(written, "base", "kustomization.yaml")
	f, err := os.OpenFile(kust, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "- name: frontend\n  digest: %s\n- name: migrate\n  newName: %s\n  digest: %s\n- name: worker\n  newName: %s\n  digest: %s\n",
		ex.frontend, ex.migrateRepo, ex.migrate, workerName, ex.worker)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"base", "prod", "openapi"} {
		code, out, stderr := runCLI("build", filepath.Join(written, name))
		if code != 0 {
			t.Fatalf("krm build %s with the entries written: exit %d: %s", name, code, stderr)
		}
		ex.golden(t, name, out)
	}

	// The entries from --image flags, digests and the repository read from files, as
	// the render actions do: base renders into a snapshot, prod continues from it.
	files := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(files, name)
		if err := os.WriteFile(p, []byte(content+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flags := []string{
		"--image=name=frontend,digestFile=" + write("frontend.digest", ex.frontend) + ",source=//examples/images:frontend_digest",
		"--image=name=migrate,digestFile=" + write("migrate.digest", ex.migrate) + ",newNameFile=" +
			filepath.Join(ex.dir, "migrate.repository") + ",source=//examples/images:migrate_digest",
		"--image=name=worker,digestFile=" + filepath.Join(ex.dir, "worker.digest") + ",newName=" + workerName +
			",source=//examples/images:worker.digest",
	}
	code, out, stderr := runCLI(append([]string{"build", filepath.Join(ex.dir, "base")}, flags...)...)
	if code != 0 {
		t.Fatalf("krm build base --image...: exit %d: %s", code, stderr)
	}
	ex.golden(t, "base", out)

	tree := exampleCopy(t, "images")
	snap := filepath.Join(files, "base.krmsnap")
	args := append([]string{"render", filepath.Join(tree, "base"), "--snapshot", snap, "--hermetic", "--label", "//examples/images:base"}, flags...)
	if code, _, stderr := runCLI(args...); code != 0 {
		t.Fatalf("krm render base --image...: exit %d: %s", code, stderr)
	}
	manifests := filepath.Join(files, "prod.yaml")
	if code, _, stderr := runCLI("render", filepath.Join(tree, "prod"), "--snapshot", filepath.Join(files, "prod.krmsnap"),
		"--manifests", manifests, "--hermetic", "--dep", filepath.Join(tree, "base")+"="+snap); code != 0 {
		t.Fatalf("krm render prod: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(manifests)
	if err != nil {
		t.Fatal(err)
	}
	ex.golden(t, "prod", string(b))

	// openapi sets a schema: it renders base from its sources (as the rule's openapi
	// attribute makes it), with base's pins scoped to base's directory.
	var scoped []string
	for _, f := range flags {
		name, source, _ := strings.Cut(f, ",source=")
		scoped = append(scoped, name+",dir="+filepath.Join(tree, "base")+",source="+source)
	}
	manifests = filepath.Join(files, "openapi.yaml")
	args = append([]string{"render", filepath.Join(tree, "openapi"), "--snapshot", filepath.Join(files, "openapi.krmsnap"),
		"--manifests", manifests, "--hermetic", "--bases-from-sources"}, scoped...)
	if code, _, stderr := runCLI(args...); code != 0 {
		t.Fatalf("krm render openapi --bases-from-sources: exit %d: %s", code, stderr)
	}
	if b, err = os.ReadFile(manifests); err != nil {
		t.Fatal(err)
	}
	ex.golden(t, "openapi", string(b))

	// A pin for a directory the build does not read from its sources is an error.
	args = append([]string{"render", filepath.Join(tree, "prod"), "--manifests", manifests, "--hermetic",
		"--dep", filepath.Join(tree, "base") + "=" + snap}, scoped[0])
	if code, _, stderr := runCLI(args...); code == 0 || !strings.Contains(stderr, "the build reads no kustomization from its sources in") {
		t.Errorf("krm render prod with a pin for base read from its snapshot: exit %d, stderr %q; want an error", code, stderr)
	}
}

// TestImagesProvenance checks that the provenance manifest names the source
// of each pinned digest, on the ImageTagTransformer step of the objects it
// changed.
func TestImagesProvenance(t *testing.T) {
	ex := readImagesExample(t)
	dir := t.TempDir()
	digest := filepath.Join(dir, "frontend.digest")
	if err := os.WriteFile(digest, []byte(ex.frontend+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	man := filepath.Join(dir, "prov.json")
	code, _, stderr := runCLI("build", filepath.Join(ex.dir, "base"), "--provenance-manifest", man,
		"--image=name=frontend,digestFile="+digest+",source=//examples/images:frontend_digest")
	if code != 0 {
		t.Fatalf("krm build --provenance: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(man)
	if err != nil {
		t.Fatal(err)
	}
	// configuredIn is relative to the working directory.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	kust, err := filepath.Rel(wd, filepath.Join(ex.dir, "base", "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := `"kind":"ImageTagTransformer","configuredIn":"` + filepath.ToSlash(kust) + `","configSha256":`
	pinned := fmt.Sprintf(`"images":[{"name":"frontend","digest":"%s","source":"//examples/images:frontend_digest"}]`, ex.frontend)
	var step string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, `"ImageTagTransformer"`) {
			step = line
		}
	}
	if !strings.Contains(step, want) || !strings.Contains(step, pinned) {
		t.Errorf("the ImageTagTransformer step of the provenance manifest is\n%s\nwant it to hold %s and %s", step, want, pinned)
	}

	// krm trace shows it on the objects the step changed.
	code, out, stderr := runCLI("trace", "App/edge", "-m", man)
	wantTrace := "pins image frontend to frontend@" + ex.frontend + " (digest from //examples/images:frontend_digest)"
	if code != 0 || !strings.Contains(out, wantTrace) {
		t.Errorf("krm trace App/edge: exit %d, stderr %q, stdout:\n%s\nwant it to say %q", code, stderr, out, wantTrace)
	}
}

// TestImageErrors checks the messages of a bad --image and a bad digest file.
func TestImageErrors(t *testing.T) {
	ex := readImagesExample(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.digest")
	if err := os.WriteFile(bad, []byte("latest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(ex.dir, "base")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--image=name=frontend"}, 2, "sets nothing"},
		{[]string{"--image=name=frontend,digestFile=" + bad + ",source=//app:frontend.digest"}, 1,
			`image frontend: digest file ` + bad + ` (from //app:frontend.digest): "latest" is not an image digest`},
	} {
		code, _, stderr := runCLI(append([]string{"build", base}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("krm build %v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}
