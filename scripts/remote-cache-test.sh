#!/usr/bin/env bash
# Checks that render actions are shared through a real HTTP remote cache by checkouts that
# differ in everything but their sources (docs/remote-cache.md):
#   1. nginx with WebDAV PUT (Bazel's documented HTTP cache) starts on a free 127.0.0.1 port;
#   2. checkout A builds the trees below with --remote_cache: every render action (KrmRender,
#      the snapshot, and KrmManifests, the manifests) executes (each kustomization file gets a
#      comment new to this run) and is uploaded;
#   3. checkout B, a copy at another absolute path, with another output base, HOME, PATH,
#      TZ, LANG and umask, builds them once with --spawn_strategy=local and once in the
#      sandbox: no action executes (every render action, and every Go and genrule action,
#      is a remote cache hit), and the manifests and snapshots are byte-identical to A's;
#   4. after a change to one base in B, exactly the render actions of the kustomizations that
#      depend on it execute, and no other action.
# The trees: //examples/... of this workspace, and a module like e2e/bzlmod (rules_krm as
# a bazel_dep) in e2e/gazelle with the trees of e2e/gazelle/testdata, whose BUILD
# files checkout A generates with `bazel run //:gazelle`.
# The expected render actions come from `bazel query`: a KrmRender per krm_kustomization
# built or needed (the builds ask for every snapshot), a KrmManifests per one built whose
# kind is not "Component". Prints the hit rate per mnemonic (Go compile actions included).
# nginx serves the directory of the shared disk cache (scripts/bazel-lib.sh, $KRM_DISK_CACHE)
# as its store, so the Go actions that earlier stages built are remote hits; no build here
# uses --disk_cache, so every hit is an HTTP one. Output bases are kept between runs under
# $KRM_TEST_DIR (default /tmp/rules_krm-tests); nginx is stopped on exit.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local LC_ALL=C # LC_ALL: one collation for sort, join and comm
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"
# Debian's nginx has the WebDAV module. The test runs nginx itself and never uses the
# package's system service.
if ! command -v nginx >/dev/null 2>&1; then
  [[ $(id -u) -eq 0 ]] || { echo "FAIL: nginx is missing; run as root to install Debian's nginx" >&2 && exit 1; }
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx
fi

# The trees to check, one per entry: the workspace directory (relative to the repository),
# the krm_kustomization of that workspace to change in step 4 (its kustomization file must
# not set commonAnnotations; - for none), then the target patterns to build.
trees=(
  ". //examples/components/base:base //examples/..."
  "e2e/gazelle //microservices-demo/base:base //..."
)
# The Gazelle e2e workspace gets the trees of its testdata, each in a directory of its own.
gazelle_ws=e2e/gazelle

dir=$(krm_test_dir remote-cache)
nonce=$(date +%s%N)

# -- The cache: nginx as Bazel's remote-caching docs describe it, in a prefix of its own. Its
# store is the shared disk cache's directory: Bazel's --disk_cache keeps AC and CAS entries
# at ac/HA/HASH and cas/HA/HASH (HA: the hash's first two characters), where an HTTP cache
# has /ac/HASH and /cas/HASH, so nginx rewrites the one to the other.
store=$(krm_disk_cache)
mkdir -p "$dir/nginx/tmp"
nginx_pid=
cleanup() {
  local tree sub
  for tree in "${trees[@]}"; do
    read -r sub _ <<<"$tree"
    bazel_in a "$sub" shutdown >/dev/null 2>&1 || true
    bazel_in b "$sub" shutdown >/dev/null 2>&1 || true
  done
  if [[ -n $nginx_pid ]]; then
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_nginx() {
  local port=$1 conf=$dir/nginx/nginx.conf
  cat >"$conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log $dir/nginx/access.log;
  client_body_temp_path $dir/nginx/tmp/body;
  proxy_temp_path $dir/nginx/tmp/proxy;
  fastcgi_temp_path $dir/nginx/tmp/fastcgi;
  uwsgi_temp_path $dir/nginx/tmp/uwsgi;
  scgi_temp_path $dir/nginx/tmp/scgi;
  server {
    listen 127.0.0.1:$port;
    root $store;
    log_not_found off;
    location / {
      rewrite "^/(ac|cas)/([0-9a-f]{2})([0-9a-f]{62})\$" /\$1/\$2/\$2\$3 break;
      dav_methods PUT;
      create_full_put_path on;
      client_max_body_size 1024m;
    }
  }
}
EOF
  : >"$dir/nginx/access.log"
  nginx -p "$dir/nginx" -c "$conf" -e "$dir/nginx/error.log" &
  nginx_pid=$!
  local i
  for i in $(seq 50); do
    if ! kill -0 "$nginx_pid" 2>/dev/null; then
      wait "$nginx_pid" || true
      nginx_pid=
      return 1
    fi
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "FAIL: nginx did not listen on 127.0.0.1:$port (see $dir/nginx/error.log)" >&2
  exit 1
}
# A free port: try random ones until nginx can bind one.
for attempt in $(seq 20); do
  port=$((20000 + RANDOM % 40000))
  if start_nginx "$port"; then break; fi
  if [[ $attempt -eq 20 ]]; then
    cat "$dir/nginx/error.log" >&2
    echo "FAIL: nginx could not start" >&2
    exit 1
  fi
