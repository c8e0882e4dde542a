//go:build bazel

// The pull-request flow end to end, with the Bazel of bazeltest.Binary and the
// disk cache shared with the other Bazel tests (dev/scripts/test.sh runs it):
//
//	go test -tags bazel -run 'TestEndToEnd|TestBzlChange' ./tools/renderer/prdiff/ [-args -update]

package main

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/hydrated"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/publish"
)

var update = flag.Bool("update", false, "rewrite the goldens in testdata/")

// baseFiles are added to the consumer module (e2e/bzlmod) in the base
// commit: a component, an overlay using it that the head deletes, and a
// kustomization no change touches.
var baseFiles = map[string]string{
	"app/components/probe/BUILD.bazel": `load("@rules_krm//rules:defs.bzl", "krm_kustomization")

krm_kustomization(
    name = "probe",
    srcs = [
        "kustomization.yaml",
        "patch.yaml",
    ],
    kind = "Component",
    visibility = ["//visibility:public"],
)
`,
	"app/components/probe/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
patches:
- path: patch.yaml
`,
	"app/components/probe/patch.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: hello
spec:
  template:
    spec:
      containers:
      - name: hello
        env:
        - name: LOG_LEVEL
          value: info
`,
	"app/prod/BUILD.bazel": overlayBuild("prod", "//app/base", "//app/components/probe"),
	"app/prod/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: hello-prod
namePrefix: prod-
resources:
- ../base
components:
- ../components/probe
replicas:
- name: hello
  count: 3
`,
	"app/staging/BUILD.bazel": overlayBuild("staging", "//app/base", "//app/components/probe"),
	"app/staging/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: hello-staging
namePrefix: staging-
resources:
- ../base
components:
- ../components/probe
`,
	"app/unrelated/BUILD.bazel": `load("@rules_krm//rules:defs.bzl", "krm_kustomization")

krm_kustomization(
    name = "unrelated",
    srcs = [
        "configmap.yaml",
        "kustomization.yaml",
    ],
)
`,
	"app/unrelated/kustomization.yaml": "resources:\n- configmap.yaml\n",
	"app/unrelated/configmap.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unrelated\ndata:\n  a: b\n",
}

