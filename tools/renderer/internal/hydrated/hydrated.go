// Package hydrated is the layout of a tree of rendered ("hydrated")
// manifests: what `krm publish` writes into a GitOps branch and what
// prdiff reads back as the base revision's renders (docs/publish.md,
// docs/pr-diffs.md):
//
//	hydrator.metadata                what was rendered, from which source commit
//	<deployment path>/manifest.yaml  one deployment's rendered manifests
//
// A krm_publish deployment's path is its kustomization's package and name
// (DeploymentPath). Argo CD's source hydrator also writes a
// hydrator.metadata into each deployment's directory.
package hydrated

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

const (
	// ManifestFile is the name of each deployment's manifests file.
	ManifestFile = "manifest.yaml"
	// MetadataFile is the GitOps Promoter hydrator contract's file at the
	// tree's root.
	MetadataFile = "hydrator.metadata"
)

// DeploymentPath is the directory of the kustomization //pkg:name, as
// krm_publish lays it out (rules/private/publish.bzl): its package and
// name.
func DeploymentPath(pkg, name string) string {
	if pkg == "" {
		return name
	}
	return pkg + "/" + name
}

// Owned reports whether a file of the tree is krm's manifests file: a
// publish removes those of deployments no longer published.
func Owned(file string) bool {
	return path.Base(file) == ManifestFile
}

// CheckPath reports why p cannot be a deployment's directory, or nil.
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

// fullSHA is a git object name in full: SHA-1 or SHA-256, lower case, as the
// GitOps Promoter accepts drySha.
var fullSHA = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`) })

// IsFullSHA reports whether s is a full commit SHA (40 or 64 lower-case hex
// digits).
func IsFullSHA(s string) bool { return fullSHA().MatchString(s) }

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

// Bytes is m as the file holds it: indented JSON and a newline, the
// deployments sorted.
func (m Metadata) Bytes() []byte {
	m.Deployments = append(make([]string, 0, len(m.Deployments)), m.Deployments...) // [] for none, not null
	sort.Strings(m.Deployments)
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // strings and slices of strings always marshal
	}
	return append(b, '\n')
}

// ParseMetadata reads a hydrator.metadata file: a JSON object whose drySha
// is a full commit SHA. Fields of other writers (Argo CD's author, date,
// subject, ...) are ignored.
func ParseMetadata(data []byte) (Metadata, error) {
	var m Metadata
	if err := json.Unmarshal(data, &m); err != nil {
		return Metadata{}, fmt.Errorf("not a JSON object: %v", err)
	}
	if m.DrySha == "" {
		return Metadata{}, fmt.Errorf("no drySha (the source commit)")
	}
	if !IsFullSHA(m.DrySha) {
		return Metadata{}, fmt.Errorf("drySha %q: want a full commit SHA (40 or 64 lower-case hex digits)", m.DrySha)
	}
	return m, nil
}