done
cache_url=http://127.0.0.1:$port
echo "remote cache: nginx (pid $nginx_pid) at $cache_url, store $store"

# -- The checkouts. copy_checkout FROM TO: a copy of a checkout (its e2e workspaces
# included), without version control, tools and Bazel outputs; extracted under the umask.
copy_checkout() {
  rm -rf "$2"
  mkdir -p "$2"
  (cd "$1" && tar --exclude=./.git --exclude=./.bin --exclude='./bazel-*' --exclude='./e2e/*/bazel-*' -cf - .) |
    (cd "$2" && tar --no-same-owner --no-same-permissions -xf -)
}
ws_a=$dir/a/rules_krm
ws_b=$dir/b/elsewhere/with/a/longer/path/checkout
home_b=$dir/b/home
copy_checkout "$ROOT" "$ws_a"
# Every kustomization file gets a comment new to this run: every render action of the first
# build has inputs the cache has never seen.
while IFS= read -r -d '' k; do
  printf '\n# remote-cache-test run %s\n' "$nonce" >>"$k"
done < <(find "$ws_a" \( -name kustomization.yaml -o -name kustomization.yml -o -name Kustomization \) -print0)
# The Gazelle e2e workspace: the consumer module e2e/bzlmod (without its app), rules_krm two
# directories up (relative, so that B's copy uses B's checkout).
consumer_module "$ROOT/e2e/bzlmod" "$ws_a/$gazelle_ws" ../..
rm -rf "$ws_a/$gazelle_ws/app"
# Without e2e/bzlmod's golden test of rules_krm's examples/deploy: step 4 of the first tree
# edits B's examples, which this module sees as its external rules_krm.
sed -i '/^# A kustomization of another module/,$d; /"krm_golden_test")$/d' "$ws_a/$gazelle_ws/BUILD.bazel"
cp -R "$ws_a/$gazelle_ws/testdata/." "$ws_a/$gazelle_ws/"
mkdir -p "$home_b/bin"

# Module and build caches of the Go on PATH, shared by both checkouts' repository rules (as
# a CI cache would): B's other HOME would otherwise download every module again.
GOMODCACHE=$(go env GOMODCACHE) GOCACHE=$(go env GOCACHE)
export GOMODCACHE GOCACHE

# bazel_in a|b WORKSPACE_SUBDIR ARGS...: Bazel in checkout A or B, each in its own environment.
bazel_in() {
  local which=$1 sub=$2
  shift 2
  if [[ $which == a ]]; then
    (cd "$ws_a/$sub" && umask 022 && TZ=UTC LANG=C LC_ALL=C \
      bazel --output_base="$dir/output_base_a_${sub//[^a-z0-9]/_}" --max_idle_secs=3600 "$@")
  else
    (cd "$ws_b/$sub" && umask 027 && HOME=$home_b PATH=$home_b/bin:$PATH TZ=Pacific/Chatham LANG=C.UTF-8 LC_ALL=C.UTF-8 \
      bazel --output_base="$dir/output_base_b_${sub//[^a-z0-9]/_}" --max_idle_secs=3600 "$@")
  fi
}

# Checkout A generates the BUILD files of the Gazelle e2e workspace (Gazelle and its krm
# language build through the remote cache); B gets them with the rest of A's sources.
bazel_in a "$gazelle_ws" run --remote_cache="$cache_url" --symlink_prefix=/ //:gazelle >"$dir/gazelle_a.log" 2>&1 </dev/null &
if ! wait $!; then
  cat "$dir/gazelle_a.log" >&2
  echo "FAIL: bazel run //:gazelle in $gazelle_ws" >&2
  exit 1
