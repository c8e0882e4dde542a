package validate

import (
	"bytes"
	"errors"
	"fmt"
	"os"
)

// CRDFileError is an error reading the CRD files of ValidateFiles (krm validate --crd).
type CRDFileError struct{ Err error }

func (e *CRDFileError) Error() string { return e.Err.Error() }
func (e *CRDFileError) Unwrap() error { return e.Err }

// errChanged ends the second reading of a file that no longer has the objects of the first.
var errChanged = errors.New("changed while krm validate read it")

// ValidateFiles validates the objects of the files paths name (as Read finds them) against
// the built-in schemas and the CustomResourceDefinitions among them and in crdPaths (only
// their CRDs are used; a CRD of the same kind among the objects wins over one of crdPaths, a
// later one over an earlier one). It returns what Read, AddCRDs and Validate would together,
// with the same errors first, but holds one document's tree at a time, not every object's:
// it validates each object when it is read, with the CRDs read so far. An object whose CRD
// came later, or was replaced later, is validated again by reading its file a second time
// (rare: krm build prints CRDs before the objects of other kinds).
func (v *Validator) ValidateFiles(paths, crdPaths []string) ([]Result, error) {
	files, err := Files(paths)
	if err != nil {
		return nil, err
	}
	var crdErr error // the first CRD that has no schemas: an error once the files read well
	add := func(o Object, apart bool) {
		if err := v.addCRD(o, apart); err != nil && crdErr == nil {
			crdErr = err
		}
	}
	// A pipe cannot be read again by another process the checker hands the command to
	// (package handoff): the checker is then made first, before anything is read.
	crdFiles, _ := Files(crdPaths) // their errors come below
	if v.replayable = regular(files) && regular(crdFiles); !v.replayable {
		if _, err := v.crdChecker(); err != nil {
			return nil, err
		}
	}
	if err := v.startPolicies(v.opts); err != nil {
		return nil, err
	}
	// As before streaming, an unreadable file among paths wins over one among crdPaths, and
	// both over a CRD that has no schemas.
	var crdFileErr error
	if len(crdPaths) > 0 {
		crdFileErr = eachObject(crdPaths, func(o Object) error {
			add(o, true)
			return nil
		})
	}
	var results []Result
	var used []schemaOf
	starts := make([]int, len(files))  // the index of the first result of each file
	kept := make([][]byte, len(files)) // the files that cannot be read twice
	for i, f := range files {
		starts[i] = len(results)
		var err error
		kept[i], err = v.readFile(f, func(o Object) error {
			if v.trace != nil {
				v.trace(o, len(results))
			}
			add(o, false)
			v.gatherPolicy(o, len(results))
			r, u := v.check(o)
			results = append(results, r)
			used = append(used, u)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if crdFileErr != nil {
		return nil, &CRDFileError{crdFileErr}
	}
	if crdErr != nil {
		return nil, crdErr
	}
	for i, f := range files {
		end := len(results)
		if i+1 < len(files) {
			end = starts[i+1]
		}
		if err := v.recheck(nameOf(f), kept[i], results[starts[i]:end], used[starts[i]:end]); err != nil {
			return nil, err
		}
	}
	if err := v.evaluatePolicies(files, kept, results); err != nil {
		return nil, err
	}
	return results, nil
}

// recheck validates again, reading file a second time (or its kept data), the objects of
// results (those of file, in order) whose CRD is not the one they were validated with.
func (v *Validator) recheck(file string, kept []byte, results []Result, used []schemaOf) error {
	stale := false
	for _, u := range used {
		if v.crds[u.gk] != u.crd {
			stale = true
			break
		}
	}
	if !stale {
		return nil
	}
	i := 0
	fn := func(o Object) error {
		if i >= len(results) {
			return fmt.Errorf("%s: %w", file, errChanged)
		}
		if v.crds[used[i].gk] != used[i].crd {
			r, _ := v.check(o)
			if r.Object != results[i].Object || r.Line != results[i].Line {
				return fmt.Errorf("%s: %w", file, errChanged)
			}
			results[i] = r
		}
		i++
		return nil
	}
	var err error
	if kept != nil {
		err = parse(file, bytes.NewReader(kept), fn)
	} else {
		_, err = readFile(file, fn)
	}
	if err == nil && i != len(results) {
		err = fmt.Errorf("%s: %w", file, errChanged)
	}
	return err
}

// StdinName is how results and errors name the objects of the path "-" (Options.Stdin).
const StdinName = "stdin"

func nameOf(file string) string {
	if file == "-" {
		return StdinName
	}
	return file
}

// readFile is readFile, and for "-" Options.Stdin, read whole (and kept) as a pipe is.
func (v *Validator) readFile(file string, fn func(Object) error) (kept []byte, err error) {
	if file != "-" {
		return readFile(file, fn)
	}
	if v.stdin == nil {
		return nil, fmt.Errorf("-: %w: no standard input to read", ErrInput)
	}
	data, err := readBounded(StdinName, v.stdin)
	if err != nil {
		return nil, err
	}
	return data, parse(StdinName, bytes.NewReader(data), fn)
}

// regular reports whether every file is a regular file (or cannot be read: its error comes
// when it is read); "-" is not.
func regular(files []string) bool {
	for _, f := range files {
		if f == "-" {
			return false
		}
		if fi, err := os.Stat(f); err == nil && !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}
