package validate

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/crdsupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/validate/fieldsource"
)

// The API server's own checks of CustomResourceDefinitions and custom resources (value
// validations, list types, CEL rules) come from package crdsupport's checker, made at the
// first CRD: crdcheck's in the full renderer, the hand-off to it in the default build, none in
// the lean renderer (a note says what is not checked).

// uncheckedNote is the note of a krm without the checker that met CRDs.
const uncheckedNote = "value validations and CEL rules (x-kubernetes-validations) are not checked: this krm links no API server code " +
	"(krm_nohelm); the full krm (krm_helm, @rules_krm//tools/renderer:krm) checks them"

// crdChecker returns the checker, made the first time.
func (v *Validator) crdChecker() (crdsupport.Checker, error) {
	if !v.checkerMade {
		v.checkerMade = true
		v.checker, v.checkerErr = v.newChecker(v.replayable)
	}
	return v.checker, v.checkerErr
}

// serverCRD has the checker read the CRD o, for its custom resources (c.check) and the notes
// of its rules; it returns the errors of the CRD's own validation by the server.
func (v *Validator) serverCRD(o Object, c *crd) ([]crdsupport.Error, error) {
	chk, err := v.crdChecker()
	if err != nil || chk == nil {
		return nil, err
	}
	check, errs, err := chk.CRD(yamlnode.JSON(o.Node))
	if err != nil {
		return nil, err
	}
	c.check = check
	w := v.walkerOf(o)
	if check != nil {
		c.notes = map[string][]Error{}
		for _, ver := range c.versionNames {
			for _, n := range check.Unchecked(ver) {
				line, value, elems := resolve(o.Node, n.Field)
				w.at = elems
				w.fail(line, value, n.Field, "%s: %s", n.Text, oneLine(n.Rule))
			}
			c.notes[ver], w.errs = w.errs, nil
		}
	}
	return errs, nil
}

// refused is the error of a CRD given apart (--crd) that the API server would refuse: its
// errors, a line each.
func (v *Validator) refused(o Object, errs []crdsupport.Error) error {
	w := v.walkerOf(o)
	w.server(errs)
	lines := make([]string, len(w.errs))
	for i, e := range w.errs {
		lines[i] = e.Error()
	}
	return fmt.Errorf("%s: the API server refuses the CustomResourceDefinition %s:\n%s", o.File, str(field(o.Node, "metadata"), "name"), strings.Join(lines, "\n"))
}

// walkerOf is a walker of the object o, for errors found apart from the walk.
func (v *Validator) walkerOf(o Object) *walker {
	w := &walker{v: v, file: o.File, id: objectName(o.Node), pid: provenanceID(o.Node), root: o.Node}
	w.origin, w.changed = provenanceOf(o.Node)
	return w
}

// serverChecks adds the API server's errors of the object just walked: a built-in kind's
// (native.go), a CRD's own, or a custom resource's against its CRD's version (w.version).
func (w *walker) serverChecks(o Object) {
	v := w.v
	if isCRD(o.Node) {
		errs, ok := v.crdErrs[o.Node]
		delete(v.crdErrs, o.Node)
		if !ok {
			// A CRD validated without being learnt (Validate after AddCRDs, or one without a
			// kind): the checker's failure was AddCRDs' or addCRD's error.
			chk, err := v.crdChecker()
			if err != nil || chk == nil {
				return
			}
			if _, errs, err = chk.CRD(yamlnode.JSON(o.Node)); err != nil {
				return
			}
		}
		w.server(errs)
		return
	}
	if w.builtin {
		w.native(o)
		return
	}
	c := w.used.crd
	if c == nil || c.check == nil || w.version == "" {
		return
	}
	if v.checked[c] == nil {
		v.checked[c] = map[string]bool{}
	}
	v.checked[c][w.version] = true
	w.server(c.check.Validate(yamlnode.JSON(o.Node)))
}

// server adds the API server's errors, at the fields they name, but for those at or below a
// field the walk already found wrong (the server says the same there, in other words).
func (w *walker) server(errs []crdsupport.Error) { w.serverShowing(errs, nil) }