// headFiles are the head commit's edits: the base, the component and a new
// overlay (app/staging is deleted; README.md is outside the workspace).
var headFiles = map[string]string{
	"app/base/greeting.txt": "Hello again from rules_krm\n",
	"app/components/probe/patch.yaml": strings.Replace(baseFiles["app/components/probe/patch.yaml"],
		"value: info", "value: debug", 1),
	"app/dev/BUILD.bazel": overlayBuild("dev", "//app/base"),
	"app/dev/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: hello-dev
namePrefix: dev-
resources:
- ../base
`,
	"../README.md": "the head\n",
}

// overlayBuild is the BUILD file of a kustomization with only its
// kustomization file and deps.
func overlayBuild(name string, deps ...string) string {
	return `load("@rules_krm//rules:defs.bzl", "krm_kustomization")

krm_kustomization(
    name = "` + name + `",
    srcs = ["kustomization.yaml"],
    deps = ["` + strings.Join(deps, `", "`) + `"],
)
`
}

// e2eRepo is a git repository (top) whose subdirectory ws is e2e/bzlmod as
// a consumer of this checkout (bazeltest.ConsumerModule), at a fixed path per
// name (its Bazel output base, with external repositories, serves the next
// run); base is added to it in the first commit, on main.
func e2eRepo(t *testing.T, name string, base map[string]string) (bazel, dir, top, ws, diskCache string) {
	root := bazeltest.Root(t)
	bazel = bazeltest.Binary(root)
	dir = bazeltest.TestDir(t, name)
	top = filepath.Join(dir, "repo")
	ws = filepath.Join(top, "deploy")
	// And what prdiff keeps for ws (the base's worktree and renders): the
	// commits have fixed dates, so an earlier run's renders would match.
	for _, d := range []string{top, filepath.Dir(WorktreePath(ws))} {
		if err := os.RemoveAll(d); err != nil {
			t.Fatal(err)
		}
	}
	diskCache = bazeltest.DiskCache(t)
	bazeltest.ConsumerModule(t, root, filepath.Join(root, "e2e", "bzlmod"), ws, root, "source")
	if err := os.Remove(filepath.Join(ws, "app/prod/prod_manifests.golden.yaml")); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, ws, base)
	// Bazel writes MODULE.bazel.lock on its first run: committed, it would be
	// a change of the next commit (and a change to it affects everything).
	writeFiles(t, top, map[string]string{"README.md": "the base\n", ".gitignore": "bazel-*\nMODULE.bazel.lock\n"})
	run(t, top, "git", "init", "-q", "-b", "main")
	commit(t, top, "base")
	return bazel, dir, top, ws, diskCache
}

func TestEndToEnd(t *testing.T) {
	bazel, dir, top, ws, diskCache := e2eRepo(t, "prdiff", baseFiles)
	run(t, top, "git", "checkout", "-q", "-b", "feature")
	writeFiles(t, ws, headFiles)
	run(t, top, "git", "rm", "-q", "-r", "deploy/app/staging")
	commit(t, top, "head")

	keep := filepath.Join(dir, "out")
	var log bytes.Buffer
	res, err := Run(Options{Base: "main", Workspace: ws, DiskCache: diskCache, Bazel: bazel, Keep: keep}, &log)
	t.Logf("prdiff's log:\n%s", log.String())
	if err != nil {
		t.Fatal(err)
	}

	wantChanged := []string{"app/base/greeting.txt", "app/components/probe/patch.yaml", "app/dev/BUILD.bazel", "app/dev/kustomization.yaml", "app/staging/BUILD.bazel", "app/staging/kustomization.yaml"}
	if !reflect.DeepEqual(res.ChangedFiles, wantChanged) {
		t.Errorf("ChangedFiles = %q\nwant %q", res.ChangedFiles, wantChanged)
	}
	// The affected set is bazel query's rdeps of the changed files, on
	// each side (//app/unrelated is not in it; the component is, with no
	// manifests of its own).
	query := func(expr string) []string {
		b := &Bazel{Binary: bazel, Dir: ws, Log: &log}
		l, err := b.Query(expr)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	headRdeps := query(`kind(krm_kustomization_rule, rdeps(//..., set(//app/base:greeting.txt //app/components/probe:patch.yaml //app/dev:kustomization.yaml) + //app/dev:all))`)
	run(t, top, "git", "checkout", "-q", "main")
	baseRdeps := query(`kind(krm_kustomization_rule, rdeps(//..., set(//app/base:greeting.txt //app/components/probe:patch.yaml //app/staging:kustomization.yaml) + //app/staging:all))`)
	run(t, top, "git", "checkout", "-q", "feature")
	if got, want := res.Affected, unionStrings(headRdeps, baseRdeps); !reflect.DeepEqual(got, want) {
		t.Errorf("Affected = %q\nbazel query rdeps of the changed files = %q", got, want)
	}
	wantAffected := []string{"//app/base:base", "//app/components/probe:probe", "//app/dev:dev", "//app/prod:prod", "//app/staging:staging"}
	if !reflect.DeepEqual(res.Affected, wantAffected) {
		t.Errorf("Affected = %q, want %q", res.Affected, wantAffected)
	}
	if out := run(t, top, "git", "worktree", "list"); strings.Count(out, "\n") != 1 {
		t.Errorf("the base worktree is still there:\n%s", out)
	}

	// The outputs: goldens with the merge base (a commit of this run) left out.
	var md, text, js bytes.Buffer
	if err := res.WriteMarkdown(&md, 60000); err != nil {
		t.Fatal(err)
	}
	if err := res.Diff.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	mergeBase := regexp.MustCompile(`"mergeBase": "[0-9a-f]+"`)
	golden(t, "e2e.md", md.Bytes())
	golden(t, "e2e.txt", text.Bytes())
	golden(t, "e2e.json", mergeBase.ReplaceAll(js.Bytes(), []byte(`"mergeBase": "MERGE_BASE"`)))

	// The command as CI runs it: the Markdown, and exit status 1.
	var stdout, stderr bytes.Buffer
	code := runMain([]string{"--base", "main", "--workspace", ws, "--disk-cache", diskCache, "--bazel", bazel, "--format", "markdown"}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("prdiff --format markdown: exit %d, want 1\n%s", code, stderr.String())
	}
	if stdout.String() != md.String() {
		t.Errorf("prdiff --format markdown printed\n%s\nwant\n%s", stdout.String(), md.String())
	}

	// The base's renders from main's CI (--write-base-manifests on main):
	// the same diff, and no build at the base (the change adds and deletes
	// kustomizations: the base's query still runs in its worktree).
	given := filepath.Join(dir, "given")
	if err := os.RemoveAll(given); err != nil {
		t.Fatal(err)
	}
	writeBase(t, top, "main", "feature", ws, given, bazel, diskCache)
	meta, err := hydrated.ParseMetadata([]byte(bazeltest.ReadFile(t, filepath.Join(given, hydrated.MetadataFile))))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"app/base/base", "app/prod/prod", "app/staging/staging", "app/unrelated/unrelated"}; meta.DrySha != res.MergeBase || !reflect.DeepEqual(meta.Deployments, want) {
		t.Errorf("--write-base-manifests wrote drySha %s, deployments %q; want %s, %q", meta.DrySha, meta.Deployments, res.MergeBase, want)
	}
	if got, want := bazeltest.ReadFile(t, filepath.Join(given, "app/prod/prod/manifest.yaml")), bazeltest.ReadFile(t, filepath.Join(keep, "base/app/prod/prod_manifests.yaml")); got != want {
		t.Errorf("--write-base-manifests: app/prod/prod/manifest.yaml is\n%s\nthe base's render\n%s", got, want)
	}
	baseWs := filepath.Join(WorktreePath(ws), "deploy")
	prArgs := []string{"--base", "main", "--workspace", ws, "--disk-cache", diskCache, "--bazel", bazel, "--format", "markdown", "--no-cache"}
	stdout.Reset()
	stderr.Reset()
	start := time.Now()
	code = runMain(append(prArgs, "--base-manifests", given), &stdout, &stderr)
	withGiven := time.Since(start)
	t.Logf("prdiff --base-manifests: %.1f s; its log:\n%s", withGiven.Seconds(), stderr.String())
	if code != 1 || stdout.String() != md.String() {
		t.Errorf("prdiff --base-manifests: exit %d, printed\n%s\nwant exit 1 and the built base's\n%s", code, stdout.String(), md.String())
	}
	if log := stderr.String(); !strings.Contains(log, "prdiff: the base's manifests from base manifests in "+given+"\n") ||
		commandsIn(log, baseWs)["build"] {
		t.Errorf("prdiff --base-manifests: want the base's manifests from %s and no build at the base:\n%s", given, log)
	}
	// A stale artifact (another commit's): one line why, then the build.
	meta.DrySha = strings.Repeat("0", 40)
	if err := os.WriteFile(filepath.Join(given, hydrated.MetadataFile), meta.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	start = time.Now()
	code = runMain(append(prArgs, "--base-manifests", given), &stdout, &stderr)
	t.Logf("prdiff --no-cache (the base built; --base-manifests stale): %.1f s, with the base's renders %.1f s", time.Since(start).Seconds(), withGiven.Seconds())
	if code != 1 || stdout.String() != md.String() {
		t.Errorf("prdiff --base-manifests (stale): exit %d, printed\n%s\nwant exit 1 and\n%s", code, stdout.String(), md.String())
	}
	why := "prdiff: base manifests in " + given + " name commit 000000000000 (hydrator.metadata), the merge base is " + res.MergeBase[:12] + ": building the base\n"
	if log := stderr.String(); !strings.Contains(log, why) || !commandsIn(log, baseWs)["build"] {
		t.Errorf("prdiff --base-manifests (stale): want %q and the base built:\n%s", why, log)
	}

	// No change since the base: exit 0, nothing built.
	stderr.Reset()
	if code := runMain([]string{"--base", "HEAD", "--workspace", ws, "--bazel", bazel, "--format", "json"}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Errorf("prdiff --base HEAD: exit %d, want 0\n%s", code, stderr.String())
	}

	// As a consumer runs it: bazel run @rules_krm//tools/prdiff, its script
	// started from elsewhere (it finds the workspace by itself).
	script := ws + ".run.sh"
	bazeltest.New(t, ws, "").Must(t, "run", "--disk_cache="+diskCache, "--script_path="+script, "@rules_krm//tools/prdiff")
	stderr.Reset()
	affected := exec.Command(script, "--base", "main", "--affected-only", "--bazel", bazel)
	affected.Dir, affected.Stderr = "/", &stderr
	out, err := affected.Output()
	if err != nil {
		t.Fatalf("bazel run @rules_krm//tools/prdiff -- --base main --affected-only: %v\n%s", err, stderr.String())
	}
	if got, want := string(out), strings.Join(wantAffected, "\n")+"\n"; got != want {
		t.Errorf("bazel run @rules_krm//tools/prdiff -- --base main --affected-only printed\n%s\nwant\n%s", got, want)
	}

	// The base's Bazel server was never shut down: it stops by itself.
	headBase, err := (&Bazel{Binary: bazel, Dir: ws, Log: &log}).run("info", "output_base")
	if err != nil {
		t.Fatal(err)
	}
	userRoot := filepath.Dir(strings.TrimSpace(headBase)) // output bases are ROOT/md5(workspace)
	parent, err := filepath.EvalSymlinks(filepath.Dir(WorktreePath(ws)))
	if err != nil {
		t.Fatal(err)
	}
	sum := md5.Sum([]byte(filepath.Join(parent, "base", "deploy")))
	serverStops(t, filepath.Join(userRoot, hex.EncodeToString(sum[:])))
}

// serverStops checks that the Bazel server of the output base ob, if one
// runs, was started with prdiff's baseIdle and is gone within it and a
// margin.
func serverStops(t *testing.T, ob string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ob, "server", "server.pid.txt"))
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil {
		return // gone already
	}
	if !bytes.Contains(cmdline, []byte(baseIdle+"\x00")) {
		t.Errorf("the base's Bazel server (pid %d) runs without %s: %s", pid, baseIdle, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
		return
	}
	idle, _ := strconv.Atoi(strings.TrimPrefix(baseIdle, "--max_idle_secs="))
	deadline := time.Now().Add(time.Duration(idle+60) * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid))); err != nil {
			t.Logf("the base's Bazel server (pid %d) stopped by itself", pid)
			return
		}
		time.Sleep(2 * time.Second)
	}
	t.Errorf("the base's Bazel server (pid %d) still runs 60 s after its idle limit", pid)
}

