#!/usr/bin/env bash
# prod_trace_test: the provenance manifest that //examples/provenance:prod wrote traces every
# object of the golden (`krm trace`, exit 0: each inputs digest matches, and each object has
# the fields of its rendered object in prod_manifests.yaml beside the provenance manifest, the
# default of --manifests), with the component's
# label (passed by the rule with --label-map) and the workspace's input files unchanged.
# Arguments: KRM PROVENANCE_JSON GOLDEN (runfiles paths; the test runs in the runfiles tree,
# where the sources sit at their workspace paths).
set -euo pipefail
krm=$1 manifest=$2 golden=$3

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

[[ -s $manifest ]] || fail "no provenance manifest at $manifest"
grep -qF '"kustomization": "examples/provenance/prod",' "$manifest" ||
  fail "$manifest is not the manifest of examples/provenance/prod"

out=$("$krm" trace "$golden" --provenance-manifest "$manifest" --workspace-root .) ||
  fail "krm trace $golden exited with $?:"$'\n'"$out"
echo "$out"

objects=$(grep -c '^kind: ' "$golden")
matches=$(grep -c ': matches, rendered from these inputs$' <<<"$out" || true)
[[ $objects -gt 0 && $matches -eq $objects ]] ||
  fail "$matches of the $objects objects of $golden match the provenance manifest"
for want in \
  'Deployment shop/prod-web (apps/v1)' \
  'origin:        examples/provenance/base/deployment.yaml:1-20 (//examples/provenance:base)' \
  '1. PatchTransformer  configured in examples/provenance/comp/kustomization.yaml (//examples/provenance:comp)' \
  'workspace:     its input files are unchanged since the render'; do
  grep -qF -- "$want" <<<"$out" || fail "krm trace does not say: $want"
done
echo "PASS: $objects objects traced"