// serverShowing is server, where shown(e) says that e's message shows no Secret value though
// its field is one (it quotes the key only).
func (w *walker) serverShowing(errs []crdsupport.Error, shown func(crdsupport.Error) bool) {
	walked := len(w.errs)
	for _, e := range errs {
		if w.covered(e.Field, walked) {
			continue
		}
		at := e.At
		if at == "" {
			at = e.Field
		}
		line, value, elems := resolve(w.root, at)
		w.at = elems
		msg := oneLine(e.Body)
		if shown != nil && shown(e) {
			// as the server writes it
		} else if value != nil && w.reveal(value, "") == hiddenValue || value != nil && w.secretWithin(value) {
			msg = e.Kind + ": " + hiddenValue
		} else if isCRD(w.root) && strings.HasSuffix(at, ".rule") && value != nil && value.Kind == yaml.ScalarNode && !strings.Contains(msg, value.Value) {
			msg += " (rule: " + oneLine(value.Value) + ")" // a cost error names the rule by its path only
		}
		w.fail(line, value, e.Field, "%s", msg)
	}
	w.at = nil
}

// covered reports whether one of the first n errors, or one left out, is at path or above it.
func (w *walker) covered(path string, n int) bool {
	if w.overAt(path) {
		return true
	}
	for _, e := range w.errs[:n] {
		if e.Field == path || e.Field != "" && (strings.HasPrefix(path, e.Field+".") || strings.HasPrefix(path, e.Field+"[")) {
			return true
		}
	}
	return false
}

// secretWithin reports whether a Secret value is at or below n.
func (w *walker) secretWithin(n *yaml.Node) bool {
	w.reveal(n, "") // finds the Secret values
	return w.secrets.Within(n)
}

var lineBreaks = regexp.MustCompile(`\s*\n\s*`)

// oneLine keeps a message on the line of its error (a CEL compile error spans three).
func oneLine(s string) string { return lineBreaks.ReplaceAllString(strings.TrimSpace(s), " ") }

// resolve finds a field path as the API server writes it (spec.ports[0].name,
// metadata.labels[app.kubernetes.io/name]) in n: the node whose line an error names (the
// field's key, a list item, or the nearest enclosing field when it is missing), the field's
// value (nil: missing) and the path's elements for package fieldsource.
func resolve(n *yaml.Node, path string) (line, value *yaml.Node, elems []fieldsource.Elem) {
	line, cur := n, n
	for rest := path; rest != ""; {
		var seg string
		bracket := false
		switch rest[0] {
		case '.':
			rest = rest[1:]
			continue
		case '[':
			j := strings.IndexByte(rest, ']')
			if j < 0 {
				return line, nil, elems
			}
			seg, rest, bracket = rest[1:j], rest[j+1:], true
		default:
			j := strings.IndexAny(rest, ".[")
			if j < 0 {
				j = len(rest)
			}
			seg, rest = rest[:j], rest[j:]
		}
		switch {
		case cur != nil && cur.Kind == yaml.SequenceNode:
			i, err := strconv.Atoi(seg)
			if !bracket || err != nil || i < 0 || i >= len(cur.Content) {
				return line, nil, elems
			}
			cur = cur.Content[i]
			line = cur
			elems = append(elems, fieldsource.Index(i, cur))
		case cur != nil && cur.Kind == yaml.MappingNode:
			elems = append(elems, fieldsource.Key(seg))
			k, val := keyValue(cur, seg)
			if val != nil {
				line = k
			}
			cur = val
		default:
			elems = append(elems, fieldsource.Key(seg))
			cur = nil
		}
	}
	return line, cur, elems
}

// keyValue returns the first key k of a mapping and its value, or nils.
func keyValue(m *yaml.Node, k string) (key, value *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == k {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// isCRD reports whether n is a CustomResourceDefinition of apiextensions.k8s.io/v1.
func isCRD(n *yaml.Node) bool {
	return str(n, "apiVersion") == "apiextensions.k8s.io/v1" && str(n, "kind") == "CustomResourceDefinition"
}

// Notes are what the run could not check, each once, sorted: the transition rules of the
// CRDs' versions that objects were checked against, and, in a krm without the API server's
// checks, that CRDs' value validations and rules were not checked.
func (v *Validator) Notes() []Error {
	var notes []Error
	unchecked := false
	for _, c := range v.crds {
		if c.check == nil {
			unchecked = true
		}
		for ver := range v.checked[c] {
			notes = append(notes, c.notes[ver]...)
		}
	}
	if unchecked && v.checkerMade && v.checker == nil {
		notes = append(notes, Error{Object: "CustomResourceDefinitions", Msg: uncheckedNote})
	}
	notes = append(notes, v.policies.notes...)
	sort.Slice(notes, func(i, j int) bool { return notes[i].Error() < notes[j].Error() })
	return notes
}
