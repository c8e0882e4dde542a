#!/usr/bin/env bash
# Checks the prebuilt renderer end to end, offline (docs/releasing.md, docs/rules.md
# "Toolchains"), with a Bazel that has bzlmod on PATH (on these machines:
# bazel/offline/bazel7/bin):
#   1. release: scripts/release.sh in a scratch copy A of the repository at version
#      $VERSION for linux_amd64 only (KRM_PREBUILT_PLATFORMS=p1,p2 for more; each cross build
#      takes about a minute), which writes the archive's integrity into A's
#      rules/private/versions.bzl and the version into A's MODULE.bazel;
#   2. reproducible: the same in copy B (another path, --no-edit) gives the same bytes; so
#      does the source archive (--source) of one commit, made twice;
#   3. a consumer module whose MODULE.bazel is the README's bazel_dep (plus a
#      local_path_override to A) runs `bazel test //...` (a krm_kustomization and its
#      krm_golden_test), the release URL rewritten by a --experimental_downloader_config to a
#      loopback HTTP server of the archives: it passes, the archive was downloaded from there,
#      the render actions (KrmRender, KrmManifests) run the prebuilt krm_nohelm and the golden
#      test the prebuilt krm_golden, and no Go
#      action is in the build (the consumer compiles nothing: aquery and execution log);
#      the same passes with the Bazel 8/9 flags of .bazelrc's --config=strict;
#   4. a wrong integrity in versions.bzl fails the fetch with Bazel's checksum error;
#   5. the root module's krm.toolchain tag: `urls` downloads from a mirror; a `version`
#      without an entry in versions.bzl fails with the message naming the fix;
#   6. e2e/bzlmod, the README's consumer with Gazelle, on copy A (TestE2E of
#      tools/testing/integration), and copies of it holding the real trees of
#      e2e/gazelle/testdata (TestGazelleE2E):
#      a module set up from the README alone renders real trees with Gazelle.
# Nothing is downloaded from outside (Bazel's rc of these machines points every module at
# local copies; the downloader config blocks every other host).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local LC_ALL=C
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"
VERSION=0.0.1-test
PLATFORMS=${KRM_PREBUILT_PLATFORMS:-linux_amd64}
BAZEL=${BAZEL:-bazel}
work=$(krm_test_dir prebuilt)
fail() {
  echo "FAIL: prebuilt: $*" >&2
  exit 1
}
t0=$SECONDS
step() { echo "== prebuilt: $* ($((SECONDS - t0)) s)"; }

step "release $VERSION for $PLATFORMS in two copies"
copy_repo "$work/a"
copy_repo "$work/b"
rm -rf "$work/dl" "$work/dl-b"
"$work/a/scripts/release.sh" --platforms="$PLATFORMS" "$VERSION" "$work/dl/v$VERSION"
"$work/b/scripts/release.sh" --platforms="$PLATFORMS" --no-edit "$VERSION" "$work/dl-b"
for p in ${PLATFORMS//,/ }; do
  f=krm-$VERSION-$p.tar.gz
  cmp "$work/dl/v$VERSION/$f" "$work/dl-b/$f" || fail "$f differs between two builds of the same sources"
  [[ $(tar -tzf "$work/dl/v$VERSION/$f" | tr '\n' ' ') == "krm krm_golden krm_helm krm_nohelm " ]] ||
    fail "$f holds $(tar -tzf "$work/dl/v$VERSION/$f" | tr '\n' ' ')"
done
grep -q "\"$VERSION\": {" "$work/a/rules/private/versions.bzl" || fail "release.sh did not write versions.bzl"
grep -q "^    version = \"$VERSION\",$" "$work/a/MODULE.bazel" || fail "release.sh did not write MODULE.bazel's version"

step "source archive, twice"
(cd "$work/b" && git init -q && git add -A && git -c user.name=t -c user.email=t@t -c commit.gpgsign=false commit -qm release)
"$work/b/scripts/release.sh" --source "$VERSION" "$work/src1" >/dev/null
"$work/b/scripts/release.sh" --source "$VERSION" "$work/src2" >/dev/null
cmp "$work/src1/rules_krm-$VERSION.tar.gz" "$work/src2/rules_krm-$VERSION.tar.gz" || fail "the source archive differs"
tar -tzf "$work/src1/rules_krm-$VERSION.tar.gz" >"$work/src1/list"
grep -qx "rules_krm-$VERSION/MODULE.bazel" "$work/src1/list" ||
  fail "the source archive has no rules_krm-$VERSION/MODULE.bazel"

step "loopback server"
port=''
for _ in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 40000))
  python3 -m http.server --bind 127.0.0.1 --directory "$work/dl" "$port" >"$work/http.log" 2>&1 &
  server=$!
  for _ in $(seq 50); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break 2; fi
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  kill "$server" 2>/dev/null || true
  port=''
