package validate

import (
	"fmt"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/escape"
)

// Bounds of what krm validate prints for one object: a schema's enum is quoted in every
// error about it, so that a long enum and many wrong values would print without end.
const (
	MaxErrors       = 100     // errors per object; one more says how many were left out
	MaxMessageBytes = 1 << 10 // bytes of one error's message, cut with "…"
)

// cut is msg within MaxMessageBytes.
func cut(msg string) string { return escape.Cut(msg, MaxMessageBytes) }

// leftOut adds an error saying how many were past MaxErrors.
func (w *walker) leftOut() {
	if w.dropped == 0 {
		return
	}
	w.errs = append(w.errs, Error{File: w.file, Object: w.id, Origin: w.origin, Changed: w.changed,
		Msg: fmt.Sprintf("%d more errors not shown (krm validate prints at most %d per object)", w.dropped, MaxErrors)})
	w.dropped, w.over = 0, nil
}

// drop counts an error past MaxErrors at path.
func (w *walker) drop(path string) {
	w.dropped++
	if w.over == nil {
		w.over = map[string]bool{}
	}
	w.over[path] = true
}

// overAt reports whether an error left out is at path or above it.
func (w *walker) overAt(path string) bool {
	if len(w.over) == 0 {
		return false
	}
	for i := 0; i < len(path); i++ {
		if (path[i] == '.' || path[i] == '[') && w.over[path[:i]] {
			return true
		}
	}
	return w.over[path]
}
