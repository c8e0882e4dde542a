"""Repository rules for an offline Bazel 4 setup that only reaches the Go module proxy."""

def _go(ctx):
    go = ctx.which("go")
    if not go:
        fail("`go` must be on PATH")
    return go

def _go_module_repo_impl(ctx):
    go = _go(ctx)
    mod = ctx.attr.module + "@" + ctx.attr.version
    res = ctx.execute([go, "mod", "download", "-json", mod], environment = {"GOFLAGS": "-mod=mod"})
    if res.return_code:
        fail("go mod download %s failed: %s%s" % (mod, res.stdout, res.stderr))
    info = json.decode(res.stdout)
    if ctx.attr.sum and info["Sum"] != ctx.attr.sum:
        fail("checksum mismatch for %s: got %s want %s" % (mod, info["Sum"], ctx.attr.sum))
    ctx.extract(info["Zip"], stripPrefix = mod)
    for p in ctx.attr.patches:
        ctx.patch(p, strip = 1)
    if ctx.attr.vendor:
        # Module zips omit vendor/; gazelle's go_repository_tools builds in GOPATH mode and needs it.
        res = ctx.execute([go, "mod", "vendor"], environment = {"GOFLAGS": "-mod=mod"})
        if res.return_code:
            fail("go mod vendor failed: " + res.stderr)

go_module_repo = repository_rule(
    implementation = _go_module_repo_impl,
    doc = "A Go module as a repository: `go mod download` (checksummed), extract, patch, optionally vendor.",
    attrs = {
        "module": attr.string(mandatory = True),
        "version": attr.string(mandatory = True),
        "sum": attr.string(),
        "patches": attr.label_list(),
        "vendor": attr.bool(),
    },
    environ = ["GOPROXY", "GOFLAGS", "PATH"],
)

def _host_go_sdk_copy_impl(ctx):
    """Copies the host GOROOT and adds what rules_go 0.34 expects: pkg/GOOS_GOARCH/*.a and the pack tool."""
    go = _go(ctx)
    goroot = ctx.execute([go, "env", "GOROOT"]).stdout.strip()
    res = ctx.execute(["cp", "-a", goroot + "/.", "."])
    if res.return_code:
        fail("copy GOROOT failed: " + res.stderr)
    env = {"GOROOT": str(ctx.path(".")), "GOTOOLCHAIN": "local", "GOFLAGS": "", "GODEBUG": "installgoroot=all"}
    res = ctx.execute(["bin/go", "install", "std"], environment = env, timeout = 1200)
    if res.return_code:
        fail("go install std failed: " + res.stderr)
    for tool in ["pack"]:
        # -trimpath: the same bytes in every output base, so that actions using the SDK hit
        # a shared --disk_cache across output bases and clones.
        res = ctx.execute(["bin/go", "build", "-trimpath", "-o", "pkg/tool/linux_amd64/" + tool, "cmd/" + tool], environment = env)
        if res.return_code:
            fail("building %s failed: %s" % (tool, res.stderr))
    ctx.file("ROOT", "")
    ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % ctx.name)
    ctx.template(
        "BUILD.bazel",
        Label("@io_bazel_rules_go//go/private:BUILD.sdk.bazel"),
        executable = False,
        substitutions = {
            "{goos}": "linux",
            "{goarch}": "amd64",
            "{exe}": "",
            "{rules_go_repo_name}": "io_bazel_rules_go",
        },
    )

host_go_sdk_copy = repository_rule(
    implementation = _host_go_sdk_copy_impl,
    environ = ["PATH"],
)

def offline_go_rules_repositories():
    """Declares rules_go v0.34.0 (patched for Go 1.26) and gazelle v0.26.0 as Go modules.

    Used by rules_krm's WORKSPACE and by the workspaces that use rules_krm with this offline
    Bazel 4.2.3 setup (e2e/smoke): one place for their versions, checksums and patches.
    """
    go_module_repo(
        name = "io_bazel_rules_go",
        module = "github.com/bazelbuild/rules_go",
        patches = [Label("//dev/offline:rules_go-v0.34.0-bazel4-go126.patch")],
        sum = "h1:cmObMtgIOaEU944SqXtJ9DnlS8IPGGa7pdRnsrpQzXM=",
        version = "v0.34.0",
    )
    go_module_repo(
        name = "bazel_gazelle",
        module = "github.com/bazelbuild/bazel-gazelle",
        # Drops a test suite that Debian's bazel_skylib 1.0.3 cannot load, which made
        # every gazelle target (gazelle(), gazelle_binary) fail to analyze.
        patches = [Label("//dev/offline:gazelle-v0.26.0-skylib-1.0.3.patch")],
        sum = "h1:/gh8S450+nfr3wYI6bTYEi297obbVcMObavhPuB7LVo=",
        vendor = True,
        version = "v0.26.0",
    )
