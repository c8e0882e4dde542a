package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
)

func TestBuildProvenanceFlags(t *testing.T) {
	dir := tree(t, app)
	plainCode, plain, _ := runCLI("build", filepath.Join(dir, "app"))
	man := filepath.Join(dir, "prov.json")
	code, out, errOut := runCLI("build", filepath.Join(dir, "app"), "--provenance-manifest", man,
		"--workspace-root", dir, "--label-map", filepath.Join(dir, "app")+"=//app:app", "--label-map", filepath.Join(dir, "base")+"=//base")
	if code != 0 || plainCode != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if out == plain || !strings.Contains(out, `provenance.rules-krm.dev/origin: '{"path":"base/cm.yaml","label":"//base"}'`) {
		t.Errorf("output:\n%s", out)
	}
	data, err := os.ReadFile(man)
	if err != nil {
		t.Fatal(err)
	}
	m, err := provmanifest.ReadManifest(data)
	if err != nil || m.Kustomization != "app" || m.Label != "//app:app" || len(m.Objects) != 1 {
		t.Fatalf("manifest %v:\n%s", err, data)
	}
	if strings.Contains(string(data), dir) {
		t.Error("manifest holds an absolute path")
	}

	// trace by ID, and a live object (exit 0 on match, 3 on mismatch).
	code, traced, errOut := runCLI("trace", "-m", man, "ConfigMap/p-cm")
	if code != 0 || !strings.Contains(traced, "origin:        base/cm.yaml:1-6 (//base)") ||
		!strings.Contains(traced, "PrefixTransformer  configured in app/kustomization.yaml (//app:app)") {
		t.Errorf("trace exit %d:\n%s%s", code, traced, errOut)
	}
	liveObj := filepath.Join(dir, "live.yaml")
	if err := os.WriteFile(liveObj, []byte(strings.Replace(out, "metadata:\n", "metadata:\n  uid: abc\n  resourceVersion: \"7\"\n", 1)+"status: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A live object is compared with the rendered manifests: none beside prov.json yet.
	if code, _, errOut := runCLI("trace", liveObj, "--provenance-manifest", man); code != 1 || !strings.Contains(errOut, "prov_manifests.yaml (beside the provenance manifest) does not exist: pass --manifests FILE") {
		t.Errorf("live trace without the rendered manifests: exit %d: %s", code, errOut)
	}
	rendered := filepath.Join(dir, "prov_manifests.yaml")
	if err := os.WriteFile(rendered, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, traced, errOut := runCLI("trace", liveObj, "--provenance-manifest", man); code != 0 || !strings.Contains(traced, "matches") {
		t.Errorf("live trace exit %d:\n%s%s", code, traced, errOut)
	}
	bad := strings.Replace(out, "inputs-digest: sha256:", "inputs-digest: sha256:0", 1)
	if err := os.WriteFile(liveObj, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, traced, _ := runCLI("trace", liveObj, "--provenance-manifest", man, "--manifests", rendered); code != 3 || !strings.Contains(traced, "DOES NOT MATCH") {
		t.Errorf("mismatch: exit %d:\n%s", code, traced)
	}
	// Edited live: the digest matches, a field drifted.
	edited := strings.Replace(out, "\ndata:\n", "\ndata:\n  extra: live-only\n", 1)
	edited = strings.Replace(edited, `  a: "1"`, `  a: "2"`, 1)
	if err := os.WriteFile(liveObj, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, traced, _ := runCLI("trace", liveObj, "-m", man, "--workspace-root", dir); code != 3 || !strings.Contains(traced, "rendered from these inputs, but DRIFTED since: 1 field differs") ||
		!strings.Contains(traced, "    data.a: \"1\" → \"2\"\n      set by base/cm.yaml:6\n") {
		t.Errorf("drift: exit %d:\n%s", code, traced)
	}
	if code, _, errOut := runCLI("trace", liveObj, "-m", man, "--context", "prod"); code != 2 || !strings.Contains(errOut, "--cluster reads OBJECT from the API server") {
		t.Errorf("a file with --context: exit %d: %s", code, errOut)
	}
	// A kubeconfig is read within the same bounds: an alias bomb is refused before clientcmd.
	bomb := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(bomb, []byte("apiVersion: v1\nkind: Config\na: &a [x, x]\nb: [*a, *a]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI("trace", "-m", man, "--kubeconfig", bomb, "ConfigMap/p-cm"); code != 2 || !strings.Contains(errOut, "aliases are not allowed") {
		t.Errorf("an alias bomb as kubeconfig: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI("trace", "ConfigMap/cm", "-m", man); code != 1 || !strings.Contains(errOut, "did you mean v1/ConfigMap//p-cm") {
		t.Errorf("not found: exit %d: %s", code, errOut)
	}
}

func TestProvenanceUsageErrors(t *testing.T) {
	dir := tree(t, app)
	for _, args := range [][]string{
		{"build", filepath.Join(dir, "app"), "--label-map", "x"},
		{"build", filepath.Join(dir, "app"), "--provenance", "--label-map", "x"},
		{"build", filepath.Join(dir, "app"), "--workspace-root", dir},
		{"trace", "ConfigMap/p-cm"},
		{"trace", "-m", "x.json"},
		{"trace", "-m", filepath.Join(dir, "app", "kustomization.yaml"), "not-an-id"},
	} {
		if code, _, errOut := runCLI(args...); code != 2 || !strings.Contains(errOut, "Error:") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if code, _, errOut := runCLI("trace", "-m", filepath.Join(dir, "app", "kustomization.yaml"), "ConfigMap/p-cm"); code != 1 || !strings.Contains(errOut, "not a provenance manifest") {
		t.Errorf("bad manifest: exit %d %s", code, errOut)
	}
	if code, _, errOut := runCLI("help", "trace"); code != 0 || !strings.Contains(errOut, "KIND[.GROUP]/[NAMESPACE/]NAME") {
		t.Errorf("help trace: %d %s", code, errOut)
	}
}

func TestRenderProvenance(t *testing.T) {
	dir := tree(t, app)
	snapBase, snapApp := filepath.Join(dir, "base.snap"), filepath.Join(dir, "app.snap")
	man, manifests := filepath.Join(dir, "prov.json"), filepath.Join(dir, "app.yaml")
	if code, _, errOut := runCLI("render", filepath.Join(dir, "base"), "--snapshot", snapBase, "--label", "//base",
		"--hermetic", "--provenance", "--workspace-root", dir); code != 0 {
		t.Fatalf("render base: %s", errOut)
	}
	if code, _, errOut := runCLI("render", filepath.Join(dir, "app"), "--snapshot", snapApp, "--manifests", manifests,
		"--dep", filepath.Join(dir, "base")+"="+snapBase, "--hermetic", "--label", "//app", "--provenance-manifest", man,
		"--workspace-root", dir); code != 0 {
		t.Fatalf("render app: %s", errOut)
	}
	data, err := os.ReadFile(man)
	if err != nil {
		t.Fatal(err)
	}
	m, err := provmanifest.ReadManifest(data)
	if err != nil || m.Label != "//app" || m.Objects[0].Origin.Label != "//base" || m.Objects[0].Origin.Path != "base/cm.yaml" {
		t.Errorf("manifest %v:\n%s", err, data)
	}
	out, _ := os.ReadFile(manifests)
	if !strings.Contains(string(out), provmanifest.DigestAnnotation+": "+m.Objects[0].InputsDigest) {
		t.Errorf("manifests:\n%s", out)
	}
}
