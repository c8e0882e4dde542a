// Package images turns the images a build pins (`--image` of krm build and
// krm render) into kustomize `images` entries. The entries are appended to
// a kustomization's own (the top's, or with `dir=` a base's), so the effect
// is exactly that of writing them at the end of its file's `images`.
package images

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
)

// Spec is one `--image` flag: a kustomize images entry whose digest and new
// name may come from files that the build produced.
type Spec struct {
	// Name is the image as the manifests write it (images[].name).
	Name string
	// NewName, NewTag and Digest are the entry's fields as written.
	NewName, NewTag, Digest string
	// DigestFile holds the digest (`sha256:...`, as rules_oci's
	// `<image>.digest` writes it); NewNameFile holds the new name (a
	// repository, as given to rules_oci's oci_push `repository_file`).
	DigestFile, NewNameFile string
	// Source names where the digest comes from (a Bazel label), in errors and
	// in provenance.
	Source string
	// Dir is the directory of the kustomization the entry belongs to; empty
	// means the one being rendered. A base's pins apply when the build reads
	// that base from its sources (a tree that sets openapi, under Bazel).
	Dir string
}

// Resolved is a Spec with its files read: the kustomize entry, and where its
// digest came from.
type Resolved struct {
	Image  types.Image
	Source string
	Dir    string
}

// keys are the flag's keys, as kustomize spells the entry's fields, plus the
// file forms and the source.
var keys = []string{"name", "newName", "newTag", "digest", "digestFile", "newNameFile", "dir", "source"}

// Parse reads a flag value `name=NAME,digest=sha256:...,newName=...` (keys:
// name, newName, newTag, digest, digestFile, newNameFile, dir, source). `source`
// comes last and takes the rest of the value: labels may hold commas.
func Parse(value string) (Spec, error) {
	var s Spec
	fields := map[string]*string{
		"name": &s.Name, "newName": &s.NewName, "newTag": &s.NewTag, "digest": &s.Digest,
		"digestFile": &s.DigestFile, "newNameFile": &s.NewNameFile, "dir": &s.Dir, "source": &s.Source,
	}
	rest := value
	for rest != "" {
		var part string
		if strings.HasPrefix(rest, "source=") {
			part, rest = rest, ""
		} else {
			part, rest, _ = strings.Cut(rest, ",")
		}
		k, v, ok := strings.Cut(part, "=")
		dst, known := fields[k]
		if !ok || !known {
			return Spec{}, fmt.Errorf("--image %q: %q is not KEY=VALUE with KEY one of %s", value, part, strings.Join(keys, ", "))
		}
		if *dst != "" {
			return Spec{}, fmt.Errorf("--image %q: %s is given twice", value, k)
		}
		*dst = v
	}
	switch {
	case s.Name == "":
		return Spec{}, fmt.Errorf("--image %q: name is missing", value)
	case s.Digest != "" && s.DigestFile != "":
		return Spec{}, fmt.Errorf("--image %q: give digest or digestFile, not both", value)
	case s.NewName != "" && s.NewNameFile != "":
		return Spec{}, fmt.Errorf("--image %q: give newName or newNameFile, not both", value)
	case s.Digest == "" && s.DigestFile == "" && s.NewName == "" && s.NewNameFile == "" && s.NewTag == "":
		return Spec{}, fmt.Errorf("--image %q: sets nothing: give digest, digestFile, newName, newNameFile or newTag", value)
	}
	if strings.ContainsAny(s.Name, " \t\r\n") {
		return Spec{}, fmt.Errorf("--image %q: name %q holds whitespace", value, s.Name)
	}
	return s, nil
}

// digestPattern is an OCI content digest of the algorithms registries use. Compiled on first
// use, as krm's other expressions are: compiling them all was 5% of every process's start.
var digestPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128})$`) })

// Resolve reads the files of specs from fsys and validates what they hold.
func Resolve(fsys filesys.FileSystem, specs []Spec) ([]Resolved, error) {
	out := make([]Resolved, 0, len(specs))
	for _, s := range specs {
		img := types.Image{Name: s.Name, NewName: s.NewName, NewTag: s.NewTag, Digest: s.Digest}
		if s.DigestFile != "" {
			d, err := readOneLine(fsys, s, s.DigestFile, "digest")
			if err != nil {
				return nil, err
			}
			img.Digest = d
		}
		if img.Digest != "" && !digestPattern().MatchString(img.Digest) {
			return nil, fmt.Errorf("%s: %q is not an image digest: want sha256: and 64 lowercase hex digits "+
				"(what rules_oci's oci_image writes to <name>.digest)", where(s, s.DigestFile, "digest"), img.Digest)
		}
		if s.NewNameFile != "" {
			n, err := readOneLine(fsys, s, s.NewNameFile, "repository")
			if err != nil {
				return nil, err
			}
			if strings.Contains(n, "@") {
				return nil, fmt.Errorf("%s: %q is not a repository: it holds a digest", where(s, s.NewNameFile, "repository"), n)
			}
			img.NewName = n
		}
		out = append(out, Resolved{Image: img, Source: s.Source, Dir: s.Dir})
	}
	return out, nil
}

// readOneLine returns the single word a file holds (a trailing newline is fine).
func readOneLine(fsys filesys.FileSystem, s Spec, path, what string) (string, error) {
	data, err := fsys.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", where(s, path, what), err)
	}
	v := strings.TrimSpace(string(data))
	if v == "" || strings.ContainsAny(v, " \t\r\n") {
		return "", fmt.Errorf("%s: want one word, it holds %q", where(s, path, what), string(data))
	}
	return v, nil
}

// where names the image, the file and its source for error messages.
func where(s Spec, path, what string) string {
	w := fmt.Sprintf("image %s", s.Name)
	if path != "" {
		w += fmt.Sprintf(": %s file %s", what, path)
	} else {
		w += ": " + what
	}
	if s.Source != "" {
		w += " (from " + s.Source + ")"
	}
	return w
}

// Append adds the resolved entries after k's own `images`, in the order given.
func Append(k *types.Kustomization, rs []Resolved) {
	for _, r := range rs {
		k.Images = append(k.Images, r.Image)
	}
}

// Pinned is what provenance records of each entry: the image and the
// source of its digest.
func Pinned(rs []Resolved) []observe.PinnedImage {
	out := make([]observe.PinnedImage, len(rs))
	for i, r := range rs {
		out[i] = observe.PinnedImage{Name: r.Image.Name, NewName: r.Image.NewName, Digest: r.Image.Digest, Source: r.Source}
	}
	return out
}
