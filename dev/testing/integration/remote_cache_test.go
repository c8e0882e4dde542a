//go:build bazel

package integration

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

// TestRemoteCache checks that render actions are shared through a real HTTP remote cache
// by checkouts that differ in everything but their sources (docs/remote-cache.md):
//  1. nginx with WebDAV PUT (Bazel's documented HTTP cache) starts on a free 127.0.0.1 port;
//  2. checkout A builds the trees below with --remote_cache: every render action (KrmRender,
//     KrmRenderOrigins, KrmManifests) executes (each kustomization file gets a comment new
//     to this run) and is uploaded;
//  3. checkout B, a copy at another absolute path, with another output base, HOME, PATH,
//     TZ, LANG and umask, builds them once with --spawn_strategy=local and once in the
//     sandbox: no action executes (every render action, and every Go and genrule action, is
//     a remote cache hit), and the manifests and snapshots are byte-identical to A's;
//  4. after a change to one base in B, exactly the render actions of the kustomizations that
//     depend on it execute, and no other action.
//
// The trees: //examples/... of this workspace, and a module like e2e/bzlmod (rules_krm as a
// bazel_dep) in e2e/gazelle with the trees of e2e/gazelle/testdata, whose BUILD files
// checkout A generates with `bazel run //:gazelle`. The expected render actions come from
// `bazel query`. nginx (Debian's; dev/scripts/test.sh installs it) serves the directory of the
// shared disk cache as its store, so the Go actions that earlier stages built are remote
// hits; no build here uses --disk_cache, so every hit is an HTTP one.
func TestRemoteCache(t *testing.T) {
	start := time.Now()
	root := bazeltest.Root(t)
	dir := bazeltest.TestDir(t, "remote-cache")
	nonce := fmt.Sprint(time.Now().UnixNano())
	cacheURL := startNginx(t, filepath.Join(dir, "nginx"), bazeltest.DiskCache(t))
	t.Logf("remote cache: nginx at %s", cacheURL)

	// The checkouts. Checkout A: the repository with its e2e workspaces.
	wsA := filepath.Join(dir, "a", "rules_krm")
	wsB := filepath.Join(dir, "b", "elsewhere", "with", "a", "longer", "path", "checkout")
	homeB := filepath.Join(dir, "b", "home")
	skip := func(rel string) bool {
		return rel == ".git" || rel == ".bin" || strings.HasPrefix(rel, "bazel-") || regexp.MustCompile(`^e2e/[^/]+/bazel-`).MatchString(rel)
	}
	if err := bazeltest.CopyTree(root, wsA, skip, 0o022); err != nil {
		t.Fatal(err)
	}
	// The Gazelle e2e workspace: the consumer module e2e/bzlmod (without its app), rules_krm
	// two directories up (relative, so that B's copy uses B's checkout), without e2e/bzlmod's
	// golden test of rules_krm's examples/deploy (step 4 of the first tree edits B's
	// examples, which this module sees as its external rules_krm), holding the trees of
	// e2e/gazelle/testdata.
	gazelleWS := filepath.Join(wsA, "e2e", "gazelle")
	bazeltest.ConsumerModule(t, root, filepath.Join(root, "e2e", "bzlmod"), gazelleWS, "../..", "source")
	if err := os.RemoveAll(filepath.Join(gazelleWS, "app")); err != nil {
		t.Fatal(err)
	}
	build := readFile(t, filepath.Join(gazelleWS, "BUILD.bazel"))
	build, _, _ = strings.Cut(build, "# A kustomization of another module")
	build = regexp.MustCompile(`(?m)^.*"krm_golden_test"\)\n`).ReplaceAllString(build, "")
	bazeltest.WriteFile(t, filepath.Join(gazelleWS, "BUILD.bazel"), build)
	testdata := filepath.Join(root, "e2e", "gazelle", "testdata")
	for _, to := range []string{filepath.Join(gazelleWS, "testdata"), gazelleWS} {
		if err := os.CopyFS(to, os.DirFS(testdata)); err != nil {
			t.Fatal(err)
		}
	}
	// Every kustomization file gets a comment new to this run: every render action of the
	// first build has inputs the cache has never seen.
	err := filepath.WalkDir(wsA, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !isKustomizationFile(d.Name()) {
			return err
		}
		return appendFile(path, "\n# remote cache test run "+nonce+"\n")
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(homeB, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}

	// Bazel in checkout A or B, each in its own environment; the module and build caches of
	// the Go on PATH are shared by both checkouts' repository rules (as a CI cache would): B's
	// other HOME would otherwise download every module again.
	goEnv := []string{"GOMODCACHE=" + goEnvVar(t, "GOMODCACHE"), "GOCACHE=" + goEnvVar(t, "GOCACHE")}
	bazels := map[string]*bazeltest.Bazel{}
	bazelIn := func(checkout, sub string) *bazeltest.Bazel {
		tag := checkout + "_" + regexp.MustCompile(`[^a-z0-9]`).ReplaceAllString(sub, "_")
		if bz := bazels[tag]; bz != nil {
			return bz
		}
		var bz *bazeltest.Bazel
		if checkout == "a" {
			bz = bazeltest.New(t, filepath.Join(wsA, sub), filepath.Join(dir, "output_base_"+tag))
			bz.Env, bz.Umask = append(slices.Clone(goEnv), "TZ=UTC", "LANG=C", "LC_ALL=C"), "022"
		} else {
			bz = bazeltest.New(t, filepath.Join(wsB, sub), filepath.Join(dir, "output_base_"+tag))
			bz.Env = append(slices.Clone(goEnv), "HOME="+homeB, "PATH="+filepath.Join(homeB, "bin")+":"+os.Getenv("PATH"),
				"TZ=Pacific/Chatham", "LANG=C.UTF-8", "LC_ALL=C.UTF-8")
			bz.Umask = "027"
		}
		bz.Startup = []string{"--max_idle_secs=3600"}
		bazels[tag] = bz
		return bz
	}

	// Checkout A generates the BUILD files of the Gazelle e2e workspace (Gazelle and its krm
	// language build through the remote cache); B gets them with the rest of A's sources.
	bazelIn("a", "e2e/gazelle").Must(t, "run", "--remote_cache="+cacheURL, "--symlink_prefix=/", "//:gazelle")
	if err := bazeltest.CopyTree(wsA, wsB, skip, 0o027); err != nil {
		t.Fatal(err)
	}

	// Checkouts download only the outputs of the targets they build, snapshots and
	// provenance manifests included (what the comparison needs).
	download := []string{"--remote_download_toplevel", "--output_groups=+snapshot,+provenance", "--symlink_prefix=/"}
	accessLog := filepath.Join(dir, "nginx", "access.log")
	// buildLog is a build with --remote_cache and an execution log, and its spawns.
	buildLog := func(bz *bazeltest.Bazel, name string, patterns []string, flags ...string) []bazeltest.Spawn {
		t.Helper()
		log := filepath.Join(dir, "exec_"+name+".json")
		args := append(append([]string{"build", "--remote_cache=" + cacheURL, "--execution_log_json_file=" + log}, flags...), "--")
		r := bz.Must(t, append(args, patterns...)...)
		if strings.Contains(r.Stderr, "WARNING: Writing to Remote Cache") || strings.Contains(r.Stderr, "WARNING: Reading from Remote Cache") {
			t.Errorf("%s: the remote cache reported errors:\n%s", name, r.Stderr)
		}
		spawns := bazeltest.ExecLog(t, log)
		t.Logf("%s: spawns per mnemonic (executed, remote cache hits): %s", name, spawnCounts(spawns))
		return spawns
	}
	// checkRenders: the render actions that executed and that were cache hits are exactly
	// executed and cached.
	checkRenders := func(name string, spawns []bazeltest.Spawn, executed, cached []string) {
		t.Helper()
		for _, c := range []struct {
			state string
			got   []string
			want  []string
		}{{"executed", renderActions(spawns, false), executed}, {"remote cache hits", renderActions(spawns, true), cached}} {
			if extra, missing := setDiff(c.got, c.want), setDiff(c.want, c.got); len(extra)+len(missing) > 0 {
				t.Errorf("%s: render actions %s: unexpected %q; missing %q", name, c.state, head(extra), head(missing))
			}
		}
	}

	trees := []struct{ sub, edit, pattern string }{
		{".", "//examples/components/base:base", "//examples/..."},
		{"e2e/gazelle", "//microservices-demo/base:base", "//..."},
	}
	totalHits, totalRenders := 0, 0
	for _, tree := range trees {
		a, patterns := bazelIn("a", tree.sub), []string{tree.pattern}
		tag := regexp.MustCompile(`[^a-z0-9]`).ReplaceAllString(tree.sub, "_")
		// The render actions to expect. Top-level: every krm_kustomization of the patterns
		// but those tagged manual. Each of these and every krm_kustomization they depend on
		// has its snapshot built (the builds ask for snapshots): in its one KrmManifests with
		// its manifests, or in a KrmRender of its own for a component (kind = "Component"),
		// a kustomization kustomize cannot build alone (builds_alone = False) and one whose
		// manifests track origins (build_metadata = True). Each top-level one without kind =
		// "Component" has a KrmManifests; a target with build_metadata = True reads its deps'
		// snapshots with origins: each of its deps, transitively, has a KrmRenderOrigins.
		universe := tree.pattern
		top := "kind(krm_kustomization_rule, " + universe + ") except attr(tags, manual, " + universe + ")"
		all := "kind(krm_kustomization_rule, deps(" + top + "))"
		separate := "attr(kind, '^Component$', " + all + ") + attr(builds_alone, 0, " + all + ") + attr(build_metadata, 1, " + all + ")"
		snapshots := query(t, a, separate)
		topManifests := top + " except attr(kind, '^Component$', " + universe + ")"
		manifests := query(t, a, "("+topManifests+") + ("+all+" except ("+separate+"))")
		tops, withDeps := query(t, a, top), query(t, a, all)
		origins := query(t, a, "kind(krm_kustomization_rule, deps(labels(deps, attr(build_metadata, 1, "+top+"))))")
		var expected []string
		for _, s := range []struct {
			mnemonic string
			labels   []string
		}{{"KrmRender", snapshots}, {"KrmRenderOrigins", origins}, {"KrmManifests", manifests}} {
			for _, l := range s.labels {
				expected = append(expected, s.mnemonic+" "+l)
			}
		}
		slices.Sort(expected)
		// The outputs checkout B must have: the manifests and snapshots of the top targets.
		var wantOutputs []string
		for _, l := range tops {
			wantOutputs = append(wantOutputs, labelPath(l)+".krmsnap")
		}
		for _, l := range query(t, a, topManifests) {
			wantOutputs = append(wantOutputs, labelPath(l)+"_manifests.yaml")
		}
		t.Logf("%s: %d krm_kustomization targets, %d with their deps: %d render actions expected", tree.sub, len(tops), len(withDeps), len(expected))
		if len(manifests) == 0 {
			t.Errorf("%s: no krm_kustomization with manifests in %s", tree.sub, tree.pattern)
			continue
		}

		// 2. Checkout A: every render action executes and is uploaded.
		putsBefore := countPuts(t, accessLog)
		name := "a_" + tag
		spawns := buildLog(a, name, patterns, download...)
		checkRenders(name, spawns, expected, nil)
		executed := len(renderActions(spawns, false))
		puts := countPuts(t, accessLog) - putsBefore
		t.Logf("%s: %d of %d render actions executed; %d action results uploaded", name, executed, len(expected), puts)
		if puts < executed {
			t.Errorf("%s: want at least %d action results uploaded (PUT /ac/), got %d", name, executed, puts)
		}
		if bad := refusedPuts(t, accessLog); bad > 0 {
			t.Errorf("nginx refused %d uploads (see %s)", bad, accessLog)
		}
		binA := a.Info(t, "bazel-bin")

		// 3. Checkout B: every action a remote cache hit, with and without the sandbox.
		b := bazelIn("b", tree.sub)
		for _, strategy := range []string{"local", "sandboxed"} {
			name := "b_" + tag + "_" + strategy
			b.Run(t, "clean")
			spawns := buildLog(b, name, patterns, append([]string{"--spawn_strategy=" + strategy, "--noremote_upload_local_results"}, download...)...)
			checkRenders(name, spawns, nil, expected)
			if ex := executedSpawns(spawns); len(ex) > 0 {
				t.Errorf("%s: actions executed (want none: every action a remote cache hit): %q", name, head(ex))
			}
			hits, actions := len(renderActions(spawns, true)), len(renderActions(spawns, true))+len(renderActions(spawns, false))
			t.Logf("%s: remote cache hit rate of render actions: %d/%d", name, hits, actions)
			totalHits, totalRenders = totalHits+hits, totalRenders+actions
			binB := b.Info(t, "bazel-bin")
			outputs := renderOutputs(t, binB)
			if missing := setDiff(wantOutputs, outputs); len(missing) > 0 {
				t.Errorf("%s: outputs missing from bazel-bin: %q", name, head(missing))
			}
			for _, f := range outputs {
				want, err := os.ReadFile(filepath.Join(binA, f))
				switch {
				case err != nil:
					t.Errorf("%s: %s is not among checkout A's outputs", name, f)
				case string(want) != readFile(t, filepath.Join(binB, f)):
					t.Errorf("%s: %s differs from checkout A's", name, f)
				}
			}
			t.Logf("%s: compared %d render outputs with checkout A's", name, len(outputs))
		}

		// 4. A change to one base in B: exactly the render actions of what depends on it
		// execute.
		rdeps := query(t, b, "kind(krm_kustomization_rule, rdeps("+universe+", "+tree.edit+"))")
		var expectedEdit, expectedCached []string
		for _, e := range expected {
			_, label, _ := strings.Cut(e, " ")
			if slices.Contains(rdeps, label) {
				expectedEdit = append(expectedEdit, e)
			} else {
				expectedCached = append(expectedCached, e)
			}
		}
		var kfile string
		for _, l := range query(t, b, "labels(srcs, "+tree.edit+")") {
			if p := labelPath(l); isKustomizationFile(filepath.Base(p)) {
				kfile = filepath.Join(wsB, tree.sub, p)
			}
		}
		if kfile == "" || strings.Contains(readFile(t, kfile), "\ncommonAnnotations:") {
			t.Errorf("%s: cannot change %s: no kustomization file %q, or it sets commonAnnotations", tree.sub, tree.edit, kfile)
			continue
		}
		if err := appendFile(kfile, "commonAnnotations:\n  remote-cache-test/run: \""+nonce+"\"\n"); err != nil {
			t.Fatal(err)
		}
		name = "b_" + tag + "_edit"
		b.Run(t, "clean")
		spawns = buildLog(b, name, patterns, download...)
		checkRenders(name, spawns, expectedEdit, expectedCached)
		if ex := executedSpawns(spawns); len(ex) > 0 {
			t.Errorf("%s: actions executed that are not renders (want none): %q", name, head(ex))
		}
		t.Logf("%s: changed %s; it and the kustomizations that depend on it: %d; %d render actions executed, %d remote cache hits expected; got %d and %d",
			name, tree.edit, len(rdeps), len(expectedEdit), len(expectedCached), len(renderActions(spawns, false)), len(renderActions(spawns, true)))
	}
	t.Logf("remote cache hit rate of render actions in checkout B: %d/%d; %.0f s", totalHits, totalRenders, time.Since(start).Seconds())
}

// startNginx starts nginx as Bazel's remote-caching docs describe it, in the prefix dir,
// on a free loopback port, until the test ends; its store is the disk cache's directory:
// Bazel's --disk_cache keeps entries at ac/HA/HASH and cas/HA/HASH (HA: the hash's first
// two characters), where an HTTP cache has /ac/HASH and /cas/HASH, so nginx rewrites the one
// to the other. It returns the cache's URL.
func startNginx(t *testing.T, dir, store string) string {
	t.Helper()
	if _, err := exec.LookPath("nginx"); err != nil {
		t.Fatalf("nginx is missing: dev/scripts/test.sh installs Debian's nginx (%v)", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	for attempt := 0; attempt < 20; attempt++ {
		port := freePort(t)
		conf := filepath.Join(dir, "nginx.conf")
		bazeltest.WriteFile(t, conf, strings.NewReplacer("DIR", dir, "PORT", fmt.Sprint(port), "STORE", store).Replace(nginxConf))
		bazeltest.WriteFile(t, filepath.Join(dir, "access.log"), "")
		cmd := exec.Command("nginx", "-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		for i := 0; i < 50; i++ {
			select {
			case <-exited:
				i = 50 // the port was taken: another one
				continue
			default:
			}
			if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
				c.Close()
				t.Cleanup(func() { cmd.Process.Kill(); <-exited })
				return fmt.Sprintf("http://127.0.0.1:%d", port)
			}
			time.Sleep(100 * time.Millisecond)
		}
		cmd.Process.Kill()
	}
	t.Fatalf("nginx could not start (see %s)", filepath.Join(dir, "error.log"))
	return ""
}

const nginxConf = `daemon off;
master_process off;
worker_processes 1;
pid DIR/nginx.pid;
error_log DIR/error.log;
events { worker_connections 1024; }
http {
  access_log DIR/access.log;
  client_body_temp_path DIR/tmp/body;
  proxy_temp_path DIR/tmp/proxy;
  fastcgi_temp_path DIR/tmp/fastcgi;
  uwsgi_temp_path DIR/tmp/uwsgi;
  scgi_temp_path DIR/tmp/scgi;
  server {
    listen 127.0.0.1:PORT;
    root STORE;
    log_not_found off;
    location / {
      rewrite "^/(ac|cas)/([0-9a-f]{2})([0-9a-f]{62})$" /$1/$2/$2$3 break;
      dav_methods PUT;
      create_full_put_path on;
      client_max_body_size 1024m;
    }
  }
}
`

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// countPuts is how many uploads of action results (PUT /ac/) nginx logged.
func countPuts(t *testing.T, accessLog string) int {
	return strings.Count(readFile(t, accessLog), `"PUT /ac/`)
}

// refusedPuts is how many uploads nginx answered with another status than 2xx (its
// combined log format: the request in quotes, then the status).
func refusedPuts(t *testing.T, accessLog string) int {
	return len(regexp.MustCompile(`(?m)"PUT [^"]*" [^2]\d\d `).FindAllString(readFile(t, accessLog), -1))
}

func goEnvVar(t *testing.T, name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

func isKustomizationFile(name string) bool {
	return name == "kustomization.yaml" || name == "kustomization.yml" || name == "Kustomization"
}

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// query is the labels of `bazel query EXPR`, sorted.
func query(t *testing.T, bz *bazeltest.Bazel, expr string) []string {
	t.Helper()
	labels := strings.Fields(bz.Must(t, "query", expr, "--output=label").Stdout)
	slices.Sort(labels)
	return labels
}

// labelPath is the workspace path of a label of the main repository (//pkg:name is
// pkg/name, //:name is name).
func labelPath(label string) string {
	pkg, name, _ := strings.Cut(strings.TrimPrefix(label, "//"), ":")
	return filepath.Join(pkg, name)
}

var renderOutput = regexp.MustCompile(`^bazel-out/[^/]+/bin/(.*?)(\.origins\.krmsnap|\.krmsnap|_manifests\.yaml)$`)

// renderActions is the render actions (KrmRender, KrmRenderOrigins, KrmManifests) that
// ran (cached false) or were cache hits, as "MNEMONIC LABEL" (the label of the target in
// the main repository), sorted: one an action, whose outputs (KrmManifests' snapshot and
// manifests) are all its target's.
func renderActions(spawns []bazeltest.Spawn, cached bool) []string {
	var out []string
	for _, s := range spawns {
		if s.Cached != cached || (s.Mnemonic != "KrmRender" && s.Mnemonic != "KrmRenderOrigins" && s.Mnemonic != "KrmManifests") {
			continue
		}
		for _, o := range s.Outputs {
			if m := renderOutput.FindStringSubmatch(o); m != nil {
				pkg, name := filepath.Split(m[1])
				out = append(out, s.Mnemonic+" //"+strings.TrimSuffix(pkg, "/")+":"+name)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// executedSpawns is the spawns that executed (no cache hit) but render actions, as
// "MNEMONIC OUTPUT" (the first output), sorted.
func executedSpawns(spawns []bazeltest.Spawn) []string {
	var out []string
	for _, s := range spawns {
		if s.Cached || s.Mnemonic == "KrmRender" || s.Mnemonic == "KrmRenderOrigins" || s.Mnemonic == "KrmManifests" {
			continue
		}
		first := ""
		if len(s.Outputs) > 0 {
			first = s.Outputs[0]
		}
		out = append(out, s.Mnemonic+" "+first)
	}
	slices.Sort(out)
	return out
}

// spawnCounts is, per mnemonic, "MNEMONIC EXECUTED/HITS".
func spawnCounts(spawns []bazeltest.Spawn) string {
	n, hits := map[string]int{}, map[string]int{}
	for _, s := range spawns {
		n[s.Mnemonic]++
		if s.Cached {
			hits[s.Mnemonic]++
		}
	}
	var out []string
	for m := range n {
		out = append(out, fmt.Sprintf("%s %d/%d", m, n[m]-hits[m], hits[m]))
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// renderOutputs is the render outputs (manifests, snapshots, provenance) under bin,
// relative to it, outside runfiles and external repositories, sorted.
func renderOutputs(t *testing.T, bin string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(bin, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(bin, path)
		if d.IsDir() && (strings.HasSuffix(d.Name(), ".runfiles") || rel == "external") {
			return filepath.SkipDir
		}
		if n := d.Name(); !d.IsDir() && (strings.HasSuffix(n, "_manifests.yaml") || strings.HasSuffix(n, ".krmsnap") || strings.HasSuffix(n, ".provenance.json")) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// setDiff is the elements of a not in b.
func setDiff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// head is the first 20 elements of list, for messages.
func head(list []string) []string {
	if len(list) > 20 {
		return append(slices.Clone(list[:20]), fmt.Sprintf("... %d more", len(list)-20))
	}
	return list
}
