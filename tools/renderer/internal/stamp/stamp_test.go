package stamp

import (
	"strings"
	"testing"
)

var status = ParseStatus([]byte("STABLE_GIT_COMMIT abc123\nSTABLE_EMPTY\n"), []byte("BUILD_USER alice smith\r\nSTABLE_GIT_COMMIT def456\n"))

func TestParseStatus(t *testing.T) {
	want := map[string]string{"STABLE_GIT_COMMIT": "def456", "STABLE_EMPTY": "", "BUILD_USER": "alice smith"}
	if len(status) != len(want) {
		t.Fatalf("ParseStatus = %v, want %v", status, want)
	}
	for k, v := range want {
		if status[k] != v {
			t.Errorf("ParseStatus[%s] = %q, want %q", k, status[k], v)
		}
	}
}

func TestManifests(t *testing.T) {
	in := `apiVersion: v1
kind: Pod
metadata:
  name: untouched
  labels:
    run: '{NOT_A_STATUS_KEY}'
---
apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    by: '{BUILD_USER} at {STABLE_GIT_COMMIT}'
  labels:
    version: '{STABLE_GIT_COMMIT}'
  name: web
spec:
  template:
    metadata:
      labels:
        version: '{STABLE_GIT_COMMIT}'
    spec:
      containers:
      - env:
        - name: COMMIT
          value: '{STABLE_GIT_COMMIT}'
        image: web:{STABLE_GIT_COMMIT}
        name: web
`
	// Stamped: the labels, annotations and image; not the env value.
	want := strings.NewReplacer(
		"'{BUILD_USER} at {STABLE_GIT_COMMIT}'", "alice smith at def456",
		"version: '{STABLE_GIT_COMMIT}'", "version: def456",
		"image: web:{STABLE_GIT_COMMIT}", "image: web:def456",
	).Replace(in)
	if strings.Count(want, "def456") != 4 {
		t.Fatalf("test bug: want:\n%s", want)
	}
	got, err := Manifests([]byte(in), status)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("Manifests:\n%s\nwant:\n%s", got, want)
	}
	// Nothing to stamp: the same bytes.
	plain := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"
	if got, err := Manifests([]byte(plain), status); err != nil || string(got) != plain {
		t.Errorf("Manifests(no placeholders) = %q, %v", got, err)
	}
}

func TestManifestsQuotesWhatNeedsQuotes(t *testing.T) {
	in := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    num: '{STABLE_N}'\n  name: c\n"
	got, err := Manifests([]byte(in), map[string]string{"STABLE_N": "123"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `num: "123"`) {
		t.Errorf("a numeric value must stay a string:\n%s", got)
	}
}

func TestMissingKey(t *testing.T) {
	in := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    a: '{STABLE_NOPE}'\n  name: c\n  namespace: ns\n"
	_, err := Manifests([]byte(in), status)
	want := "ConfigMap/ns/c: metadata.annotations.a: {STABLE_NOPE} is not a key of the workspace status (it has BUILD_USER, STABLE_EMPTY, STABLE_GIT_COMMIT)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v, want it to say %q", err, want)
	}
}
