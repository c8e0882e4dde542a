#!/bin/sh
# An exec KRM function (a generator) that reads a runfile: it writes a ConfigMap note-ARG1
# whose data.text is the content of note.txt, found through $0.runfiles.
set -eu
cat >/dev/null
# The main repository is rules_krm in WORKSPACE mode and _main under bzlmod.
text=$(cat "$0".runfiles/*/rules/tests/functions/note.txt)
cat <<OUT
apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: note-$1
  data:
    text: "$text"
OUT