// writeBase runs prdiff --write-base-manifests at rev, then checks out back.
func writeBase(t *testing.T, top, rev, back, ws, dir, bazel, diskCache string) {
	t.Helper()
	run(t, top, "git", "checkout", "-q", rev)
	var log bytes.Buffer
	code := runMain([]string{"--write-base-manifests", dir, "--workspace", ws, "--disk-cache", diskCache, "--bazel", bazel}, &bytes.Buffer{}, &log)
	run(t, top, "git", "checkout", "-q", back)
	if code != 0 {
		t.Fatalf("prdiff --write-base-manifests at %s: exit %d\n%s", rev, code, log.String())
	}
}

// bzlFiles: two macros in one package, one loading the other; app/prod's
// BUILD file loads the outer one, app/unrelated's a third.
var bzlFiles = map[string]string{
	"macros/BUILD.bazel": "",
	"macros/inner.bzl":   "LABELS = {\"tier\": \"web\"}\n",
	"macros/outer.bzl": `load(":inner.bzl", "LABELS")
load("@rules_krm//rules:defs.bzl", "krm_kustomization")

def overlay(name, deps):
    krm_kustomization(name = name, srcs = ["kustomization.yaml"], deps = deps)
`,
	"macros/other.bzl": `load("@rules_krm//rules:defs.bzl", "krm_kustomization")

def plain(name, srcs):
    krm_kustomization(name = name, srcs = srcs)
`,
	"app/prod/BUILD.bazel": `load("//macros:outer.bzl", "overlay")

overlay(name = "prod", deps = ["//app/base"])
`,
	"app/unrelated/BUILD.bazel": `load("//macros:other.bzl", "plain")

plain(name = "unrelated", srcs = ["configmap.yaml", "kustomization.yaml"])
`,
	"app/unrelated/kustomization.yaml": baseFiles["app/unrelated/kustomization.yaml"],
	"app/unrelated/configmap.yaml":     baseFiles["app/unrelated/configmap.yaml"],
}