fi
echo "gazelle: $(find "$ws_a/$gazelle_ws" -mindepth 2 -path "$ws_a/$gazelle_ws/testdata" -prune -o -name BUILD.bazel -print | grep -c .) BUILD files generated in $gazelle_ws"
(umask 027 && copy_checkout "$ws_a" "$ws_b")

# spawn_counts LOG: per mnemonic, "MNEMONIC executed cached" from an execution log.
spawn_counts() {
  execlog "$1" | awk -F'\t' '{ n[$1]++; if ($2 == "cached") c[$1]++ }
    END { for (m in n) printf "%s %d %d\n", m, n[m] - c[m], c[m] }' | sort
}

# executed_spawns LOG: the spawns that executed (no cache hit) but render actions, as
# "MNEMONIC OUTPUT" lines (the first output), sorted.
executed_spawns() {
  execlog "$1" | awk -F'\t' '$2 == "executed" && $1 != "KrmRender" && $1 != "KrmRenderOrigins" && $1 != "KrmManifests" {
    split($3, o, ","); print $1, o[1] }' | sort
}

# render_actions LOG STATE: the render actions (KrmRender, writing NAME.krmsnap;
# KrmRenderOrigins, NAME.origins.krmsnap; KrmManifests, NAME_manifests.yaml) that were STATE, as "MNEMONIC LABEL" lines, sorted. The label
# is the target's in the main repository (bazel-out/CONFIG/bin/PKG/NAME... is //PKG:NAME).
render_actions() {
  execlog "$1" | awk -F'\t' -v state="$2" '($1 == "KrmRender" || $1 == "KrmRenderOrigins" || $1 == "KrmManifests") && $2 == state {
    n = split($3, o, ",")
    for (i = 1; i <= n; i++) if (o[i] ~ /(\.krmsnap|_manifests\.yaml)$/) print $1, o[i]
  }' | sed -E 's#\.origins\.krmsnap$#.krmsnap#; s#^([A-Za-z]+) bazel-out/[^/]+/bin/(.*)(\.krmsnap|_manifests\.yaml)$#\1 \2#;
    s#^([A-Za-z]+) (([^ ]*)/)?([^/]+)$#\1 //\3:\4#' | sort
}

# Checkouts download only the outputs of the targets they build, snapshots and provenance
# manifests included (what the comparison needs), not the renderer's compiled packages.
download_flags=(--remote_download_toplevel --output_groups=+snapshot,+provenance --symlink_prefix=/)

failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# build a|b SUB NAME PATTERNS FLAGS...: a build with an execution log $dir/exec_NAME.json.
build() {
  local which=$1 sub=$2 name=$3 patterns=$4
  shift 4
  local log=$dir/exec_$name.json
  rm -f "$log"
  # In the background, so that a signal stops nginx at once (bash defers traps until a
  # foreground command ends, but not during `wait`).
  # shellcheck disable=SC2086 # patterns is a space-separated list
  bazel_in "$which" "$sub" build --remote_cache="$cache_url" --execution_log_json_file="$log" "$@" \
    -- $patterns >"$dir/build_$name.log" 2>&1 </dev/null &
  if ! wait $!; then
    cat "$dir/build_$name.log" >&2
    echo "FAIL: build $name failed" >&2
    exit 1
  fi
  if grep -q "WARNING: Writing to Remote Cache\|WARNING: Reading from Remote Cache" "$dir/build_$name.log"; then
    grep "Remote Cache" "$dir/build_$name.log" | head -5 >&2
    fail "$name: the remote cache reported errors"
  fi
  echo "$name: spawns per mnemonic (executed, remote cache hits):"
  spawn_counts "$log" | sed 's/^/  /'
}

# check_renders NAME EXECUTED CACHED: the render actions of build NAME that executed and
# that were remote cache hits are exactly the lines of the files EXECUTED and CACHED.
check_renders() {
  local log=$dir/exec_$1.json state want
  for state in executed cached; do
    [[ $state == executed ]] && want=$2 || want=$3
    if ! diff <(render_actions "$log" "$state") "$want" >"$dir/diff_$1_$state"; then
      fail "$1: render actions $state (<) differ from those expected (>):"$'\n'"$(head -20 "$dir/diff_$1_$state")"
    fi
  done
}

# outputs_of a|b SUB NAME: the render outputs (manifests, snapshots, provenance) under
# bazel-bin, relative to it, into $dir/outputs_NAME; prints bazel-bin.
outputs_of() {
  local bin
  bin=$(bazel_in "$1" "$2" info bazel-bin 2>/dev/null)
  (cd "$bin" && find . -name '*.runfiles' -prune -o -path ./external -prune -o \( -name '*_manifests.yaml' \
    -o -name '*.krmsnap' -o -name '*.provenance.json' \) -print | sed 's|^\./||' | sort) >"$dir/outputs_$3"
  echo "$bin"
}

