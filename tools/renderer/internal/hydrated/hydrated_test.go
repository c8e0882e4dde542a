package hydrated

import (
	"strings"
	"testing"
)

func TestCheckPath(t *testing.T) {
	for p, want := range map[string]string{
		"deploy/prod":           "",
		"a":                     "",
		"":                      "empty path",
		"/abs":                  "is absolute",
		"a/../b":                "not a clean path",
		"a//b":                  "not a clean path",
		"a/":                    "not a clean path",
		"./a":                   "not a clean path",
		".":                     "outside the branch's root",
		"..":                    "outside the branch's root",
		`a\b`:                   "backslash",
		"a\nb":                  "control character",
		"x/.GIT":                ".git component",
		"x/manifest.yaml/y":     "the manifests file's",
		"hydrator.metadata":     "the metadata file's name",
		"hydrator.metadata/x":   "the metadata file's name",
		"hydrator.metadata.d/x": "",
	} {
		err := CheckPath(p)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("CheckPath(%q) = %v, want %q", p, err, want)
		}
	}
}

func TestMetadata(t *testing.T) {
	sha := strings.Repeat("ab", 20)
	m := Metadata{DrySha: sha, Commands: []string{"bazel build //d:b //d:a"}, Deployments: []string{"d/b", "d/a"}}
	want := `{
  "drySha": "` + sha + `",
  "commands": [
    "bazel build //d:b //d:a"
  ],
  "deployments": [
    "d/a",
    "d/b"
  ]
}
`
	if got := string(m.Bytes()); got != want {
		t.Errorf("Bytes() =\n%s\nwant\n%s", got, want)
	}
	if m.Deployments[0] != "d/b" {
		t.Error("Bytes sorted the caller's slice")
	}
	back, err := ParseMetadata(m.Bytes())
	if err != nil || back.DrySha != sha || len(back.Deployments) != 2 {
		t.Errorf("ParseMetadata(Bytes()) = %+v, %v", back, err)
	}
	// Argo CD's source hydrator writes more fields: ignored.
	if m, err := ParseMetadata([]byte(`{"repoURL": "https://example.com/r.git", "drySha": "` + sha + `", "author": "a", "date": "2025-01-01T00:00:00Z"}`)); err != nil || m.DrySha != sha {
		t.Errorf("Argo CD's metadata: %+v, %v", m, err)
	}
	for data, want := range map[string]string{
		``:                     "not a JSON object",
		`[]`:                   "not a JSON object",
		`{"drySha": 1}`:        "not a JSON object",
		`{}`:                   "no drySha",
		`{"drySha": "abc123"}`: `drySha "abc123": want a full commit SHA`,
		`{"drySha": "` + strings.ToUpper(sha) + `"}`: "want a full commit SHA",
	} {
		if _, err := ParseMetadata([]byte(data)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseMetadata(%q) = %v, want %q", data, err, want)
		}
	}
}

func TestDeploymentPath(t *testing.T) {
	if got := DeploymentPath("examples/deploy", "prod"); got != "examples/deploy/prod" {
		t.Errorf("DeploymentPath(examples/deploy, prod) = %q", got)
	}
	if got := DeploymentPath("", "top"); got != "top" {
		t.Errorf("DeploymentPath(\"\", top) = %q", got)
	}
}