// TestBzlChange: a change to a .bzl file affects the kustomizations of the
// packages whose BUILD files load it, through other .bzl files too, and no
// others (not every kustomization, as a change to MODULE.bazel does).
func TestBzlChange(t *testing.T) {
	bazel, _, top, ws, diskCache := e2eRepo(t, "prdiff-bzl", bzlFiles)
	run(t, top, "git", "checkout", "-q", "-b", "feature")
	writeFiles(t, ws, map[string]string{"macros/inner.bzl": "LABELS = {\"tier\": \"api\"}\n"})
	commit(t, top, "head")
	var log bytes.Buffer
	res, err := Run(Options{Base: "main", Workspace: ws, Bazel: bazel, AffectedOnly: true}, &log)
	t.Logf("prdiff's log:\n%s", log.String())
	if err != nil {
		t.Fatal(err)
	}
	b := &Bazel{Binary: bazel, Dir: ws, Log: &log}
	all, err := b.Query("kind(krm_kustomization_rule, //...)")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"//app/prod:prod"}
	if !reflect.DeepEqual(res.Affected, want) || len(all) <= len(want) {
		t.Errorf("Affected = %q, want %q (of %q)", res.Affected, want, all)
	}

	// Then a change that edits a file both sides have: one query (the
	// head's), and a rerun takes the base's manifests from the first run,
	// with no worktree or Bazel at the base.
	writeFiles(t, ws, map[string]string{"app/base/greeting.txt": "Hello again from rules_krm\n"})
	commit(t, top, "greeting")
	var logs [2]bytes.Buffer
	var outs [2]bytes.Buffer
	for i := range logs {
		code := runMain([]string{"--base", "HEAD~1", "--workspace", ws, "--disk-cache", diskCache, "--bazel", bazel, "--format", "json"}, &outs[i], &logs[i])
		t.Logf("run %d: prdiff's log:\n%s", i, logs[i].String())
		if code != 1 {
			t.Fatalf("run %d: exit %d, want 1", i, code)
		}
	}
	if !bytes.Equal(outs[0].Bytes(), outs[1].Bytes()) {
		t.Errorf("the rerun printed\n%s\nthe first run\n%s", outs[1].String(), outs[0].String())
	}
	first, second := logs[0].String(), logs[1].String()
	if strings.Count(first, " query took ") != 1 || strings.Contains(first, "from an earlier run") {
		t.Errorf("first run: want one query (the head's) and a base render:\n%s", first)
	}
	if strings.Contains(second, WorktreePath(ws)) || !strings.Contains(second, "from an earlier run") {
		t.Errorf("rerun: want the base's manifests from the first run and no worktree:\n%s", second)
	}
	if !strings.Contains(outs[0].String(), `"//app/prod:prod"`) || !strings.Contains(outs[0].String(), "greeting") {
		t.Errorf("the diff misses the greeting's change to //app/prod:\n%s", outs[0].String())
	}

	// The base's renders from the branch krm publish wrote for the merge
	// base (then for a later commit): the same diff, and only the head's
	// Bazel server runs (the build graphs are the same: one query).
	given := filepath.Join(t.TempDir(), "given")
	writeBase(t, top, "HEAD~1", "feature", ws, given, bazel, diskCache)
	mb := strings.TrimSpace(run(t, top, "git", "rev-parse", "HEAD~1"))
	publishTree(t, top, "env/all", mb, given)
	writeFiles(t, given, map[string]string{"app/prod/prod/manifest.yaml": "kind: Later\n"})
	publishTree(t, top, "env/all", strings.Repeat("1", 40), given)
	var out, plog bytes.Buffer
	start := time.Now()
	code := runMain([]string{"--base", "HEAD~1", "--workspace", ws, "--disk-cache", diskCache, "--bazel", bazel, "--format", "json", "--no-cache", "--base-manifests-branch", "env/all"}, &out, &plog)
	t.Logf("prdiff --base-manifests-branch: %.1f s; its log:\n%s", time.Since(start).Seconds(), plog.String())
	if code != 1 || out.String() != outs[0].String() {
		t.Errorf("prdiff --base-manifests-branch: exit %d, printed\n%s\nwant exit 1 and the built base's\n%s", code, out.String(), outs[0].String())
	}
	if !strings.Contains(plog.String(), "prdiff: the base's manifests from base manifests of env/all (commit ") {
		t.Errorf("prdiff --base-manifests-branch: the base's manifests not from env/all:\n%s", plog.String())
	}
	for _, m := range regexp.MustCompile(`prdiff: \(in ([^)]*)\) `).FindAllStringSubmatch(plog.String(), -1) {
		if m[1] != ws {
			t.Errorf("prdiff --base-manifests-branch ran Bazel in %s: want only the head's server (in %s)", m[1], ws)
			break
		}
	}
}

