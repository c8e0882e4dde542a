package transform

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"

	"sigs.k8s.io/kustomize/api/types"
)

// checkSelector reports a selector field (at where) that is not a valid
// regular expression, quoting the pattern as written: kustomize compiles
// it wrapped in ^(?:...)$ and Go's error then shows a mangled tail of it.
func checkSelector(where string, s *types.Selector) error {
	if s == nil {
		return nil
	}
	for _, f := range []struct{ name, pattern string }{
		{"group", s.Group}, {"version", s.Version}, {"kind", s.Kind}, {"name", s.Name}, {"namespace", s.Namespace},
	} {
		if f.pattern == "" {
			continue
		}
		if _, err := regexp.Compile("^(?:" + f.pattern + ")$"); err != nil {
			var se *syntax.Error
			if errors.As(err, &se) {
				err = errors.New(se.Code.String())
			}
			return fmt.Errorf("%s.%s: %q is not a valid regular expression: %v", where, f.name, f.pattern, err)
		}
	}
	return nil
}

// checkReplacementSelectors checks the selectors of inline replacements.
func checkReplacementSelectors(rs []types.ReplacementField) error {
	for i, r := range rs {
		for j, t := range r.Targets {
			if t == nil {
				continue
			}
			where := fmt.Sprintf("replacements[%d].targets[%d]", i, j)
			if err := checkSelector(where+".select", t.Select); err != nil {
				return err
			}
			for k, rej := range t.Reject {
				if err := checkSelector(fmt.Sprintf("%s.reject[%d]", where, k), rej); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
