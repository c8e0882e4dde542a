# Sourced by the benchmark scripts: kubeflow_copy KUBEFLOW ARGO DEST copies a checkout of
# kubeflow/manifests into DEST with its remote bases made local. kubeflow's kustomizations name
# remote bases, which no tool may fetch here: in the copy, argo-workflows URLs point into the
# checkout ARGO of argoproj/argo-workflows (at its version, not the pinned tag) and
# kubernetes-sigs release URLs (jobset, lws) are dropped. `example/` then renders 664 objects.
kubeflow_copy() {
  local src=$1 argo=$2 kf=$3 f rel
  mkdir -p "$kf/.remote/argo-workflows"
  (cd "$src" && tar --exclude=.git -cf - .) | tar -xf - -C "$kf"
  cp -r "$(cd "$argo" && pwd)/manifests" "$kf/.remote/argo-workflows/"
  while IFS= read -r -d '' f; do
    rel=$(realpath --relative-to="$(dirname "$f")" "$kf/.remote/argo-workflows")
    sed -i -E \
      -e "s#https://github.com/argoproj/argo-workflows/(manifests/[^?]*)\?ref=[^ ]*#$rel/\1#" \
      -e '/^\s*-\s*https:\/\/github.com\/kubernetes-sigs\//d' "$f"
  done < <(grep -rlZE 'https://github.com/(argoproj/argo-workflows|kubernetes-sigs)/' --include=kustomization.yaml "$kf")
}
