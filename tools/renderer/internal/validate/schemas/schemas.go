// Package schemas holds the OpenAPI v3 documents of the Kubernetes built-in kinds that
// krm validate checks objects against: one directory per minor version (v1.37), one gzip file
// per group-version (api_v1.json.gz, apis_apps_v1.json.gz), written by ./gen from the test API
// server. See README.md to add a version.
package schemas

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
)

//go:embed v1.37/*.json.gz
var files embed.FS

// Default is the version krm validate uses unless told otherwise.
const Default = "v1.37"

// Versions returns the pinned versions, sorted.
func Versions() []string {
	entries, _ := fs.ReadDir(files, ".")
	var vs []string
	for _, e := range entries {
		vs = append(vs, e.Name())
	}
	sort.Strings(vs)
	return vs
}

// Has reports whether version is pinned.
func Has(version string) bool {
	_, err := fs.Stat(files, version)
	return err == nil
}

// FileName is the file of a group-version's document: api_v1 for v1, apis_GROUP_VERSION else.
func FileName(groupVersion string) string {
	if !strings.Contains(groupVersion, "/") {
		return "api_" + groupVersion + ".json.gz"
	}
	return "apis_" + strings.ReplaceAll(groupVersion, "/", "_") + ".json.gz"
}

// GroupVersions returns the group-versions ("v1", "apps/v1") pinned for version, sorted.
func GroupVersions(version string) []string {
	entries, _ := fs.ReadDir(files, version)
	var gvs []string
	for _, e := range entries {
		n := strings.TrimSuffix(e.Name(), ".json.gz")
		if gv, ok := strings.CutPrefix(n, "api_"); ok {
			gvs = append(gvs, gv)
		} else if gv, ok := strings.CutPrefix(n, "apis_"); ok {
			i := strings.LastIndex(gv, "_")
			gvs = append(gvs, gv[:i]+"/"+gv[i+1:])
		}
	}
	sort.Strings(gvs)
	return gvs
}

// Document returns the uncompressed OpenAPI v3 document of groupVersion ("v1", "apps/v1") in
// version, or an error wrapping fs.ErrNotExist when there is none.
func Document(version, groupVersion string) ([]byte, error) {
	b, err := files.ReadFile(version + "/" + FileName(groupVersion))
	if err != nil {
		return nil, err
	}
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("schemas %s %s: %w", version, groupVersion, err)
	}
	return io.ReadAll(r)
}
