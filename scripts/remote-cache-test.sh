#!/usr/bin/env bash
# Checks that render actions are shared through a real HTTP remote cache by checkouts that
# differ in everything but their sources (docs/remote-cache.md):
#   1. nginx with WebDAV PUT (Bazel's documented HTTP cache) starts on a free 127.0.0.1 port;
#   2. checkout A builds the trees below with --remote_cache: every render executes (each
#      kustomization file gets a comment new to this run) and is uploaded;
#   3. checkout B, a copy at another absolute path, with another output base, HOME, PATH,
#      TZ, LANG and umask, builds them once with --spawn_strategy=local and once in the
#      sandbox: no krm action executes, every render is a remote cache hit, and the
#      manifests and snapshots are byte-identical to A's;
#   4. after a change to one base in B, exactly the renders that depend on it execute.
# Prints the hit rate per mnemonic (Go compile actions of the renderer included).
# The cache store and the output bases are kept between runs under $KRM_TEST_DIR (default
# /tmp/rules_krm-tests); nginx is stopped on exit.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GOTOOLCHAIN=local
# shellcheck source=scripts/bazel-lib.sh
source "$ROOT/scripts/bazel-lib.sh"
"$ROOT/scripts/install-bazel.sh"
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
)

dir=$(krm_test_dir remote-cache)
nonce=$(date +%s%N)

# -- The cache: nginx as Bazel's remote-caching docs describe it, in a prefix of its own.
store=$dir/store
# Kept between runs (it holds the renderer's compiled Go packages), but bounded.
if [[ -d $store && $(du -sm "$store" | cut -f1) -gt 2048 ]]; then rm -rf "$store"; fi
mkdir -p "$store" "$dir/nginx/tmp"
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
(umask 027 && copy_checkout "$ws_a" "$ws_b")
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
      bazel --output_base="$dir/output_base_a_${sub//[^a-z0-9]/_}" --max_idle_secs=600 "$@")
  else
    (cd "$ws_b/$sub" && umask 027 && HOME=$home_b PATH=$home_b/bin:$PATH TZ=Pacific/Chatham LANG=C.UTF-8 LC_ALL=C.UTF-8 \
      bazel --output_base="$dir/output_base_b_${sub//[^a-z0-9]/_}" --max_idle_secs=600 "$@")
  fi
}

# spawn_counts LOG: per mnemonic, "MNEMONIC executed cached" from an execution log.
spawn_counts() {
  execlog "$1" | awk -F'\t' '{ n[$1]++; if ($2 == "cached") c[$1]++ }
    END { for (m in n) printf "%s %d %d\n", m, n[m] - c[m], c[m] }' | sort
}

# krm_spawns LOG STATE: the spawns of krm actions (mnemonics Krm*) that were STATE, as
# "MNEMONIC OUTPUT" lines (the snapshot of a render, else the first output), sorted.
krm_spawns() {
  execlog "$1" | awk -F'\t' -v state="$2" '$1 ~ /^Krm/ && $2 == state {
    n = split($3, o, ","); out = o[1]
    for (i = 1; i <= n; i++) if (o[i] ~ /\.krmsnap$/) out = o[i]
    print $1, out
  }' | sort
}

# Checkout B downloads only the outputs of the targets it builds, snapshots and provenance
# manifests included (what the comparison needs), not the renderer's compiled packages.
download_flags=(--remote_download_toplevel --output_groups=+snapshot,+provenance)

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
    -- $patterns >"$dir/build_$name.log" 2>&1 &
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

# outputs_of a|b SUB NAME: the render outputs (manifests, snapshots, provenance) under
# bazel-bin, relative to it, into $dir/outputs_NAME.
outputs_of() {
  local bin
  bin=$(bazel_in "$1" "$2" info bazel-bin 2>/dev/null)
  (cd "$bin" && find . -name '*.runfiles' -prune -o \( -name '*_manifests.yaml' -o -name '*.krmsnap' \
    -o -name '*.provenance.json' \) -print | sort) >"$dir/outputs_$3"
  echo "$bin"
}

