# Sourced by the benchmark scripts, with ROOT, KUSTOMIZE_VERSION and log set:
# sets KUSTOMIZE (installed into .bin/ at KUSTOMIZE_VERSION when unset),
# kversion, and KRM (built into .bin/ when unset, krm_helm beside it), both absolute.

# Absolute path of a command given as a path or a name on $PATH.
abspath() {
  case $1 in
    */*) echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" ;;
    *) command -v "$1" ;;
  esac
}

if [[ -z ${KUSTOMIZE:-} ]]; then
  KUSTOMIZE=$ROOT/.bin/kustomize
  if [[ ! -x $KUSTOMIZE ]] || [[ $("$KUSTOMIZE" version 2>/dev/null) != "$KUSTOMIZE_VERSION" ]]; then
    log "installing kustomize $KUSTOMIZE_VERSION into .bin/"
    GOBIN=$ROOT/.bin go install "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION"
  fi
fi
KUSTOMIZE=$(abspath "$KUSTOMIZE")
kversion=$("$KUSTOMIZE" version 2>/dev/null || echo unknown)
[[ $kversion == "$KUSTOMIZE_VERSION" ]] || log "WARNING: $KUSTOMIZE reports version $kversion, expected $KUSTOMIZE_VERSION"

if [[ -z ${KRM:-} ]]; then
  # The default build, with krm_helm beside it for charts (tools/renderer/internal/handoff).
  log "building .bin/krm and .bin/krm_helm"
  if ! go build -o .bin/krm ./tools/renderer || ! go build -o .bin/krm_helm ./tools/renderer/krm_helm; then
    log "FAILED: go build ./tools/renderer (set KRM=PATH to benchmark another binary, e.g. KRM=.bin/kustomize)"
    exit 1
  fi
  KRM=$ROOT/.bin/krm
fi
KRM=$(abspath "$KRM")
