package yamlnode

import (
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// kioSeparator is the regular expression kio.ByteReader splits a stream at.
var kioSeparator = regexp.MustCompile(`\n---.*\n`)

// streams are YAML streams with separators of every kind, and random ones below.
var streams = []string{
	"",
	"a: 1\n",
	"---\na: 1\n",
	"a: 1\n---\nb: 2\n",
	"a: 1\n---\n---\nb: 2\n",
	"a: 1\n--- # comment\nb: 2\n---\t\n",
	"a: 1\n---",
	"a: 1\n---\n",
	"a: 1\n--- x\nb: 2\n",
	"a: 1\n----\nb: 2\n",
	"a: |\n  ---\n  text\n---\nb: 2\n",
	"\n---\n\n---\n",
}

func randomStreams(n int) []string {
	r := rand.New(rand.NewSource(1))
	parts := []string{"\n", "---", "a: 1", " # c", " x", "-", "\t", "..."}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for j := r.Intn(12); j > 0; j-- {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		out[i] = b.String()
	}
	return out
}

func TestNextSeparatorIsKiosRegexp(t *testing.T) {
	for _, s := range append(streams, randomStreams(2000)...) {
		var got [][]int
		for from := 0; ; {
			end, next := NextSeparator([]byte(s), from)
			if next < 0 {
				if end != len(s) {
					t.Errorf("NextSeparator(%q, %d) ends at %d with no separator", s, from, end)
				}
				break
			}
			got = append(got, []int{end, next})
			from = next
		}
		if want := kioSeparator.FindAllStringIndex(s, -1); !reflect.DeepEqual(got, want) {
			t.Errorf("separators of %q = %v, want %v", s, got, want)
		}
	}
}

// kioSplit is kio's splitDocuments (kyaml/kio/byteio_reader.go) with the newline kio's Read
// adds back to each document but the last.
func kioSplit(s string) ([]string, bool) {
	if s == "" {
		return nil, true
	}
	var docs []string
	prev := 0
	for _, loc := range kioSeparator.FindAllStringIndex(s, -1) {
		if rest := strings.TrimSpace(s[loc[0]+4 : loc[1]]); rest != "" && rest[0] != '#' {
			return nil, false
		}
		docs = append(docs, s[prev:loc[0]]+"\n")
		prev = loc[1]
	}
	return append(docs, s[prev:]), true
}

func TestSplitDocumentsIsKios(t *testing.T) {
	for _, s := range append(streams, randomStreams(2000)...) {
		docs, err := SplitDocuments([]byte(s))
		var got []string
		for _, d := range docs {
			got = append(got, string(d))
		}
		want, ok := kioSplit(s)
		if (err == nil) != ok || !reflect.DeepEqual(got, want) {
			t.Errorf("SplitDocuments(%q) = %q, %v; want %q (ok %v)", s, got, err, want, ok)
		}
	}
}

func TestSplitDocumentsError(t *testing.T) {
	_, err := SplitDocuments([]byte("a: 1\n--- x\nb: 2\n"))
	if err == nil || err.Error() != "invalid document separator: --- x" {
		t.Errorf("error = %v, want kio's invalid document separator: --- x", err)
	}
}

func TestSplitDocumentsAppendsSafely(t *testing.T) {
	s := []byte("a: 1\n---\nb: 2\n")
	docs, err := SplitDocuments(s)
	if err != nil {
		t.Fatal(err)
	}
	_ = append(docs[0], 'X')
	if string(s) != "a: 1\n---\nb: 2\n" {
		t.Errorf("appending to a document wrote into the stream: %q", s)
	}
}
