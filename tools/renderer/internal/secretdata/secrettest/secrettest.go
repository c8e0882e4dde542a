// Package secrettest checks outputs for the marker that the tests of Secret handling write
// into every Secret value of their testdata: whatever the shape, no spelling of it may be
// printed.
package secrettest

import (
	"encoding/base64"
	"strings"
	"testing"
)

// Marker starts every string Secret value of the testdata ("secret-marker-XYZW-old"), in
// plain text (stringData) or base64 (data: its 18 bytes make a base64 prefix of 24
// characters that the encoding of a longer value starts with too).
const Marker = "secret-marker-XYZW"

// Number is the marker of Secret values that are numbers (a type error of krm validate).
const Number = "987654321987"

// spellings are the forms in which a value holding a marker could be printed.
var spellings = []string{
	Marker,
	strings.ToLower(Marker),
	base64.StdEncoding.EncodeToString([]byte(Marker)),
	base64.RawURLEncoding.EncodeToString([]byte(Marker)),
	Number,
}

// NoLeak fails t for each line of out that holds a spelling of a marker, naming what
// printed it.
func NoLeak(t testing.TB, what, out string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		for _, s := range spellings {
			if strings.Contains(line, s) {
				t.Errorf("%s prints a Secret value (%s): %s", what, s, line)
				break
			}
		}
	}
}