done
[[ -n $port ]] || fail "no loopback HTTP server (python3 -m http.server; see $work/http.log)"
trap 'kill "$server" 2>/dev/null || true' EXIT
# Bazel 7 rewrites to http(s) URLs only (not file://); without a scheme the https of the
# original would stay.
cat >"$work/downloader.cfg" <<EOF
rewrite github.com/rules-krm/rules_krm/releases/download/(.*) http://127.0.0.1:$port/\$1
allow 127.0.0.1
block *
EOF

consumer=$work/consumer
rm -rf "$consumer"
mkdir -p "$consumer/app"
cat >"$consumer/MODULE.bazel" <<EOF
module(name = "consumer")

bazel_dep(name = "rules_krm", version = "$VERSION")
local_path_override(module_name = "rules_krm", path = "$work/a")
EOF
cat >"$consumer/BUILD.bazel" <<'EOF'
load("@rules_krm//rules:defs.bzl", "krm_golden_test", "krm_kustomization")

krm_kustomization(
    name = "app",
    srcs = glob(["app/*"]),
    dir = "app",
)

krm_golden_test(
    name = "app_golden_test",
    golden = "app.golden.yaml",
    kustomization = ":app",
)
EOF
cat >"$consumer/app/kustomization.yaml" <<'EOF'
namePrefix: prod-
labels:
- pairs:
    app: web
resources:
- service.yaml
EOF
cat >"$consumer/app/service.yaml" <<'EOF'
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
EOF
cat >"$consumer/app.golden.yaml" <<'EOF'
apiVersion: v1
kind: Service
metadata:
  labels:
    app: web
  name: prod-web
spec:
  ports:
  - port: 80
EOF

# A fresh repository cache, so that the archive is downloaded (not found by its hash).
flags=(--experimental_downloader_config="$work/downloader.cfg" --repository_cache="$work/repository-cache")
cd "$consumer"
"$BAZEL" clean --expunge >/dev/null 2>&1 || true
rm -rf "$work/repository-cache" "$work/repository-cache-mirror"

step "consumer: bazel test //..."
"$BAZEL" test //... "${flags[@]}" --execution_log_json_file="$work/exec.json" >"$work/test.log" 2>&1 ||
  { tail -40 "$work/test.log" >&2 && fail "bazel test in the consumer module (log: $work/test.log)"; }
host=${PLATFORMS%%,*}
grep -q "GET /v$VERSION/krm-$VERSION-$host.tar.gz HTTP/1.1\" 200" "$work/http.log" ||
  fail "the archive was not downloaded from the loopback server (log: $work/http.log)"

step "consumer: what ran"
"$BAZEL" aquery 'deps(//...)' "${flags[@]}" --output=text >"$work/aquery.txt" 2>/dev/null
mnemonics=$(sed -n 's/^  Mnemonic: //p' "$work/aquery.txt" | sort -u | tr '\n' ' ')
echo "mnemonics in the build: $mnemonics"
if grep -E '^  Mnemonic: Go' "$work/aquery.txt" >/dev/null; then
  fail "the consumer build has Go actions: $mnemonics"
fi
# The krm_kustomization's actions run the archive's lean renderer (the tree has no chart).
for m in KrmRender KrmManifests; do
  cmd=$(awk -v m="$m" '$0 == "  Mnemonic: " m { on = 1 } on && /^  Command Line:/ { print; exit }' "$work/aquery.txt")
  [[ $cmd == *"krm_$host/krm_nohelm "* ]] || fail "$m does not run the prebuilt krm_nohelm: ${cmd:-no such action}"
done
grep -q '"mnemonic": "Go' "$work/exec.json" && fail "the execution log has Go actions"
grep -q '"mnemonic": "KrmManifests"' "$work/exec.json" || fail "the execution log has no KrmManifests action"
grep -E -q "\"commandArgs\": \[\"external/[^\"]*krm_$host/krm_nohelm\"" "$work/exec.json" ||
  fail "no action of the execution log ran the prebuilt krm_nohelm"