// commandsIn are the Bazel commands prdiff's log says it ran in dir.
func commandsIn(log, dir string) map[string]bool {
	cmds := map[string]bool{}
	for _, line := range strings.Split(log, "\n") {
		rest, ok := strings.CutPrefix(line, "prdiff: (in "+dir+") ")
		if !ok || strings.Contains(rest, " took ") {
			continue
		}
		for _, arg := range strings.Fields(rest)[1:] { // after the binary, its startup options
			if !strings.HasPrefix(arg, "-") {
				cmds[arg] = true
				break
			}
		}
	}
	return cmds
}

// publishTree publishes the deployments of a tree --write-base-manifests
// wrote to branch of the repository top, as krm publish does, naming drySha.
func publishTree(t *testing.T, top, branch, drySha, tree string) {
	t.Helper()
	meta, err := hydrated.ParseMetadata([]byte(bazeltest.ReadFile(t, filepath.Join(tree, hydrated.MetadataFile))))
	if err != nil {
		t.Fatal(err)
	}
	var ds []publish.Deployment
	for _, d := range meta.Deployments {
		ds = append(ds, publish.Deployment{Path: d, Manifests: filepath.Join(tree, filepath.FromSlash(d), hydrated.ManifestFile)})
	}
	o := publish.Options{Repo: top, Branch: branch, DrySha: drySha, Author: publish.DefaultIdentity, Committer: publish.DefaultIdentity, Env: os.Environ()}
	if _, err := publish.Publish(context.Background(), o, ds); err != nil {
		t.Fatal(err)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run with -update to rewrite it):\n%s", p, got)
	}
}
