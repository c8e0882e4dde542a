//go:build bazel

package integration

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

// TestPrebuilt checks the prebuilt renderer end to end, offline (docs/releasing.md,
// docs/rules.md "Toolchains"):
//  1. dev/scripts/release.sh in a scratch copy A of the repository at version 0.0.1-test for
//     linux_amd64 only (KRM_PREBUILT_PLATFORMS=p1,p2 for more; each cross build takes about
//     a minute) writes the archive's integrity into A's rules/private/versions.bzl and the
//     version into A's MODULE.bazel;
//  2. reproducible: the same in copy B (another path, --no-edit) gives the same bytes; so
//     does the source archive (--source) of one commit, made twice;
//  3. a consumer module whose MODULE.bazel is the README's bazel_dep (plus a
//     local_path_override to A) runs `bazel test //...`, the release URL rewritten by an
//     --experimental_downloader_config to a loopback HTTP server of the archives: it passes,
//     the archive was downloaded from there, the render actions run the prebuilt krm_nohelm
//     and the golden test the prebuilt krm_golden, and the build has no Go action (aquery
//     and execution log); the same passes with the Bazel 8/9 flags of --config=strict;
//  4. a wrong integrity in versions.bzl fails the fetch with Bazel's checksum error;
//  5. the root module's krm.toolchain tag: `urls` downloads from a mirror; a `version`
//     without an entry in versions.bzl fails with the message naming the fix;
//  6. TestE2E and TestGazelleE2E on copy A with the prebuilt renderer: a module set up from
//     the README alone renders real trees with Gazelle.
//
// Nothing is downloaded from outside (Bazel's rc of these machines points every module at
// local copies; the downloader config blocks every other host there).
func TestPrebuilt(t *testing.T) {
	const version = "0.0.1-test"
	root := bazeltest.Root(t)
	platforms := os.Getenv("KRM_PREBUILT_PLATFORMS")
	if platforms == "" {
		platforms = "linux_amd64"
	}
	host, _, _ := strings.Cut(platforms, ",")
	work := bazeltest.TestDir(t, "prebuilt")
	a, b := filepath.Join(work, "a"), filepath.Join(work, "b")
	dl := filepath.Join(work, "dl")

	t.Log("release " + version + " for " + platforms + " in two copies")
	bazeltest.CopyRepo(t, root, a)
	bazeltest.CopyRepo(t, root, b)
	for _, d := range []string{dl, filepath.Join(work, "dl-b"), filepath.Join(work, "src1"), filepath.Join(work, "src2")} {
		if err := os.RemoveAll(d); err != nil {
			t.Fatal(err)
		}
	}
	release(t, a, "--platforms="+platforms, version, filepath.Join(dl, "v"+version))
	release(t, b, "--platforms="+platforms, "--no-edit", version, filepath.Join(work, "dl-b"))
	for _, p := range strings.Split(platforms, ",") {
		f := "krm-" + version + "-" + p + ".tar.gz"
		archive := readFile(t, filepath.Join(dl, "v"+version, f))
		if archive != readFile(t, filepath.Join(work, "dl-b", f)) {
			t.Errorf("%s differs between two builds of the same sources", f)
		}
		if names := tarNames(t, filepath.Join(dl, "v"+version, f)); !slices.Equal(names, []string{"krm", "krm_golden", "krm_helm", "krm_nohelm"}) {
			t.Errorf("%s holds %q, want krm, krm_golden, krm_helm and krm_nohelm", f, names)
		}
	}
	// The archive's krm, which links no Helm, hands a chart to krm_helm beside it: the
	// render is the golden's, byte for byte.
	bin := t.TempDir()
	untar(t, filepath.Join(dl, "v"+version, "krm-"+version+"-"+host+".tar.gz"), bin)
	chart := exec.Command(filepath.Join(bin, "krm"), "build", "--enable-helm", "examples/helm")
	chart.Dir = root
	var chartErr strings.Builder
	chart.Stderr = &chartErr
	if out, err := chart.Output(); err != nil {
		t.Errorf("the released krm build --enable-helm examples/helm: %v\n%s", err, chartErr.String())
	} else if want := readFile(t, filepath.Join(root, "examples/helm/helm_manifests.golden.yaml")); string(out) != want {
		t.Errorf("the released krm renders examples/helm unlike its golden:\n%s", out)
	}
	if !strings.Contains(readFile(t, filepath.Join(a, "rules/private/versions.bzl")), `"`+version+`": {`) {
		t.Errorf("release.sh did not write rules/private/versions.bzl")
	}
	if !strings.Contains(readFile(t, filepath.Join(a, "MODULE.bazel")), "\n    version = \""+version+"\",\n") {
		t.Errorf("release.sh did not write MODULE.bazel's version")
	}

	t.Log("source archive, twice")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = b
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "release")
	release(t, b, "--source", version, filepath.Join(work, "src1"))
	release(t, b, "--source", version, filepath.Join(work, "src2"))
	src := "rules_krm-" + version + ".tar.gz"
	if readFile(t, filepath.Join(work, "src1", src)) != readFile(t, filepath.Join(work, "src2", src)) {
		t.Errorf("the source archive differs between two runs")
	}
	if !slices.Contains(tarNames(t, filepath.Join(work, "src1", src)), "rules_krm-"+version+"/MODULE.bazel") {
		t.Errorf("the source archive has no rules_krm-%s/MODULE.bazel", version)
	}
	if t.Failed() {
		t.FailNow()
	}

	srv := bazeltest.Serve(t, dl)
	downloader := filepath.Join(work, "downloader.cfg")
	bazeltest.WriteFile(t, downloader, bazeltest.DownloaderConfig(srv.URL))
	consumerDir := filepath.Join(work, "consumer")
	if err := os.RemoveAll(consumerDir); err != nil {
		t.Fatal(err)
	}
	bazeltest.WriteTxtar(t, "testdata/prebuilt-consumer.txtar", consumerDir, "VERSION", version, "RULES_KRM", a)
	// A fresh repository cache, so that the archive is downloaded (not found by its hash).
	repoCache := filepath.Join(work, "repository-cache")
	for _, d := range []string{repoCache, repoCache + "-mirror"} {
		if err := os.RemoveAll(d); err != nil {
			t.Fatal(err)
		}
	}
	flags := []string{"--experimental_downloader_config=" + downloader, "--repository_cache=" + repoCache}
	bz := bazeltest.New(t, consumerDir, filepath.Join(work, "output_base"))
	bz.Run(t, "clean", "--expunge")
	with := func(command string, args ...string) []string {
		return append(append([]string{command}, flags...), args...)
	}

	t.Log("consumer: bazel test //...")
	execLog := filepath.Join(work, "exec.json")
	bz.Must(t, with("test", "--execution_log_json_file="+execLog, "//...")...)
	if archive := "/v" + version + "/krm-" + version + "-" + host + ".tar.gz"; !srv.Served(archive) {
		t.Errorf("the archive %s was not downloaded from the loopback server; it served %q", archive, srv.Log())
	}

	t.Log("consumer: what ran")
	aquery := bz.Must(t, with("aquery", "deps(//...)", "--output=text")...).Stdout
	mnemonics := regexp.MustCompile(`(?m)^  Mnemonic: (\S+)$`).FindAllStringSubmatch(aquery, -1)
	for _, m := range mnemonics {
		if strings.HasPrefix(m[1], "Go") {
			t.Errorf("the consumer build has the Go action %s", m[1])
		}
	}
	// The krm_kustomization's actions run the archive's lean renderer (the tree has no chart).
	renders := 0
	for _, action := range strings.Split(aquery, "\n  Mnemonic: ")[1:] {
		m, rest, _ := strings.Cut(action, "\n")
		if m != "KrmManifests" && !strings.HasPrefix(m, "KrmRender") {
			continue
		}
		renders++
		_, cmd, _ := strings.Cut(rest, "\n  Command Line: ")
		cmd, _, _ = strings.Cut(cmd, "\n")
		if !strings.Contains(cmd, "krm_"+host+"/krm_nohelm ") {
			t.Errorf("%s does not run the prebuilt krm_nohelm: %q", m, cmd)
		}
	}
	if !strings.Contains(aquery, "\n  Mnemonic: KrmManifests\n") {
		t.Errorf("the consumer has no KrmManifests action (%d render actions)", renders)
	}
	spawns := bazeltest.ExecLog(t, execLog)
	nohelm := regexp.MustCompile(`^external/.*krm_` + host + `/krm_nohelm$`)
	manifests, prebuilt := false, false
	for _, s := range spawns {
		if strings.HasPrefix(s.Mnemonic, "Go") {
			t.Errorf("the execution log has the Go action %s", s.Mnemonic)
		}
		manifests = manifests || s.Mnemonic == "KrmManifests"
		prebuilt = prebuilt || (len(s.Args) > 0 && nohelm.MatchString(s.Args[0]))
	}
	if !manifests || !prebuilt {
		t.Errorf("the execution log has a KrmManifests action: %v; one running the prebuilt krm_nohelm: %v", manifests, prebuilt)
	}
	// The golden test's executable is the archive's krm_golden.
	checker, err := filepath.EvalSymlinks(filepath.Join(bz.Info(t, "bazel-bin", flags...), "app_golden_test"))
	if err != nil || !strings.HasSuffix(checker, "krm_"+host+"/krm_golden") {
		t.Errorf("the golden test does not run the prebuilt krm_golden: %s (%v)", checker, err)
	}

	// Bazel 8 and 9 behaviour (.bazelrc's --config=strict), but for
	// --incompatible_stop_exporting_language_modules, which rules_go's own
	// go/platform/apple.bzl fails under Bazel 7.7.1.
	t.Log("consumer: bazel test //... with the flags of --config=strict")
	var strict []string
	for _, line := range strings.Split(readFile(t, filepath.Join(root, ".bazelrc")), "\n") {
		if f, ok := strings.CutPrefix(line, "common:strict "); ok && f != "--incompatible_stop_exporting_language_modules" {
			strict = append(strict, f)
		}
	}
	bz.Must(t, with("test", append(strict, "//...")...)...)

	t.Log("wrong integrity")
	versions := filepath.Join(a, "rules/private/versions.bzl")
	good := readFile(t, versions)
	integrity := regexp.MustCompile(`"` + host + `": "sha256-[^"]*"`).FindString(good)
	if integrity == "" {
		t.Fatalf("rules/private/versions.bzl of the release has no integrity for %s", host)
	}
	bazeltest.WriteFile(t, versions, strings.Replace(good, integrity, `"`+host+`": "sha256-`+strings.Repeat("0", 43)+`="`, 1))
	if r := bz.Run(t, with("build", "//...")...); r.ExitCode == 0 || !strings.Contains(r.Output(), "Checksum was") {
		t.Errorf("a wrong integrity: bazel build exited %d, want a failure with Bazel's checksum error:\n%s", r.ExitCode, r.Output())
	}
	bazeltest.WriteFile(t, versions, good)

	// The root module's krm.toolchain tag: mirrors (a fresh repository cache: a download,
	// which the server logs), then a version that has no release.
	t.Log("krm.toolchain(urls = ...)")
	archive := readFile(t, filepath.Join(dl, "v"+version, "krm-"+version+"-"+host+".tar.gz"))
	bazeltest.WriteFile(t, filepath.Join(dl, "mirror", version, host+".tgz"), archive)
	module := filepath.Join(consumerDir, "MODULE.bazel")
	plain := readFile(t, module)
	bazeltest.WriteFile(t, module, plain+"\nkrm = use_extension(\"@rules_krm//rules:extensions.bzl\", \"krm\")\nkrm.toolchain(urls = [\""+srv.URL+"/mirror/{version}/{platform}.tgz\"])\n")
	bz.Must(t, "build", "--experimental_downloader_config="+downloader, "--repository_cache="+repoCache+"-mirror", "//...")
	if m := "/mirror/" + version + "/" + host + ".tgz"; !srv.Served(m) {
		t.Errorf("krm.toolchain(urls = ...) did not download %s from the mirror; the server served %q", m, srv.Log())
	}

	t.Log("krm.toolchain(version = ...) without a release")
	bazeltest.WriteFile(t, module, plain+"\nkrm = use_extension(\"@rules_krm//rules:extensions.bzl\", \"krm\")\nkrm.toolchain(version = \"9.9.9\")\n")
	r := bz.Run(t, with("build", "//...")...)
	for _, text := range []string{`rules_krm has no prebuilt krm "9.9.9" for ` + host + " (released: " + version + ";", `register_toolchains("@rules_krm//rules:source_toolchain")`} {
		if r.ExitCode == 0 || !strings.Contains(r.Output(), text) {
			t.Errorf("a version without a release: bazel build exited %d, want a failure saying %s:\n%s", r.ExitCode, text, r.Output())
		}
	}
	bz.Shutdown()

	c := consumer{root: root, rulesKrm: a, renderer: "prebuilt", flags: append([]string{"--disk_cache=" + bazeltest.DiskCache(t)}, flags...)}
	t.Run("E2E", func(t *testing.T) { testE2E(t, c) })
	t.Run("GazelleE2E", func(t *testing.T) { testGazelleE2E(t, c) })
}

// release runs dev/scripts/release.sh ARGS... of the copy of the repository in dir.
func release(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(dir, "dev", "scripts", "release.sh"), args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("dev/scripts/release.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// tarNames is the names of the files in the gzipped tar archive, in its order.
func tarNames(t *testing.T, file string) []string {
	t.Helper()
	return untar(t, file, "")
}

// untar writes the regular files of the gzipped tar archive into dir (unless dir is
// empty), executable, and returns their names in the archive's order.
func untar(t *testing.T, file, dir string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	tr := tar.NewReader(z)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		names = append(names, h.Name)
		if dir == "" {
			continue
		}
		out, err := os.OpenFile(filepath.Join(dir, filepath.Base(h.Name)), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(out, tr); err != nil {
			t.Fatalf("%s: %s: %v", file, h.Name, err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
