package validate

import (
	"strconv"
	"strings"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/crdsupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/nativecheck"
)

// native adds the errors of the API server's per-kind validation of a built-in object
// (package nativecheck), at the fields they name, but for those the schema walk already
// found (at or above the field).
func (w *walker) native(o Object) {
	if !nativecheck.Knows(w.used.gk.Group, w.used.gk.Kind) {
		return // nothing to check: spare the decoding
	}
	obj, _ := yamlnode.Value(o.Node).(map[string]any)
	if w.v.native == nil {
		w.v.native = nativecheck.New()
	}
	fes := w.v.native.Check(obj)
	if len(fes) == 0 {
		return
	}
	errs := make([]crdsupport.Error, len(fes))
	for i, e := range fes {
		f := e.Field
		if f == "[]" {
			f = "" // field.NewPath(""): the object
		}
		errs[i] = crdsupport.Error{Field: f, Type: string(e.Type), Kind: e.Type.String(), Body: e.ErrorBody(), At: stringDataAt(obj, f)}
	}
	w.serverShowing(errs, keyOnly)
}

// keyOnly reports whether a native error's message shows nothing of its field's value: it is
// Required, or quotes the key its path ends with (a Secret's data[KEY] format).
func keyOnly(e crdsupport.Error) bool {
	if e.Type == "FieldValueRequired" { // field.ErrorTypeRequired
		return true
	}
	i := strings.LastIndexByte(e.Field, '[')
	if i < 0 || !strings.HasSuffix(e.Field, "]") {
		return false
	}
	key := e.Field[i+1 : len(e.Field)-1]
	return strings.HasPrefix(e.Body, e.Kind+": "+strconv.Quote(key)+": ")
}

// stringDataAt is where a Secret's data[KEY] error is written when stringData has KEY (the
// server merges stringData into data, stringData winning); "" otherwise.
func stringDataAt(obj map[string]any, f string) string {
	key, ok := strings.CutPrefix(f, "data[")
	if !ok || obj["kind"] != "Secret" || obj["apiVersion"] != "v1" {
		return ""
	}
	key, rest, ok := strings.Cut(key, "]")
	sd, _ := obj["stringData"].(map[string]any)
	if _, in := sd[key]; !ok || !in {
		return ""
	}
	return "stringData[" + key + "]" + rest
}
