// Package fieldwalk tells, by reading an object alone, when kustomize's
// field-spec walk (api/filters/fieldspec) would do nothing there, so that
// callers can skip it: that walk allocates a kyaml node wrapper and a
// lookup filter per path step, and most of the name-reference field specs a
// referrer matches lead nowhere in it (initContainers, projected volumes,
// imagePullSecrets, ...).
package fieldwalk

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Misses reports that fieldspec.Filter, with path (the field spec's path as
// kyaml's utils.PathSplitter splits it) and without creating fields, would
// return without calling its setter, changing the object obj or failing.
// False means it is not known: run the filter. Objects are mappings (the
// filter's kind check panics on others).
func Misses(obj *yaml.Node, path []string) bool {
	return obj != nil && obj.Kind == yaml.MappingNode && misses(obj, path)
}

func misses(obj *yaml.Node, path []string) bool {
	if len(path) == 0 {
		return false // the setter is called on obj
	}
	if obj == nil || obj.Tag == yaml.NodeTagNull {
		return true
	}
	switch obj.Kind {
	case yaml.SequenceNode:
		// Each element is walked with the whole path.
		for _, e := range obj.Content {
			if !misses(e, path) {
				return false
			}
		}
		return true
	case yaml.MappingNode:
		name, isSeq := strings.CutSuffix(path[0], "[]")
		if !plainField(name) {
			return false
		}
		c := obj.Content
		if len(c)%2 != 0 {
			return false // kyaml indexes past the end
		}
		for i := 0; i < len(c); i += 2 {
			if c[i] == nil || c[i].Value != name {
				continue
			}
			v := c[i+1]
			if isSeq && v.Tag == yaml.NodeTagNull {
				return false // the filter turns a null into a sequence
			}
			return misses(v, path[1:])
		}
		return true
	}
	return false // an alias (followed) or a scalar (an error)
}

// plainField reports that kyaml's Lookup(name) matches the first key equal
// to name: not empty, no surrounding spaces, no list index or number.
func plainField(name string) bool {
	if name == "" || strings.TrimSpace(name) != name || name == "-" || name == "*" {
		return false
	}
	if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
		return false
	}
	return !integer(name)
}

// integer reports that strconv.Atoi may read s as a number (it does unless
// the number overflows): a sign, then only digits. Atoi itself allocates
// its error for every field name.
func integer(s string) bool {
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
