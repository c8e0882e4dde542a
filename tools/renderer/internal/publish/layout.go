package publish

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The layout of a published branch (docs/publish.md):
//
//	hydrator.metadata              what was published, from which source commit
//	<deployment path>/manifest.yaml  one deployment's rendered manifests
//
// krm owns the root's hydrator.metadata and every file named manifest.yaml:
// a manifest.yaml whose deployment is no longer published is removed (and
// with it the directory, when nothing else is in it); other files stay.
const (
	// ManifestFile is the name of each deployment's manifests file.
	ManifestFile = "manifest.yaml"
	// MetadataFile is the GitOps Promoter hydrator contract's file at the
	// branch's root.
	MetadataFile = "hydrator.metadata"
)

// Deployment is one deployment to publish.
type Deployment struct {
	// Path is its directory in the branch: slash-separated, relative.
	Path string
	// Manifests is the file holding its rendered manifests.
	Manifests string
}

// CheckPath reports why p cannot be a deployment's directory in the branch,
// or nil.
func CheckPath(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("empty path")
	case !utf8.ValidString(p):
		return fmt.Errorf("%q is not UTF-8", p)
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		return fmt.Errorf("%q has a control character", p)
	case strings.Contains(p, `\`):
		return fmt.Errorf("%q has a backslash: separate directories with /", p)
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("%q is absolute: give a path relative to the branch's root", p)
	case path.Clean(p) != p:
		return fmt.Errorf("%q is not a clean path (no ., .., empty or trailing components): write %q", p, path.Clean(p))
	case strings.HasPrefix(p, "../") || p == ".." || p == ".":
		return fmt.Errorf("%q is outside the branch's root", p)
	}
	for _, c := range strings.Split(p, "/") {
		if strings.EqualFold(c, ".git") {
			return fmt.Errorf("%q has a .git component", p)
		}
		if c == ManifestFile {
			return fmt.Errorf("%q has a %s component: that name is the manifests file's", p, ManifestFile)
		}
	}
	if first, _, _ := strings.Cut(p, "/"); first == MetadataFile {
		return fmt.Errorf("%q: %s is the metadata file's name", p, MetadataFile)
	}
	return nil
}

// checkDeployments checks each path and that no two deployments share one.
func checkDeployments(ds []Deployment) error {
	if len(ds) == 0 {
		return fmt.Errorf("no deployments to publish")
	}
	seen := map[string]string{}
	for _, d := range ds {
		if err := CheckPath(d.Path); err != nil {
			return fmt.Errorf("deployment %s=%s: %w", d.Path, d.Manifests, err)
		}
		if prev, ok := seen[d.Path]; ok {
			return fmt.Errorf("deployment path %s is given twice (%s and %s)", d.Path, prev, d.Manifests)
		}
		seen[d.Path] = d.Manifests
	}
	return nil
}

// fullSHA is a git object name in full: SHA-1 or SHA-256, lower case, as the
// GitOps Promoter accepts drySha.
var fullSHA = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`) })

// Metadata is hydrator.metadata: the fields of the GitOps Promoter hydrator
// contract (drySha, repoURL, commands) and the deployments krm published.
// No time stamps: the same source commit and manifests give the same bytes.
type Metadata struct {
	// DrySha is the source commit the manifests were rendered from.
	DrySha string `json:"drySha"`
	// RepoURL is the source repository, when known.
	RepoURL string `json:"repoURL,omitempty"`
	// Commands are what rendered the manifests (for example the bazel
	// command), in the order given.
	Commands []string `json:"commands,omitempty"`
	// Deployments are the published directories, sorted.
	Deployments []string `json:"deployments"`
}

// metadataBytes is m as the file holds it: indented JSON and a newline.
func metadataBytes(drySha, repoURL string, commands []string, ds []Deployment) []byte {
	m := Metadata{DrySha: drySha, RepoURL: repoURL, Commands: commands}
	for _, d := range ds {
		m.Deployments = append(m.Deployments, d.Path)
	}
	sort.Strings(m.Deployments)
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // strings and slices of strings always marshal
	}
	return append(b, '\n')
}

// owned reports whether a file of the branch is krm's manifests file.
func owned(file string) bool {
	return path.Base(file) == ManifestFile
}
