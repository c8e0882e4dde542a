package provenance

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Digest computes an object's inputs digest from its manifest entry, the
// manifest's steps and files: the sha256 of the JSON encoding of the list
// of contributing inputs (docs/provenance.md).
func Digest(o *Object, steps []StepInfo, files map[string]FileEntry) string {
	return newDigester(steps, files).digest(o)
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

// digest is Digest(o, d.steps, d.files).
func (d *digester) digest(o *Object) string {
	var buf [512]byte
	b := append(buf[:0], '[')
	h := sha256.New()
	// Entries of steps are written straight to the hash, the others
	// gathered in b first.
	first := true
	sep := func() {
		if !first {
			b = append(b, ',')
		}
		first = false
	}
	put := func(entries []byte) {
		sep()
		h.Write(b)
		h.Write(entries)
		b = b[:0]
	}
	if o.Origin != nil {
		if g := o.Origin.Generator; g != nil {
			put(d.step(0, *g))
		} else {
			sep()
			b = appendJSONLine(b, []string{"resource", o.Origin.Path, o.Origin.Sha256})
		}
	}
	for _, i := range o.Transformers {
		put(d.step(1, i))
	}
	for _, r := range o.References {
		sep()
		b = appendJSONLine(b, []string{"reference", r})
	}
	for _, v := range o.Vars {
		hash := v.Sha256
		if v.Redacted {
			hash = "redacted"
		}
		sep()
		b = appendJSONLine(b, []string{"var", v.Name, v.Object, hash})
	}
	h.Write(append(b, ']'))
	var sum [sha256.Size]byte
	return "sha256:" + hex.EncodeToString(h.Sum(sum[:0]))
}

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
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