# query a|b SUB EXPR FILE: the labels of the targets of a query, sorted, into FILE.
query() {
  if ! bazel_in "$1" "$2" query "$3" --output=label >"$4" 2>"$4.log" </dev/null; then
    cat "$4.log" >&2
    echo "FAIL: bazel query $3 in $2" >&2
    exit 1
  fi
  sort -o "$4" "$4"
}

total_hits=0
total_renders=0
for tree in "${trees[@]}"; do
  read -r sub edit_target patterns <<<"$tree"
  echo "== tree $sub: $patterns"
  tag=${sub//[^a-z0-9]/_}
  # The render actions to expect. Top-level: every krm_kustomization of the patterns but
  # those tagged manual (which patterns like //... skip). Each of these and every
  # krm_kustomization they depend on has a KrmRender (the builds ask for snapshots); each
  # top-level one without kind = "Component" has a KrmManifests (the kind is optional: a
  # component without it has empty manifests).
  # shellcheck disable=SC2086
  universe="($(printf '%s + ' $patterns | sed 's/ + $//'))"
  top="kind(krm_kustomization_rule, $universe) except attr(tags, manual, $universe)"
  query a "$sub" "kind(krm_kustomization_rule, deps($top))" "$dir/snapshots_$tag"
  query a "$sub" "$top except attr(kind, '^Component\$', $universe)" "$dir/manifests_$tag"
  query a "$sub" "$top" "$dir/top_$tag"
  # A target with build_metadata = True reads its deps' snapshots with origins: each of its
  # deps, transitively, has a KrmRenderOrigins.
  query a "$sub" "kind(krm_kustomization_rule, deps(labels(deps, attr(build_metadata, 1, $top))))" "$dir/origins_$tag"
  { sed 's/^/KrmRender /' "$dir/snapshots_$tag" && sed 's/^/KrmRenderOrigins /' "$dir/origins_$tag" &&
    sed 's/^/KrmManifests /' "$dir/manifests_$tag"; } | sort >"$dir/expected_$tag"
  n_renders=$(grep -c . "$dir/expected_$tag" || true)
  # The outputs checkout B must have: the manifests and snapshots of the top-level targets.
  { sed -E 's#^//:?##; s#:#/#; s#$#.krmsnap#' "$dir/top_$tag" &&
    sed -E 's#^//:?##; s#:#/#; s#$#_manifests.yaml#' "$dir/manifests_$tag"; } | sort >"$dir/want_outputs_$tag"
  echo "$sub: $(grep -c . "$dir/top_$tag") krm_kustomization targets, $(grep -c . "$dir/snapshots_$tag") with their deps: $n_renders render actions expected"
  if [[ $(grep -c . "$dir/manifests_$tag") -eq 0 ]]; then
    fail "$sub: no krm_kustomization with manifests in $patterns"
    continue
  fi

  # 2. Checkout A: every render action executes and is uploaded.
  puts_before=$(grep -c '"PUT /ac/' "$dir/nginx/access.log" || true)
  name=a_$tag
  build a "$sub" "$name" "$patterns" "${download_flags[@]}"
  check_renders "$name" "$dir/expected_$tag" /dev/null
  executed=$(render_actions "$dir/exec_$name.json" executed | grep -c . || true)
  puts=$(($(grep -c '"PUT /ac/' "$dir/nginx/access.log" || true) - puts_before))
  bad_puts=$(awk '$6 == "\"PUT" && $9 !~ /^2/' "$dir/nginx/access.log" | grep -c . || true)
  echo "$name: $executed of $n_renders render actions executed; $puts action results uploaded"
  [[ $puts -ge $executed ]] || fail "$name: want at least $executed action results uploaded (PUT /ac/), got $puts"
  [[ $bad_puts -eq 0 ]] || fail "nginx refused $bad_puts uploads (see $dir/nginx/access.log)"
  bin_a=$(outputs_of a "$sub" "$name")

  # 3. Checkout B: every krm action a remote cache hit, with and without the sandbox.
  for strategy in local sandboxed; do
    name=b_${tag}_$strategy
    bazel_in b "$sub" clean >/dev/null 2>&1
    build b "$sub" "$name" "$patterns" --spawn_strategy="$strategy" --noremote_upload_local_results "${download_flags[@]}"
    check_renders "$name" /dev/null "$dir/expected_$tag"
    executed=$(executed_spawns "$dir/exec_$name.json")
    [[ -z $executed ]] || fail "$name: actions executed (want none: every action a remote cache hit):"$'\n'"$executed"
    hits=$(render_actions "$dir/exec_$name.json" cached | grep -c . || true)
    actions=$((hits + $(render_actions "$dir/exec_$name.json" executed | grep -c . || true)))
    echo "$name: remote cache hit rate of render actions: $hits/$actions ($(grep -c '^KrmRender ' "$dir/expected_$tag") KrmRender, $(grep -c '^KrmRenderOrigins ' "$dir/expected_$tag") KrmRenderOrigins, $(grep -c '^KrmManifests ' "$dir/expected_$tag") KrmManifests expected)"
    total_hits=$((total_hits + hits))
    total_renders=$((total_renders + actions))
    bin_b=$(outputs_of b "$sub" "$name")
    missing=$(comm -23 "$dir/want_outputs_$tag" "$dir/outputs_$name")
    [[ -z $missing ]] || fail "$name: outputs missing from bazel-bin:"$'\n'"$missing"
    n=0
    while IFS= read -r f; do
      n=$((n + 1))
      if [[ ! -f $bin_a/$f ]]; then
        fail "$name: $f is not among checkout A's outputs"
      elif ! cmp -s "$bin_a/$f" "$bin_b/$f"; then
        fail "$name: $f differs from checkout A's"
      fi
    done <"$dir/outputs_$name"
    echo "$name: compared $n render outputs with checkout A's"
  done

  # 4. A change to one base in B: exactly the render actions of what depends on it execute.
  [[ $edit_target == - ]] && continue
  query b "$sub" "kind(krm_kustomization_rule, rdeps($universe, $edit_target))" "$dir/rdeps_$tag"
  join -1 2 -2 1 -o 1.1,1.2 <(sort -k2 "$dir/expected_$tag") "$dir/rdeps_$tag" | sort >"$dir/expected_edit_$tag"
  comm -23 "$dir/expected_$tag" "$dir/expected_edit_$tag" >"$dir/expected_edit_cached_$tag"
  # Its kustomization file, from its srcs (a label of this workspace: //pkg:file).
  kfile=$ws_b/$sub/$(bazel_in b "$sub" query "labels(srcs, $edit_target)" --output=label 2>/dev/null |
    grep -E '[:/](kustomization\.ya?ml|Kustomization)$' | sed 's|^//||; s|^:||; s|:|/|')
  if [[ ! -f $kfile ]] || grep -q '^commonAnnotations:' "$kfile"; then
    fail "$sub: cannot change $edit_target: no kustomization file $kfile, or it sets commonAnnotations"
    continue
  fi
  printf 'commonAnnotations:\n  remote-cache-test/run: "%s"\n' "$nonce" >>"$kfile"
  name=b_${tag}_edit
  bazel_in b "$sub" clean >/dev/null 2>&1
  build b "$sub" "$name" "$patterns" "${download_flags[@]}"
  check_renders "$name" "$dir/expected_edit_$tag" "$dir/expected_edit_cached_$tag"
  executed=$(executed_spawns "$dir/exec_$name.json")
  [[ -z $executed ]] || fail "$name: actions executed that are not renders (want none):"$'\n'"$executed"
  echo "$name: changed $edit_target; it and the kustomizations that depend on it: $(grep -c . "$dir/rdeps_$tag");" \
    "$(grep -c . "$dir/expected_edit_$tag") render actions executed, $(grep -c . "$dir/expected_edit_cached_$tag") remote cache hits expected;" \
    "got $(render_actions "$dir/exec_$name.json" executed | grep -c .) and $(render_actions "$dir/exec_$name.json" cached | grep -c .)"
done

echo "remote cache hit rate of render actions in checkout B: $total_hits/$total_renders"
# The CPU time of the Bazel servers (their actions included: children they waited for), as
# /proc gives it in clock ticks, for the cost of this test on an idle machine.
cpu=0
for base in "$dir"/output_base_*; do
  pid=$(cat "$base/server/server.pid.txt" 2>/dev/null) || continue
  ticks=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pid/stat" 2>/dev/null) || continue
  cpu=$((cpu + ticks))
done
echo "time: ${SECONDS} s wall; Bazel servers $((cpu / $(getconf CLK_TCK))) s CPU"
if [[ $failures -ne 0 ]]; then
  echo "remote cache test: $failures check(s) failed (logs in $dir)" >&2
  exit 1
fi
echo "remote cache test passed"
