// Package genrecord is generation-output correlation (the Cartographer RFC "Artifact Tracing
// with Generation-Output Correlation"): what krm apply records of each object it applied (the
// generation the API server returned, the object's inputs digest from the provenance manifest,
// the source commit), the bounded record object that holds it beside an ApplySet, its garbage
// collection, the outputs of a live object (its conditions' and status's observedGeneration,
// per-kind output paths) and which recorded inputs each output reflects.
//
// It knows no client: package cluster reads and writes the record object, trace and status
// print what Correlate finds. Objects are JSON-decoded maps, as the API server serves them.
package genrecord

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
)

// Version is the version of the record format this krm writes. A record of an older version
// is read (missing fields are empty) and rewritten in this one; a newer one is not touched.
const Version = 1

// Where and how big the record is.
const (
	// DataKey is the key of the record object's data holding the record (JSON).
	DataKey = "generations.json"
	// SetLabel labels the record object with the ID of the ApplySet it belongs to.
	SetLabel = "rules-krm.dev/generations-of"
	// MaxBytes bounds the encoded record, well below the API server's 1 MiB per object.
	MaxBytes = 256 << 10
	// MaxPerObject bounds the generations kept per object when no output observes them.
	MaxPerObject = 8
	nameSuffix   = ".krm-generations"
	maxName      = 253
)

// Name is the record object's name for an ApplySet parent of that name (a ConfigMap in the
// parent's namespace): NAME.krm-generations, shortened with a hash for a long NAME.
func Name(parent string) string {
	if len(parent)+len(nameSuffix) <= maxName {
		return parent + nameSuffix
	}
	sum := sha256.Sum256([]byte(parent))
	h := hex.EncodeToString(sum[:])[:10]
	return parent[:maxName-len(nameSuffix)-len(h)-1] + "-" + h + nameSuffix
}

// Key names an object as the cluster does, as krm diff names it: its API group (not version:
// a generation is the object's whatever version it is read in), kind, namespace and name.
type Key = rdiff.ID

// Entry is what made one generation of an object.
type Entry struct {
	Generation int64 `json:"generation"`
	// Commit is --source-commit of the apply that made it (empty: none given).
	Commit string `json:"commit,omitempty"`
	// InputDigest is the object's inputs digest in the provenance manifest (empty: none given).
	InputDigest string `json:"inputDigest,omitempty"`
	// Kustomization is the manifest's kustomization (where to find its provenance).
	Kustomization string `json:"kustomization,omitempty"`
	// Applied is when, RFC 3339, UTC.
	Applied string `json:"applied,omitempty"`
}

// Object is the recorded generations of one object, oldest first.
type Object struct {
	Key
	Generations []Entry `json:"generations"`
}

// Record is the record object's content: the generations krm apply made of each object of
// one ApplySet.
type Record struct {
	Version int      `json:"version"`
	Objects []Object `json:"objects"`
	// Read is the version it was read in (0 for a new record or one of before versions).
	Read int `json:"-"`
}

// NewerError is a record written by a newer krm, in a format this one does not know.
type NewerError struct{ Version int }

func (e *NewerError) Error() string {
	return fmt.Sprintf("the generation record is of version %d, written by a newer krm than this one (version %d): upgrade krm", e.Version, Version)
}

// ErrMalformed is a record that is not the format's JSON.
var ErrMalformed = errors.New("not a generation record")

// Parse reads a record (the record object's DataKey). A record of an older version is read
// with what it has; one of a newer version is a *NewerError.
func Parse(data []byte) (*Record, error) {
	// The version first: a newer format may have other shapes.
	var v struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if v.Version > Version {
		return nil, &NewerError{Version: v.Version}
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	r.Read = r.Version
	r.Version = Version
	r.sort()
	return &r, nil
}

// Marshal encodes the record, objects sorted by key. If it would exceed MaxBytes, it drops
// first the objects keep says no to (not applied this time), then all but the newest
// generation of each object; still too big is an error.
func (r *Record) Marshal(keep func(Key) bool) ([]byte, error) {
	r.Version = Version
	r.sort()
	data, err := json.Marshal(r)
	if err != nil || len(data) <= MaxBytes {
		return data, err
	}
	if keep != nil {
		kept := r.Objects[:0]
		for _, o := range r.Objects {
			if keep(o.Key) {
				kept = append(kept, o)
			}
		}
		r.Objects = kept
		if data, err = json.Marshal(r); err != nil || len(data) <= MaxBytes {
			return data, err
		}
	}
	for i := range r.Objects {
		g := r.Objects[i].Generations
		r.Objects[i].Generations = g[len(g)-1:]
	}
	if data, err = json.Marshal(r); err != nil || len(data) <= MaxBytes {
		return data, err
	}
	return nil, fmt.Errorf("the generation record of %d objects takes %d bytes, more than %d even with one generation each: split the ApplySet", len(r.Objects), len(data), MaxBytes)
}

func (r *Record) sort() {
	sort.SliceStable(r.Objects, func(i, j int) bool { return r.Objects[i].Key.String() < r.Objects[j].Key.String() })
	for i := range r.Objects {
		g := r.Objects[i].Generations
		sort.SliceStable(g, func(a, b int) bool { return g[a].Generation < g[b].Generation })
	}
}

func (r *Record) find(k Key) int {
	for i := range r.Objects {
		if r.Objects[i].Key == k {
			return i
		}
	}
	return -1
}

// Lookup returns the entry of generation gen of the object k.
func (r *Record) Lookup(k Key, gen int64) (Entry, bool) {
	if r == nil {
		return Entry{}, false
	}
	if i := r.find(k); i >= 0 {
		for _, e := range r.Objects[i].Generations {
			if e.Generation == gen {
				return e, true
			}
		}
	}
	return Entry{}, false
}

// Generations returns the recorded generations of k, oldest first.
func (r *Record) Generations(k Key) []Entry {
	if r == nil {
		return nil
	}
	if i := r.find(k); i >= 0 {
		return r.Objects[i].Generations
	}
	return nil
}

// Add records e for k and collects garbage: a generation already recorded takes e (an apply
// that changed no spec field leaves the generation as it was, and its spec is e's too);
// generations below observed (the lowest generation an output of the object reports before
// this apply; 0: none) are dropped, as the RFC says: status reflects monotonically increasing
// generations, so nothing will report them again; of the rest the newest MaxPerObject stay.
func (r *Record) Add(k Key, e Entry, observed int64) {
	i := r.find(k)
	if i < 0 {
		r.Objects = append(r.Objects, Object{Key: k})
		i = len(r.Objects) - 1
	}
	o := &r.Objects[i]
	kept := o.Generations[:0]
	for _, old := range o.Generations {
		if old.Generation == e.Generation && old.Commit == e.Commit && old.InputDigest == e.InputDigest && old.Kustomization == e.Kustomization {
			e = old // applied again as it was: the record need not change
		} else if old.Generation != e.Generation && old.Generation >= observed {
			kept = append(kept, old)
		}
	}
	kept = append(kept, e)
	sort.SliceStable(kept, func(a, b int) bool { return kept[a].Generation < kept[b].Generation })
	if len(kept) > MaxPerObject {
		kept = append(kept[:0:0], kept[len(kept)-MaxPerObject:]...)
	}
	o.Generations = kept
}