total_hits=0
total_renders=0
for tree in "${trees[@]}"; do
  read -r sub edit_target patterns <<<"$tree"
  echo "== tree $sub: $patterns"
  # The renders to expect: one per krm_kustomization in the patterns but those with
  # kind = "Component" (no manifests, and no snapshot unless a parent needs it) and those
  # tagged manual (which patterns like //examples/... skip). The kind attribute is optional.
  # shellcheck disable=SC2086
  universe="($(printf '%s + ' $patterns | sed 's/ + $//'))"
  kustomizations="kind(krm_kustomization_rule, $universe) except attr(kind, '^Component\$', $universe) except attr(tags, manual, $universe)"
  bazel_in a "$sub" query "$kustomizations" --output=label 2>/dev/null | sort >"$dir/expected_all"
  n_renders=$(grep -c . "$dir/expected_all" || true)
  if [[ $n_renders -eq 0 ]]; then
    fail "$sub: no krm_kustomization in $patterns"
    continue
  fi
  tag=${sub//[^a-z0-9]/_}

  # 2. Checkout A: every render executes and is uploaded.
  puts_before=$(grep -c '"PUT /ac/' "$dir/nginx/access.log" || true)
  build a "$sub" "a_$tag" "$patterns"
  executed=$(krm_spawns "$dir/exec_a_$tag.json" executed | grep -c '^KrmRender ' || true)
  puts=$(($(grep -c '"PUT /ac/' "$dir/nginx/access.log" || true) - puts_before))
  bad_puts=$(awk '$6 == "\"PUT" && $9 !~ /^2/' "$dir/nginx/access.log" | grep -c . || true)
  echo "a_$tag: $executed of $n_renders renders executed; $puts action results uploaded"
  [[ $executed -eq $n_renders ]] || fail "a_$tag: want all $n_renders renders executed, got $executed"
  [[ $puts -ge $executed ]] || fail "a_$tag: want at least $executed action results uploaded (PUT /ac/), got $puts"
  [[ $bad_puts -eq 0 ]] || fail "nginx refused $bad_puts uploads (see $dir/nginx/access.log)"
  bin_a=$(outputs_of a "$sub" "a_$tag")

  # 3. Checkout B: every krm action a remote cache hit, with and without the sandbox.
  for strategy in local sandboxed; do
    name=b_${tag}_$strategy
    bazel_in b "$sub" clean >/dev/null 2>&1
    build b "$sub" "$name" "$patterns" --spawn_strategy="$strategy" --noremote_upload_local_results "${download_flags[@]}"
    executed_krm=$(krm_spawns "$dir/exec_$name.json" executed)
    hits=$(krm_spawns "$dir/exec_$name.json" cached | grep -c '^KrmRender ' || true)
    echo "$name: remote cache hit rate of renders: $hits/$n_renders"
    [[ -z $executed_krm ]] || fail "$name: krm actions executed (want none):"$'\n'"$executed_krm"
    [[ $hits -eq $n_renders ]] || fail "$name: want $n_renders renders from the remote cache, got $hits"
    total_hits=$((total_hits + hits))
    total_renders=$((total_renders + n_renders))
    bin_b=$(outputs_of b "$sub" "$name")
    if ! cmp -s "$dir/outputs_a_$tag" "$dir/outputs_$name"; then
      fail "$name: other render outputs than checkout A's: $(diff "$dir/outputs_a_$tag" "$dir/outputs_$name" | grep '^[<>]' | head -5 | tr '\n' ' ')"
    fi
    n=0
    while IFS= read -r f; do
      n=$((n + 1))
      cmp -s "$bin_a/$f" "$bin_b/$f" || fail "$name: ${f#./} differs from checkout A's"
    done <"$dir/outputs_a_$tag"
    echo "$name: compared $n render outputs with checkout A's"
  done

  # 4. A change to one base in B: exactly the renders that depend on it execute.
  [[ $edit_target == - ]] && continue
  rdeps="kind(krm_kustomization_rule, rdeps($universe, $edit_target)) intersect ($kustomizations)"
  bazel_in b "$sub" query "$rdeps" --output=label 2>/dev/null | sort >"$dir/expected_rdeps"
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
  executed_labels=$(krm_spawns "$dir/exec_$name.json" executed | awk '$1 == "KrmRender" { print $2 }' |
    sed -E 's|^bazel-out/[^/]+/bin/(external/([^/]+)/)?(.*)/([^/]+)\.krmsnap$|@\2//\3:\4|; s|^@//|//|' | sort)
  echo "$name: changed $edit_target; renders executed:" $executed_labels
  if [[ $executed_labels != "$(cat "$dir/expected_rdeps")" ]]; then
    fail "$name: want exactly the renders of the kustomizations that depend on $edit_target:"$'\n'"$(diff <(echo "$executed_labels") "$dir/expected_rdeps")"
  fi
  hits=$(krm_spawns "$dir/exec_$name.json" cached | grep -c '^KrmRender ' || true)
  want_hits=$((n_renders - $(grep -c . "$dir/expected_rdeps")))
  [[ $hits -eq $want_hits ]] || fail "$name: want the other $want_hits renders from the remote cache, got $hits"
done

echo "remote cache hit rate of renders in checkout B: $total_hits/$total_renders"
if [[ $failures -ne 0 ]]; then
  echo "remote cache test: $failures check(s) failed (logs in $dir)" >&2
  exit 1
fi
echo "remote cache test passed"
