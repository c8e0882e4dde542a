package provmanifest

import (
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"encoding/json"
	"hash"
	"runtime"
	"slices"
	"sync"
)

// Digest computes an object's inputs digest from its manifest entry, the
// manifest's steps and files: the sha256 of the JSON encoding of the list
// of contributing inputs (docs/provenance.md).
func Digest(o *Object, steps []StepInfo, files map[string]FileEntry) string {
	objs := []Object{*o}
	newDigester(steps, files).digestAll(objs)
	return objs[0].InputsDigest
}

// DigestAll sets the inputs digest of each of objs, what Digest gives it
// alone: the steps' entries are encoded once for all of them.
func DigestAll(objs []Object, steps []StepInfo, files map[string]FileEntry) {
	d := newDigester(steps, files)
	d.encodeAll()
	d.digestAll(objs)
}

// digester computes the digests of the objects of one manifest. Many
// objects share steps, so each step's entries are encoded once.
type digester struct {
	steps []StepInfo
	files map[string]FileEntry
	// encoded[role][i] are the entries of step i as a generator (role 0)
	// or a transformer (role 1), comma-separated.
	encoded [2][][]byte
}

var roles = [2]string{"generator", "transformer"}

func newDigester(steps []StepInfo, files map[string]FileEntry) *digester {
	return &digester{steps: steps, files: files, encoded: [2][][]byte{make([][]byte, len(steps)), make([][]byte, len(steps))}}
}

// encodeAll encodes every step's entries, after which digest only reads
// (and is safe to call concurrently).
func (d *digester) encodeAll() {
	for role := range roles {
		for i := range d.steps {
			d.step(role, i)
		}
	}
}

// step returns the entries of step i in role.
func (d *digester) step(role, i int) []byte {
	if i < 0 || i >= len(d.steps) {
		return appendJSONLine(nil, []string{roles[role], "?"})
	}
	if b := d.encoded[role][i]; b != nil {
		return b
	}
	s := &d.steps[i]
	b := appendJSONLine(nil, []string{roles[role], s.Kind, s.Name, s.ConfiguredIn, s.ConfigSha256})
	for _, f := range s.Files {
		b = append(b, ',')
		b = appendJSONLine(b, []string{roles[role] + "-source", f, d.fileHash(f)})
	}
	d.encoded[role][i] = b
	return b
}

func (d *digester) fileHash(p string) string {
	f, ok := d.files[p]
	if !ok || f.Redacted || f.Sha256 == "" {
		return "redacted"
	}
	return f.Sha256
}

// digestAll sets the digest of each of objs. The objects are visited in
// the order of their entry sequences, so that the hash state after a
// shared leading run (a base's copies keep its origin and first steps) is
// computed once, saved and restored: on a tree of overlays that halves what
// is hashed. Each result is what hashing the object alone gives.
func (d *digester) digestAll(objs []Object) {
	seqs := make([][]uint64, len(objs))
	entries := map[uint64][]byte{}
	resourceIDs := map[[2]string]uint64{}
	for i := range objs {
		o := &objs[i]
		var seq []uint64
		if org := o.Origin; org != nil {
			if g := org.Generator; g != nil {
				k := originGenerator<<32 | uint64(uint32(*g))
				seq = append(seq, k)
				entries[k] = d.step(0, *g)
			} else {
				rk := [2]string{org.Path, org.Sha256}
				k, ok := resourceIDs[rk]
				if !ok {
					k = originResource<<32 | uint64(len(resourceIDs))
					resourceIDs[rk] = k
					entries[k] = appendJSONLine(nil, []string{"resource", org.Path, org.Sha256})
				}
				seq = append(seq, k)
			}
		}
		for _, t := range o.Transformers {
			k := transformerEntry<<32 | uint64(uint32(t))
			seq = append(seq, k)
			entries[k] = d.step(1, t)
		}
		seqs[i] = seq
	}
	order := make([]int, len(objs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return slices.Compare(seqs[a], seqs[b]) })

	// Runs of the sorted order go to the CPUs; each keeps the hash states
	// of the prefixes of the last sequence it hashed.
	workers := runtime.GOMAXPROCS(0)
	if len(objs) < 256 {
		workers = 1
	}
	chunk := (len(order) + workers - 1) / max(workers, 1)
	var wg sync.WaitGroup
	for lo := 0; lo < len(order); lo += chunk {
		hi := min(lo+chunk, len(order))
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := sha256.New().(resumable)
			h.Write(openBracket)
			// states[k] is the state after '[' and the first k entries of
			// prev, marshalled (a clone would allocate).
			states := [][]byte{nil}
			states[0], _ = h.AppendBinary(nil)
			var prev []uint64
			var scratch []byte
			for _, i := range order[lo:hi] {
				seq := seqs[i]
				n := 0
				for n < len(seq) && n < len(prev) && seq[n] == prev[n] {
					n++
				}
				if err := h.UnmarshalBinary(states[n]); err != nil {
					panic(err) // its own AppendBinary's output
				}
				for k := n; k < len(seq); k++ {
					if k > 0 {
						h.Write(comma)
					}
					h.Write(entries[seq[k]])
					if k+1 == len(states) {
						states = append(states, nil)
					}
					states[k+1], _ = h.AppendBinary(states[k+1][:0])
				}
				prev = seq
				objs[i].InputsDigest, scratch = d.finish(h, &objs[i], len(seq) == 0, scratch)
			}
		}()
	}
	wg.Wait()
}

// resumable is a hash whose state can be saved and restored.
type resumable interface {
	hash.Hash
	encoding.BinaryAppender
	encoding.BinaryUnmarshaler
}

var openBracket, comma = []byte{'['}, []byte{','}

// Kinds of entries in digestAll's sequences (the high 32 bits).
const (
	originGenerator uint64 = iota + 1
	originResource
	transformerEntry
)

// finish writes o's references and vars after its other entries (first:
// there were none) and the closing bracket into h, and returns the digest
// and scratch, the buffer it used, for the next call.
func (d *digester) finish(h hash.Hash, o *Object, first bool, scratch []byte) (string, []byte) {
	b := scratch[:0]
	for _, r := range o.References {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSONLine(b, []string{"reference", r})
	}
	for _, v := range o.Vars {
		hash := v.Sha256
		if v.Redacted {
			hash = "redacted"
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSONLine(b, []string{"var", v.Name, v.Object, hash})
	}
	b = append(b, ']')
	h.Write(b)
	n := len(b)
	b = h.Sum(b)
	var out [len("sha256:") + 2*sha256.Size]byte
	copy(out[:], "sha256:")
	hex.Encode(out[len("sha256:"):], b[n:])
	return string(out[:]), b
}

// jsonEscaped are the bytes encoding/json does not write as themselves
// (all of non-ASCII: it checks UTF-8 and escapes U+2028 and U+2029).
var jsonEscaped = func() (t [256]bool) {
	for c := range t {
		t[c] = c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&'
	}
	return t
}()

// appendJSONLine appends the JSON encoding of l to b, exactly as
// encoding/json writes it, without reflection.
func appendJSONLine(b []byte, l []string) []byte {
	b = append(b, '[')
	for j, s := range l {
		if j > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if jsonEscaped[s[i]] {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
