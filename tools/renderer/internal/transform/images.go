package transform

import (
	"reflect"
	"regexp"
	"sync"

	"sigs.k8s.io/kustomize/api/filters/imagetag"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/fieldspec"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/fingerprint"
)

// imageTags applies a kustomization's `images` entries in order, exactly as
// kustomize's ImageTagTransformer does one entry after the other, but skips
// the (expensive) filters on objects holding no value the entry could
// match: each entry is a regular expression over image values, so an object
// none of whose strings match it is left unchanged by kustomize too.
type imageTags struct {
	entries []imageEntry
	fss     types.FsSlice
	// prefilter is off for custom image field specs, whose shapes the
	// structural check below does not know.
	prefilter bool
	// changes lists, when on, the objects whose fingerprint the filters
	// moved: only objects they ran on can have changed.
	changes changes
}

type imageEntry struct {
	image types.Image
	// match is nil when the name is not a valid pattern (kustomize then matches nothing).
	match *regexp.Regexp
}

func newImageTags(images []types.Image, fss types.FsSlice) *imageTags {
	t := &imageTags{fss: fss, prefilter: reflect.DeepEqual(fss, defaultImageSpecs())}
	for _, img := range images {
		// The pattern kustomize's image matcher uses for images[].name.
		re, err := regexp.Compile("^" + img.Name + "(:[a-zA-Z0-9_.{}-]*)?(@[a-zA-Z0-9]+([.+_-][a-zA-Z0-9]+)*:[a-zA-Z0-9_.{}-]*)?$")
		if err != nil {
			re = nil
		}
		t.entries = append(t.entries, imageEntry{image: img, match: re})
	}
	return t
}

func (t *imageTags) Transform(m resmap.ResMap) error {
	t.changes.reset()
	var strs []string
	for _, r := range m.Resources() {
		var unusual bool
		strs, unusual = imageCandidates(r.YNode(), strs[:0])
		ran := false
		var before uint64
		for _, e := range t.entries {
			if !t.mayChange(e, strs, unusual) {
				continue
			}
			if !ran && t.changes.on {
				before = fingerprint.Of(r.RNode.YNode())
			}
			ran = true
			if err := r.ApplyFilter(imagetag.LegacyFilter{ImageTag: e.image}); err != nil {
				return err
			}
			if err := r.ApplyFilter(imagetag.Filter{ImageTag: e.image, FsSlice: t.fss}); err != nil {
				return err
			}
			strs, unusual = imageCandidates(r.YNode(), strs[:0])
		}
		if ran && t.changes.on && fingerprint.Of(r.RNode.YNode()) != before {
			t.changes.add(r)
		}
	}
	return nil
}

// mayChange reports whether entry e may change an object holding the
// strings strs (unusual as imageCandidates says): unless the prefilter
// knows the object's shape, only if e matches one of them.
func (t *imageTags) mayChange(e imageEntry, strs []string, unusual bool) bool {
	return !t.prefilter || unusual || anyMatch(e.match, strs)
}

func anyMatch(re *regexp.Regexp, strs []string) bool {
	if re == nil {
		return false
	}
	for _, s := range strs {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// defaultImageSpecs is kustomize's default `images` field specs, sorted as
// an accumulated configuration holds them.
var defaultImageSpecs = sync.OnceValue(func() types.FsSlice {
	c, err := (&fieldspec.Config{}).Merge(fieldspec.Defaults())
	if err != nil {
		panic(err)
	}
	return c.Images
})

// imageCandidates returns strs with every string scalar in n appended, and
// whether n has a shape on which kustomize's image filters could fail (an
// image that is not a string, containers or volumes that are not lists of
// maps, a template or spec that is not a map): such objects always run the
// real filters so that errors match too.
func imageCandidates(n *yaml.Node, strs []string) (_ []string, unusual bool) {
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		switch n.Kind {
		case yaml.ScalarNode:
			strs = append(strs, n.Value)
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i].Value, n.Content[i+1]
				switch k {
				case "image":
					if v.Kind != yaml.ScalarNode {
						unusual = true
					}
				case "containers", "initContainers", "volumes":
					if !isListOfMaps(v) {
						unusual = true
					}
				case "spec", "template", "jobTemplate":
					if v.Kind != yaml.MappingNode {
						unusual = true
					}
				}
				walk(v)
			}
		case yaml.SequenceNode, yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c)
			}
		case yaml.AliasNode:
			unusual = true
		}
	}
	walk(n)
	return strs, unusual
}

func isListOfMaps(n *yaml.Node) bool {
	if n.Kind != yaml.SequenceNode {
		return false
	}
	for _, c := range n.Content {
		if c.Kind != yaml.MappingNode {
			return false
		}
	}
	return true
}
