package trace

import (
	"reflect"
	"testing"
)

// parseDocs splits where kustomize does and keeps each document's lines those of the file.
func TestParseDocsLines(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []int // the line of each document's first key
	}{
		{"one", "a: 1\n", []int{1}},
		{"separators", "a: 1\n---\nb: 2\n--- # comment\n\nc: 3\n", []int{1, 3, 6}},
		{"leading separator", "---\na: 1\n---\nb: 2\n", []int{2, 4}},
		{"CRLF", "a: 1\r\n---\r\nb: 2\r\n", []int{1, 3}},
		{"unparseable document left out", "a: 1\n---\nb: [\n---\nc: 3\n", []int{1, 5}},
	} {
		var got []int
		for _, d := range parseDocs([]byte(c.in), 0) {
			got = append(got, d.Content[0].Line)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: lines %v, want %v", c.name, got, c.want)
		}
	}
}