# The golden test's executable is the archive's krm_golden.
checker=$(readlink -f "$("$BAZEL" info bazel-bin "${flags[@]}" 2>/dev/null)/app_golden_test")
[[ $checker == *krm_"$host"/krm_golden ]] || fail "the golden test does not run the prebuilt krm_golden: $checker"

# Bazel 8 and 9 behaviour (.bazelrc's --config=strict), but for
# --incompatible_stop_exporting_language_modules, which rules_go's own go/platform/apple.bzl
# fails under Bazel 7.7.1 (every module has rules_go's toolchains registered).
step "consumer: bazel test //... with the flags of --config=strict"
mapfile -t strict < <(sed -n 's/^common:strict //p' "$ROOT/.bazelrc" | grep -v -- --incompatible_stop_exporting_language_modules)
"$BAZEL" test //... "${flags[@]}" "${strict[@]}" >"$work/strict.log" 2>&1 ||
  { tail -40 "$work/strict.log" >&2 && fail "bazel test --config=strict in the consumer module (log: $work/strict.log)"; }

step "wrong integrity"
cp "$work/a/rules/private/versions.bzl" "$work/versions.bzl.good"
good=$(grep -o "\"$host\": \"sha256-[^\"]*\"" "$work/versions.bzl.good" | head -1)
sed -i "s|$good|\"$host\": \"sha256-$(printf '%043d=' 0)\"|" "$work/a/rules/private/versions.bzl"
if "$BAZEL" build //... "${flags[@]}" >"$work/bad.log" 2>&1; then
  fail "a wrong integrity did not fail the fetch"
fi
grep -q "Checksum was" "$work/bad.log" || { tail -20 "$work/bad.log" >&2 && fail "a wrong integrity failed without Bazel's checksum error"; }
cp "$work/versions.bzl.good" "$work/a/rules/private/versions.bzl"

# The root module's krm.toolchain tag: mirrors (a fresh repository cache: a download, which
# the server logs), then a version that has no release.
step "krm.toolchain(urls = ...)"
mkdir -p "$work/dl/mirror/$VERSION"
cp "$work/dl/v$VERSION/krm-$VERSION-$host.tar.gz" "$work/dl/mirror/$VERSION/$host.tgz"
cp "$consumer/MODULE.bazel" "$work/MODULE.bazel.plain"
cat >>"$consumer/MODULE.bazel" <<EOF

krm = use_extension("@rules_krm//rules:extensions.bzl", "krm")
krm.toolchain(urls = ["http://127.0.0.1:$port/mirror/{version}/{platform}.tgz"])
EOF
"$BAZEL" build //... "${flags[@]/%repository-cache/repository-cache-mirror}" >"$work/mirror.log" 2>&1 ||
  { tail -20 "$work/mirror.log" >&2 && fail "the build with mirror URLs failed"; }
grep -q "GET /mirror/$VERSION/$host.tgz HTTP/1.1\" 200" "$work/http.log" ||
  fail "krm.toolchain(urls = ...) did not download from the mirror (log: $work/http.log)"

step "krm.toolchain(version = ...) without a release"
cp "$work/MODULE.bazel.plain" "$consumer/MODULE.bazel"
cat >>"$consumer/MODULE.bazel" <<'EOF'

krm = use_extension("@rules_krm//rules:extensions.bzl", "krm")
krm.toolchain(version = "9.9.9")
EOF
if "$BAZEL" build //... "${flags[@]}" >"$work/missing.log" 2>&1; then
  fail "a version without a release did not fail"
fi
grep -q "rules_krm has no prebuilt krm \"9.9.9\" for $host (released: $VERSION;" "$work/missing.log" &&
  grep -q 'register_toolchains("@rules_krm//rules:source_toolchain")' "$work/missing.log" ||
  { tail -20 "$work/missing.log" >&2 && fail "a version without a release failed without naming the fix"; }
"$BAZEL" shutdown

step "e2e/bzlmod, and Gazelle on whole trees in copies of it, with the prebuilt renderer (TestE2E, TestGazelleE2E)"
(cd "$ROOT" && KRM_E2E_RULES_KRM=$work/a KRM_E2E_RENDERER=prebuilt KRM_E2E_FLAGS="${flags[*]}" \
  go test -tags bazel -timeout 60m -count=1 -v -run '^(TestE2E|TestGazelleE2E)$' ./tools/testing/integration)
step "passed"
